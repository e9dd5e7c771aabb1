"""Leaderboard writes: per-player counters and ratings after each hand.

Called by the settlement (``games.services.settlement``) inside the hand's
transaction, after it has locked both players' profiles
(``accounts.ledger.lock_profiles``): that lock serialises every writer of a
player's statistics (other tables, the nightly recalculation), so the
read-modify-write of the ratings below cannot lose an update.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import connection

from mahjong_site.columns import quoted_column

from .models import OVERALL, PlayerStats
from .rating import Rating, rate_hand

if TYPE_CHECKING:
    from games.models import HandSeat


def _stats_rows(
    user_ids: Sequence[int], ruleset: str
) -> dict[tuple[int, str], PlayerStats]:
    """The PlayerStats rows (their ``rating``, ``deviation`` and ``pk``:
    what :func:`stats_record_hand` reads) of ``user_ids`` overall and in
    ``ruleset``, created when missing.

    Read by a written-out ``SELECT`` of those columns: the ORM compiling
    the filter cost about 1 ms of CPU at every hand's end (issue 15).
    """
    keys = {(u, r) for u in user_ids for r in (OVERALL, ruleset)}
    users, rulesets = sorted(set(user_ids)), sorted({OVERALL, ruleset})
    names = ("id", "user_id", "ruleset", "rating", "deviation")
    columns = [_column(n) for n in names]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(columns)}"
            f" FROM {connection.ops.quote_name(PlayerStats._meta.db_table)}"
            f" WHERE {columns[1]} IN ({', '.join(['%s'] * len(users))})"
            f" AND {columns[2]} IN ({', '.join(['%s'] * len(rulesets))})",
            [*users, *rulesets],
        )
        found = cursor.fetchall()
    rows = {
        (user, rules): PlayerStats(
            id=pk, user_id=user, ruleset=rules, rating=rating, deviation=deviation
        )
        for pk, user, rules, rating, deviation in found
    }
    missing = [
        PlayerStats(user_id=u, ruleset=r) for (u, r) in keys if (u, r) not in rows
    ]
    if missing:
        PlayerStats.objects.bulk_create(missing)
        for s in missing:
            rows[(s.user_id, s.ruleset)] = s
    return rows


def stats_record_hand(*, seats: Sequence[HandSeat]) -> None:
    """Rate the hand and add it to both players' counters (overall and rule set).

    ``seats`` are the hand's two unsaved :class:`~games.models.HandSeat`
    rows, seat 0 first; their ``rating_*`` fields are filled in here (the
    caller saves them).  Annulled hands change nothing.  A rated hand
    (someone won) updates the overall rating and the rule set's rating
    (``leaderboard.rating.rate_hand``); 流局 is counted but not rated.

    Call with both profiles locked, inside the settlement's transaction.
    """
    from games.models import HandSeat

    if len(seats) != 2 or seats[0].result == HandSeat.Result.ANNULLED:
        return
    ruleset = seats[0].ruleset
    user_ids = [s.user_id for s in seats]
    rows = _stats_rows(user_ids, ruleset)
    winner = next((s.seat for s in seats if s.won), None)
    for scope in (OVERALL, ruleset):
        before = tuple(
            Rating(rows[(u, scope)].rating, rows[(u, scope)].deviation)
            for u in user_ids
        )
        after = rate_hand(ratings=(before[0], before[1]), winner=winner)
        for i, seat in enumerate(seats):
            if after is None:
                continue
            if scope == OVERALL:
                seat.rating_before = before[i].mu
                seat.rating_after = after[i].mu
                seat.deviation_after = after[i].sigma
            else:
                seat.ruleset_rating_after = after[i].mu
                seat.ruleset_deviation_after = after[i].sigma
            rows[(seat.user_id, scope)].rating = after[i].mu
            rows[(seat.user_id, scope)].deviation = after[i].sigma
    rated = winner is not None
    params = []
    for seat in seats:
        for scope in (OVERALL, ruleset):
            row = rows[(seat.user_id, scope)]
            fan = seat.fan if seat.won else 0
            params.append(
                [
                    int(seat.won),
                    int(seat.self_drawn),
                    int(seat.dealt_in),
                    int(seat.result == HandSeat.Result.DRAW),
                    seat.points,
                    seat.coins,
                    fan,
                    fan,
                    fan,
                    *([_ended(seat.ended)] * 2),
                    *((row.rating, row.deviation) if rated else ()),
                    row.pk,
                ]
            )
    with connection.cursor() as cursor:
        # psycopg sends the four in one round trip (a pipeline)
        cursor.executemany(_stats_update_sql(rated=rated), params)


def _ended(value: Any) -> Any:
    """A hand's end time as the ``last_played`` column takes it."""
    return PlayerStats._meta.get_field("last_played").get_db_prep_value(
        value, connection
    )


