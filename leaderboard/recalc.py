"""The nightly rank recalculation (Celery beat, 03:00 server time).

:func:`recalc_ranks` does, for the day that just ended (or ``day``):

1. **Re-applies the points rule** (:mod:`accounts.points`) to every hand
   row; a row whose points differ gets its points set and the difference
   booked as a ``recalc`` ledger entry (so the balance follows).
2. **Repairs balances**: ``Profile.coins`` / ``rating_points`` are set to
   their ledger sums where they drifted.
3. **Rebuilds the counters** (``PlayerStats``: hands, wins, 自摸, 放炮,
   流局, points, coins, fan sum, biggest fan, rated hands, the latest
   rating) from the ``HandSeat`` rows, inserting missing rows and fixing
   every drifted one.
4. **Stores the dated snapshot of every board** (5 boards × 4 periods ×
   every rule set and overall) for ``day``, replacing that date's rows,
   and drops snapshots older than ``MAHJONG_SNAPSHOT_DAYS``.
5. Reports what it changed (:class:`RecalcReport`, logged and returned as
   the task's result).

Set-based SQL throughout (one statement per step per batch of players,
one ``INSERT … SELECT`` per board), never a Python loop per hand.  The
rating is not replayed: it is updated incrementally by every settlement
(``leaderboard.services``); step 3 only repairs the stored rating from the
latest rated hand.  openskill has no time decay, so nothing grows the
deviation of inactive players (see ``leaderboard.rating``).

**Concurrency** (it may run while hands are settled): steps 1–3 run per
batch of players in one transaction that first locks the batch's profile
rows (``SELECT … FOR UPDATE``, ascending user id).  Every settlement locks
its two players' profiles *before* it writes their ledger entries, hand
rows and counters (``games.services.settlement.book_hand``).  So a
settlement either committed before the batch's lock — and the batch's
statements, which start after the lock, see all of it (READ COMMITTED
takes a fresh snapshot per statement) — or it waits for the batch to
commit and then adds its own increments to the repaired counters.  Nothing
is lost or counted twice.  Snapshots only insert rows of their own date.

**Idempotent**: a second run finds nothing to repair (0 rows changed) and
rewrites the same snapshot rows.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import BigIntegerField, F, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from accounts.ledger import POINTS, Movement, ledger_post, lock_profiles
from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points_sql
from games.models import HandSeat
from games.rules.rulesets import NAMES as RULESETS

from .models import OVERALL, BoardSnapshot, PlayerStats
from .periods import PERIODS, local_today
from .rating import MU, SIGMA
from .selectors import BOARDS, BoardKey, board_queryset

log = logging.getLogger(__name__)


@dataclass
class RecalcReport:
    """What one run changed (all counts of rows)."""

    date: str
    players: int = 0
    points_recalculated: int = 0
    hand_rows_repaired: int = 0
    balances_repaired: int = 0
    stats_inserted: int = 0
    stats_repaired: int = 0
    stats_emptied: int = 0
    snapshot_rows: int = 0
    snapshots_pruned: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def corrected(self) -> int:
        """Rows that had drifted and were put right."""
        return (
            self.points_recalculated
            + self.hand_rows_repaired
            + self.balances_repaired
            + self.stats_inserted
            + self.stats_repaired
            + self.stats_emptied
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["corrected"] = self.corrected
        return data


def _t(name: str) -> str:
    return connection.ops.quote_name(name)


def _repair_points(lo: int, hi: int) -> tuple[int, int]:
    """Step 1 for users ``lo..hi`` (profiles locked): re-apply the points rule.

    Where a hand's booked points (its ``hand`` and ``recalc`` ledger entries)
    differ from the rule, the difference is booked as a ``recalc`` entry;
    hand rows whose ``points`` differ from the rule are set to it.  Reversed
    hands are left alone (a moderator undid them).  Returns (entries booked,
    rows repaired).
    """
    seats = HandSeat.objects.filter(
        user_id__gte=lo, user_id__lte=hi, reversed=False
    ).exclude(result=HandSeat.Result.ANNULLED)
    booked = (
        LedgerEntry.objects.filter(
            hand_id=OuterRef("hand_id"),
            user_id=OuterRef("user_id"),
            currency=POINTS,
            kind__in=[LedgerEntry.Kind.HAND, LedgerEntry.Kind.RECALC],
        )
        .values("user_id")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    drifted = list(
        seats.annotate(
            rule=hand_points_sql(),
            booked=Coalesce(Subquery(booked), Value(0), output_field=BigIntegerField()),
        )
        .exclude(booked=F("rule"))
        .values_list("user_id", "hand_id", "booked", "rule")
    )
    if drifted:
        ledger_post(
            movements=[
                Movement(
                    user_id,
                    POINTS,
                    int(rule) - int(booked),
                    LedgerEntry.Kind.RECALC,
                    hand_id=hand_id,
                    reason="nightly: points rule re-applied",
                )
                for user_id, hand_id, booked, rule in drifted
            ],
            locked=lock_profiles(user_ids={row[0] for row in drifted}),
        )
    rows = seats.exclude(points=hand_points_sql()).update(points=hand_points_sql())
    return len(drifted), rows


def _repair_balances(lo: int, hi: int) -> int:
    """Step 2: balances that are not their ledger's sum are set to it."""
    profile, ledger = _t(Profile._meta.db_table), _t(LedgerEntry._meta.db_table)

    def total(currency: str) -> str:
        return (
            f"COALESCE((SELECT SUM(l.amount) FROM {ledger} l WHERE"
            f" l.user_id = {profile}.user_id AND l.currency = '{currency}'), 0)"
        )

    sql = (
        f"UPDATE {profile} SET coins = {total('coins')},"
        f" rating_points = {total('points')}"
        f" WHERE user_id BETWEEN %s AND %s AND"
        f" (coins <> {total('coins')} OR rating_points <> {total('points')})"
    )
    with connection.cursor() as cur:
        cur.execute(sql, [lo, hi])
        return int(cur.rowcount)


