"""Book every existing balance as an ``opening`` ledger entry.

From here on a balance is the sum of its ledger entries; balances that
existed before the ledger enter it once, as they stood.
"""

from django.db import migrations


def book(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    LedgerEntry = apps.get_model("accounts", "LedgerEntry")
    entries = []
    for p in Profile.objects.all().iterator():
        for currency, amount in (("coins", p.coins), ("points", p.rating_points)):
            if amount:
                entries.append(
                    LedgerEntry(
                        user_id=p.user_id,
                        currency=currency,
                        kind="opening",
                        amount=amount,
                        balance_after=amount,
                        reason="balance before the ledger",
                    )
                )
    LedgerEntry.objects.bulk_create(entries, batch_size=1000)


def unbook(apps, schema_editor):
    apps.get_model("accounts", "LedgerEntry").objects.filter(kind="opening").delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_ledger")]

    operations = [migrations.RunPython(book, unbook)]
