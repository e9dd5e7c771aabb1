"""The ledger is append-only in the database too (mahjong_site.append_only)."""

from django.db import migrations

from mahjong_site.append_only import install, uninstall

TABLE = "accounts_ledgerentry"


class Migration(migrations.Migration):
    dependencies = [("accounts", "0008_repair_nicknames")]

    operations = [
        migrations.RunPython(
            lambda apps, se: install(se, TABLE), lambda apps, se: uninstall(se, TABLE)
        ),
    ]
