"""A HandSeat row per player for every hand settled before HandSeat existed.

Hands between two people only (a bot seat had no account then); ratings are
left empty (the hands were not rated).  The nightly recalculation rebuilds
the players' counters from these rows.
"""

from django.db import migrations


def backfill(apps, schema_editor):
    HandRecord = apps.get_model("games", "HandRecord")
    HandSeat = apps.get_model("games", "HandSeat")
    rows = []
    hands = HandRecord.objects.filter(
        settled=True, seat0__isnull=False, seat1__isnull=False, ended__isnull=False
    )
    for h in hands.iterator():
        result = h.result or {}
        st = h.settlement or {}
        winner = st.get("winner")
        annulled = h.status == "annulled"
        fans = [
            str(f.get("id"))
            for f in result.get("fans", [])
            if f.get("counted", True) and f.get("id")
        ]
        users = [h.seat0_id, h.seat1_id]
        for seat in (0, 1):
            won = winner == seat and not annulled
            rows.append(
                HandSeat(
                    hand_id=h.pk,
                    seat=seat,
                    user_id=users[seat],
                    opponent_id=users[1 - seat],
                    ruleset=h.ruleset,
                    stake=h.stake,
                    practice=h.practice,
                    ended=h.ended,
                    result=(
                        "annulled"
                        if annulled
                        else "draw"
                        if winner is None
                        else "win"
                        if won
                        else "loss"
                    ),
                    won=won,
                    self_drawn=won and bool(result.get("self_drawn")),
                    dealt_in=(
                        not annulled
                        and st.get("loser") == seat
                        and not result.get("self_drawn")
                    ),
                    fan=int(st.get("fan") or 0) if winner is not None else 0,
                    multiplier=int(st.get("multiplier") or 1),
                    fans=fans if won else [],
                    coins=0 if h.practice else int((st.get("deltas") or [0, 0])[seat]),
                    points=0 if h.practice else int((st.get("skill") or [0, 0])[seat]),
                )
            )
    HandSeat.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_handseat")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