_STAT_COLUMNS = (
    "hands",
    "wins",
    "self_drawn",
    "dealt_in",
    "draws",
    "points",
    "coins",
    "fan_sum",
    "max_fan",
    "rated_hands",
    "rating",
    "deviation",
    "last_played",
)


def _aggregates_sql() -> str:
    """The counters of users ``%s..%s`` from HandSeat, per rule set and overall.

    One row per (user_id, rs); parameters: lo, hi four times.
    """
    seats = _t(HandSeat._meta.db_table)
    t, f = "1", "0"
    if connection.vendor == "postgresql":
        t, f = "TRUE", "FALSE"

    def counters(group: str, rs: str, rating_col: str, dev_col: str) -> str:
        return f"""
        SELECT h.user_id AS user_id, {rs} AS rs,
            COUNT(*) AS hands,
            SUM(CASE WHEN h.won = {t} THEN 1 ELSE 0 END) AS wins,
            SUM(CASE WHEN h.self_drawn = {t} THEN 1 ELSE 0 END) AS self_drawn,
            SUM(CASE WHEN h.dealt_in = {t} THEN 1 ELSE 0 END) AS dealt_in,
            SUM(CASE WHEN h.result = 'draw' THEN 1 ELSE 0 END) AS draws,
            SUM(CASE WHEN h.reversed = {f} THEN h.points ELSE 0 END) AS points,
            SUM(CASE WHEN h.reversed = {f} THEN h.coins ELSE 0 END) AS coins,
            SUM(CASE WHEN h.won = {t} THEN h.fan ELSE 0 END) AS fan_sum,
            MAX(CASE WHEN h.won = {t} THEN h.fan ELSE 0 END) AS max_fan,
            COUNT(h.{rating_col}) AS rated_hands,
            MAX(h.ended) AS last_played
        FROM {seats} h
        WHERE h.user_id BETWEEN %s AND %s AND h.result <> 'annulled'
        GROUP BY {group}"""

    def latest(part: str, rs: str, rating_col: str, dev_col: str) -> str:
        return f"""
        SELECT user_id, {rs} AS rs, r, d FROM (
            SELECT h.user_id, h.ruleset, h.{rating_col} AS r, h.{dev_col} AS d,
                ROW_NUMBER() OVER (
                    PARTITION BY {part} ORDER BY h.id DESC
                ) AS n
            FROM {seats} h
            WHERE h.user_id BETWEEN %s AND %s AND h.{rating_col} IS NOT NULL
        ) x WHERE n = 1"""

    rs_r, rs_d = "ruleset_rating_after", "ruleset_deviation_after"
    return f"""
    WITH c AS (
        {counters("h.user_id", "''", "rating_after", "deviation_after")}
        UNION ALL
        {counters("h.user_id, h.ruleset", "h.ruleset", rs_r, rs_d)}
    ), r AS (
        {latest("h.user_id", "''", "rating_after", "deviation_after")}
        UNION ALL
        {latest("h.user_id, h.ruleset", "ruleset", rs_r, rs_d)}
    )
    SELECT c.user_id, c.rs, c.hands, c.wins, c.self_drawn, c.dealt_in, c.draws,
        c.points, c.coins, c.fan_sum, c.max_fan, c.rated_hands,
        COALESCE(r.r, {MU}) AS rating, COALESCE(r.d, {SIGMA}) AS deviation,
        c.last_played
    FROM c LEFT JOIN r ON r.user_id = c.user_id AND r.rs = c.rs"""


