"""Data: the three lobby rooms (新手场 / 初级场 / 高级场).

Minimum balance = 20 × stake: enough to pay a 20-fan loss (erren's minimum
win is 8 fan; the coin cap, seed 002, limits any loss to the poorer balance).
"""

from django.db import migrations

ROOMS = [
    ("新手场", 10, 200, 1),
    ("初级场", 100, 2_000, 2),
    ("高级场", 1000, 20_000, 3),
]


def add_rooms(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for name, stake, minimum, order in ROOMS:
        Room.objects.get_or_create(
            name=name,
            defaults={
                "stake": stake,
                "min_balance": minimum,
                "ruleset": "erren",
                "order": order,
            },
        )


def remove_rooms(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    Room.objects.filter(name__in=[r[0] for r in ROOMS], tables__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_tables")]
    operations = [migrations.RunPython(add_rooms, remove_rooms)]
