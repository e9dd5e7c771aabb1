"""Data: lobby rooms for the five rule sets that had none (issue 11 §2).

``erren`` keeps its three rooms (0002).  Each other rule set gets a 新手场
and a 高级场, stake (房间基数, coins per fan) and minimum balance chosen from
how large its totals run, so a player who can enter can pay a typical loss
(the coin cap, seed 002, limits any loss to the poorer balance anyway):

* ``mcr``: 8 fan minimum, no multipliers, most wins 8–30 fan → minimum
  20 × stake, as ``erren``.
* ``erren64``: 加倍 ×2 per player after the deal (×4 both) → 40 × stake.
* ``jj``: 8 fan minimum plus 10 fan per 加番牌 held → 40 × stake.
* ``liangren``: 明牌 ×4 each, 加倍 ×2 each, 听牌胡 ×2 (a multiplier up to
  ×256) → a small stake and 100 × stake.
* ``youxi``: yaku-style values from 1 fan (役满 20) → a larger stake and
  10 × stake.

Stakes and minimums are rows: staff change them in admin (房间).  Names are
unique and Chinese; ``games/data_names.py`` marks them for translation.
"""

from django.db import migrations

ROOMS = [
    # name, stake, minimum, order, ruleset
    ("国标新手场", 10, 200, 11, "mcr"),
    ("国标高级场", 100, 2_000, 12, "mcr"),
    ("手游新手场", 10, 400, 21, "erren64"),
    ("手游高级场", 100, 4_000, 22, "erren64"),
    ("JJ新手场", 10, 400, 31, "jj"),
    ("JJ高级场", 100, 4_000, 32, "jj"),
    ("两人新手场", 5, 500, 41, "liangren"),
    ("两人高级场", 50, 5_000, 42, "liangren"),
    ("优嘻新手场", 20, 200, 51, "youxi"),
    ("优嘻高级场", 200, 2_000, 52, "youxi"),
]


def add_rooms(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for name, stake, minimum, order, ruleset in ROOMS:
        Room.objects.get_or_create(
            name=name,
            defaults={
                "stake": stake,
                "min_balance": minimum,
                "ruleset": ruleset,
                "order": order,
            },
        )


def remove_rooms(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    Room.objects.filter(name__in=[r[0] for r in ROOMS], tables__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0009_handreview")]
    operations = [migrations.RunPython(add_rooms, remove_rooms)]
