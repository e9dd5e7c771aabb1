"""The audit log is append-only in the database too (mahjong_site.append_only)."""

from django.db import migrations

from mahjong_site.append_only import install, uninstall

TABLE = "moderation_auditentry"


class Migration(migrations.Migration):
    dependencies = [("moderation", "0004_sanction_reason_code")]

    operations = [
        migrations.RunPython(
            lambda apps, se: install(se, TABLE), lambda apps, se: uninstall(se, TABLE)
        ),
    ]