def _repair_stats(lo: int, hi: int) -> tuple[int, int, int]:
    """Step 3: rebuild PlayerStats of users ``lo..hi``.

    Returns (rows inserted, rows repaired, rows emptied).
    """
    stats = _t(PlayerStats._meta.db_table)
    agg = _aggregates_sql()
    params = [lo, hi] * 4
    cols = ", ".join(_STAT_COLUMNS)
    differs = " OR ".join(
        f"{stats}.{c} <> a.{c}"
        if c not in ("rating", "deviation", "last_played")
        else (
            f"ABS({stats}.{c} - a.{c}) > 1e-6"
            if c != "last_played"
            else f"({stats}.{c} IS NULL OR {stats}.{c} <> a.{c})"
        )
        for c in _STAT_COLUMNS
    )
    sets = ", ".join(f"{c} = a.{c}" for c in _STAT_COLUMNS)
    zero = ", ".join(
        f"{c} = 0"
        for c in _STAT_COLUMNS
        if c not in ("rating", "deviation", "last_played")
    )
    with connection.cursor() as cur:
        cur.execute(
            f"INSERT INTO {stats} (user_id, ruleset, {cols})"
            f" SELECT a.user_id, a.rs, {', '.join('a.' + c for c in _STAT_COLUMNS)}"
            f" FROM ({agg}) a WHERE NOT EXISTS (SELECT 1 FROM {stats} s"
            f" WHERE s.user_id = a.user_id AND s.ruleset = a.rs)",
            params,
        )
        inserted = int(cur.rowcount)
        cur.execute(
            f"UPDATE {stats} SET {sets} FROM ({agg}) a"
            f" WHERE {stats}.user_id = a.user_id AND {stats}.ruleset = a.rs"
            f" AND ({differs})",
            params,
        )
        repaired = int(cur.rowcount)
        seats = _t(HandSeat._meta.db_table)
        cur.execute(
            f"UPDATE {stats} SET {zero}, rating = {MU}, deviation = {SIGMA},"
            f" last_played = NULL"
            f" WHERE user_id BETWEEN %s AND %s AND (hands <> 0 OR rated_hands <> 0)"
            f" AND NOT EXISTS (SELECT 1 FROM {seats} h"
            f" WHERE h.user_id = {stats}.user_id"
            f" AND h.result <> 'annulled'"
            f" AND ({stats}.ruleset = '' OR h.ruleset = {stats}.ruleset))",
            [lo, hi],
        )
        emptied = int(cur.rowcount)
    return inserted, repaired, emptied