def _stats_update_sql(*, rated: bool) -> str:
    """The ``UPDATE`` adding one hand to one PlayerStats row, by primary key.

    Written out, not compiled by the ORM from ``F()`` expressions: compiling
    the four statements of a hand cost about 5 ms of CPU at every hand's end,
    a tenth of a live table's CPU per move (issue 15).  Parameters, in order:
    wins, self_drawn, dealt_in, draws, points, coins and fan_sum to add; the
    hand's fan twice (max_fan); its end twice (last_played); with ``rated``
    the new rating and deviation (rated_hands + 1); the row's primary key.
    ``CASE`` instead of ``GREATEST`` (not in SQLite): max_fan is never NULL
    and a NULL last_played takes the hand's end, as ``Greatest(Coalesce(…))``
    did.
    """
    col = _column
    sets = [f"{col('hands')} = {col('hands')} + 1"]
    sets += [
        f"{col(name)} = {col(name)} + %s"
        for name in (
            "wins",
            "self_drawn",
            "dealt_in",
            "draws",
            "points",
            "coins",
            "fan_sum",
        )
    ]
    max_fan, last = col("max_fan"), col("last_played")
    sets.append(f"{max_fan} = CASE WHEN {max_fan} < %s THEN %s ELSE {max_fan} END")
    sets.append(
        f"{last} = CASE WHEN {last} IS NULL OR {last} < %s THEN %s ELSE {last} END"
    )
    if rated:
        sets += [
            f"{col('rating')} = %s",
            f"{col('deviation')} = %s",
            f"{col('rated_hands')} = {col('rated_hands')} + 1",
        ]
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    return f"UPDATE {table} SET {', '.join(sets)} WHERE {col('id')} = %s"


def _column(name: str) -> str:
    """The quoted column of PlayerStats's field ``name`` (name or attname)."""
    return quoted_column(PlayerStats, name)


def stats_reverse_hand(*, seats: Sequence[HandSeat]) -> None:
    """Take a reversed hand out of the players' counters.

    A reversed hand counts nowhere but in the rating (``games.models.COUNTED``):
    its players' counters — hands, wins, 自摸, 放炮, 流局, points, coins, fan
    sum and 最大番 — are rebuilt from their hand rows by the nightly job's own
    statements (``leaderboard.recalc.repair_players``),
    so the biggest hand is right too.  Call with the profiles locked, after
    the rows are marked ``reversed``.
    """
    _refresh(sorted({s.user_id for s in seats}))


def stats_restore_hand(*, seats: Sequence[HandSeat]) -> None:
    """Put a restored hand (a reversal undone) back into the players' counters
    (rebuilt as in :func:`stats_reverse_hand`).  Call with the profiles
    locked, after the rows' ``reversed`` mark is cleared."""
    _refresh(sorted({s.user_id for s in seats}))


def _refresh(user_ids: Sequence[int]) -> None:
    from .recalc import repair_players

    repair_players(user_ids=user_ids)