def _batches(size: int) -> list[tuple[int, int, int]]:
    """Ranges ``(lo, hi, players)`` of user ids, ``size`` profiles each."""
    ids = list(Profile.objects.order_by("user_id").values_list("user_id", flat=True))
    return [
        (ids[i], ids[min(i + size, len(ids)) - 1], len(ids[i : i + size]))
        for i in range(0, len(ids), size)
    ]


def _lock_range(lo: int, hi: int) -> None:
    list(
        Profile.objects.select_for_update()
        .filter(user_id__gte=lo, user_id__lte=hi)
        .order_by("user_id")
        .values_list("pk", flat=True)
    )


def insert_ranked(*, key: BoardKey, day: date) -> int:
    """Insert board ``key``'s ranking as snapshot rows of ``day``; return how many.

    The ranking is :func:`leaderboard.selectors.board_queryset` itself,
    numbered with ``ROW_NUMBER() OVER (ORDER BY value DESC, user_id)`` in one
    ``INSERT … SELECT`` — so a snapshot ranks exactly as the live board.
    (Uses the queryset's compiled SQL, ``QuerySet.query.sql_with_params()``;
    ``tests/leaderboard/test_leaderboard_recalc.py`` checks the result row
    by row against the live board.)
    """
    inner, params = (
        board_queryset(key=key, day=day)
        .values("user_id", "value")
        .query.sql_with_params()
    )
    snap = _t(BoardSnapshot._meta.db_table)
    sql = (
        f"INSERT INTO {snap} (date, board, period, ruleset, user_id, rank, value)"
        f" SELECT %s, %s, %s, %s, b.user_id,"
        f" ROW_NUMBER() OVER (ORDER BY b.value DESC, b.user_id), b.value"
        f" FROM ({inner}) b"
    )
    with connection.cursor() as cur:
        cur.execute(sql, [day, key.board, key.period, key.ruleset, *params])
        return int(cur.rowcount)


def board_keys() -> list[BoardKey]:
    """Every board: 5 kinds × 4 periods × (overall + each rule set)."""
    return [
        BoardKey(b, p, rs)
        for b in BOARDS
        for p in PERIODS
        for rs in (OVERALL, *RULESETS)
    ]


def recalc_ranks(*, day: date | None = None, batch: int = 5000) -> RecalcReport:
    """Run the nightly recalculation for ``day`` (default: yesterday, server time).

    See the module docstring for the steps, the concurrency argument and
    idempotence.  ``batch`` is how many players one locked transaction
    repairs.  Returns the report (also logged).
    """
    day = day or local_today() - timedelta(days=1)
    report = RecalcReport(date=day.isoformat())
    clock = time.perf_counter()
    for lo, hi, n in _batches(batch):
        with transaction.atomic():
            _lock_range(lo, hi)
            report.players += n
            booked, rows = _repair_points(lo, hi)
            report.points_recalculated += booked
            report.hand_rows_repaired += rows
            report.balances_repaired += _repair_balances(lo, hi)
            ins, rep, emp = _repair_stats(lo, hi)
            report.stats_inserted += ins
            report.stats_repaired += rep
            report.stats_emptied += emp
    report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    clock = time.perf_counter()
    with transaction.atomic():
        BoardSnapshot.objects.filter(date=day).delete()
        for key in board_keys():
            report.snapshot_rows += insert_ranked(key=key, day=day)
        keep = day - timedelta(days=settings.MAHJONG_SNAPSHOT_DAYS)
        report.snapshots_pruned, _ = BoardSnapshot.objects.filter(
            date__lt=keep
        ).delete()
    report.seconds["snapshots"] = round(time.perf_counter() - clock, 3)
    log.info("recalc_ranks %s: %s", day, report.to_json())
    return report
