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
from django.db.models import BigIntegerField, Case, Count, F, Max, Q, Sum, Value, When

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


_RS, _AGG, _LEDGER = "recalc_rs", "recalc_agg", "recalc_ledger"
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
_POINT_KINDS = ("hand", "recalc", "reversal")
"""Ledger kinds that make up what a hand booked in points (its net)."""


def _count(q: Q) -> Sum:
    return Sum(Case(When(q, then=Value(1)), default=Value(0)))


def _seat_totals(lo: int, hi: int) -> tuple[str, list[Any]]:
    """SQL of the one pass over the hand rows of users ``lo..hi``.

    One row per (user, rule set): the counters, the points by the rule
    (:func:`accounts.points.hand_points_sql`, compiled by the ORM), how many
    rows store other points than the rule, and the ids of the latest rated
    rows (ids follow the order the settlements rated the hands: a player's
    settlements are serialised by the profile lock).
    """
    rule = hand_points_sql()
    big = BigIntegerField()
    # reversed hands count nowhere but in the rating (games.models.COUNTED)
    live = Q(reversed=False)
    qs = (
        HandSeat.objects.filter(user_id__gte=lo, user_id__lte=hi)
        .exclude(result=HandSeat.Result.ANNULLED)
        .values("user_id", "ruleset")
        .annotate(
            n_hands=_count(live),
            n_wins=_count(live & Q(won=True)),
            n_self_drawn=_count(live & Q(self_drawn=True)),
            n_dealt_in=_count(live & Q(dealt_in=True)),
            n_draws=_count(live & Q(result=HandSeat.Result.DRAW)),
            n_points=Sum(
                Case(When(live, then=rule), default=Value(0), output_field=big)
            ),
            n_coins=Sum(
                Case(When(live, then=F("coins")), default=Value(0), output_field=big)
            ),
            n_fan_sum=Sum(
                Case(When(live & Q(won=True), then=F("fan")), default=Value(0))
            ),
            n_max_fan=Max(
                Case(When(live & Q(won=True), then=F("fan")), default=Value(0))
            ),
            n_rated=Count("ruleset_rating_after"),
            n_last_rated=Max(
                Case(When(ruleset_rating_after__isnull=False, then=F("id")))
            ),
            n_rated_all=Count("rating_after"),
            n_last_rated_all=Max(Case(When(rating_after__isnull=False, then=F("id")))),
            n_last_played=Max("ended"),
            n_bad_rows=_count(live & ~Q(points=rule)),
        )
        .order_by()
    )
    sql, params = qs.query.sql_with_params()
    return sql, list(params)


def _build_totals(cur: Any, lo: int, hi: int) -> None:
    """Temp tables for users ``lo..hi``: ``recalc_rs`` (per rule set, one pass
    over the hand rows), ``recalc_agg`` (the counters as PlayerStats rows:
    each rule set and overall, derived from ``recalc_rs``) and
    ``recalc_ledger`` (balances and each player's booked hand points, one pass
    over the ledger)."""
    seats = _t(HandSeat._meta.db_table)
    profile, ledger = _t(Profile._meta.db_table), _t(LedgerEntry._meta.db_table)
    sql, params = _seat_totals(lo, hi)
    for table in (_RS, _AGG, _LEDGER):
        cur.execute(f"DROP TABLE IF EXISTS {table}")
    if connection.vendor == "postgresql":
        # the per-batch aggregates fit in memory instead of spilling sorts to disk
        cur.execute("SET LOCAL work_mem = '64MB'")
    cur.execute(f"CREATE TEMP TABLE {_RS} AS {sql}", params)
    per_rs = ", ".join(
        f"c.n_{c} AS {c}"
        for c in ("hands", "wins", "self_drawn", "dealt_in", "draws", "points")
    )
    cur.execute(
        f"CREATE TEMP TABLE {_AGG} AS"
        f" SELECT c.user_id AS user_id, c.ruleset AS rs, {per_rs},"
        " c.n_coins AS coins, c.n_fan_sum AS fan_sum, c.n_max_fan AS max_fan,"
        " c.n_rated AS rated_hands,"
        f" COALESCE(r.ruleset_rating_after, {MU}) AS rating,"
        f" COALESCE(r.ruleset_deviation_after, {SIGMA}) AS deviation,"
        " c.n_last_played AS last_played, c.n_bad_rows AS bad_rows"
        f" FROM {_RS} c LEFT JOIN {seats} r ON r.id = c.n_last_rated"
        " UNION ALL"
        " SELECT o.user_id, '', o.hands, o.wins, o.self_drawn, o.dealt_in, o.draws,"
        " o.points, o.coins, o.fan_sum, o.max_fan, o.rated_hands,"
        f" COALESCE(r.rating_after, {MU}), COALESCE(r.deviation_after, {SIGMA}),"
        " o.last_played, o.bad_rows FROM ("
        " SELECT user_id, SUM(n_hands) AS hands, SUM(n_wins) AS wins,"
        " SUM(n_self_drawn) AS self_drawn, SUM(n_dealt_in) AS dealt_in,"
        " SUM(n_draws) AS draws, SUM(n_points) AS points, SUM(n_coins) AS coins,"
        " SUM(n_fan_sum) AS fan_sum, MAX(n_max_fan) AS max_fan,"
        " SUM(n_rated_all) AS rated_hands, MAX(n_last_rated_all) AS last_rated,"
        " MAX(n_last_played) AS last_played, SUM(n_bad_rows) AS bad_rows"
        f" FROM {_RS} GROUP BY user_id) o"
        f" LEFT JOIN {seats} r ON r.id = o.last_rated"
    )
    kinds = ", ".join(f"'{k}'" for k in _POINT_KINDS)
    cur.execute(
        f"CREATE TEMP TABLE {_LEDGER} AS"
        " SELECT p.user_id AS user_id,"
        " COALESCE(SUM(CASE WHEN l.currency = 'coins' THEN l.amount END), 0) AS c,"
        " COALESCE(SUM(CASE WHEN l.currency = 'points' THEN l.amount END), 0) AS pt,"
        " COALESCE(SUM(CASE WHEN l.currency = 'points' AND l.hand_id IS NOT NULL"
        f" AND l.kind IN ({kinds}) THEN l.amount END), 0) AS booked"
        f" FROM {profile} p LEFT JOIN {ledger} l ON l.user_id = p.user_id"
        " WHERE p.user_id BETWEEN %s AND %s GROUP BY p.user_id",
        [lo, hi],
    )


def _repair_points(cur: Any) -> tuple[int, int]:
    """Step 1 (profiles locked, totals built): re-apply the points rule.

    A player whose booked hand points (the net of the hands' ``hand``,
    ``recalc`` and ``reversal`` ledger entries) differ from the rule's total
    has each drifted hand looked at: the difference is booked as a
    ``recalc`` entry.  Hand rows whose ``points`` differ from the rule are
    set to it.  Returns (entries booked, rows repaired).
    """
    cur.execute(
        f"SELECT a.user_id FROM {_AGG} a JOIN {_LEDGER} l ON l.user_id = a.user_id"
        " WHERE a.rs = '' AND a.points <> l.booked"
    )
    users = [row[0] for row in cur.fetchall()]
    drifted: list[tuple[int, int, int, int]] = []
    if users:
        inner, params = (
            HandSeat.objects.filter(user_id__in=users, reversed=False)
            .exclude(result=HandSeat.Result.ANNULLED)
            .annotate(rule=hand_points_sql())
            .values("user_id", "hand_id", "rule")
            .query.sql_with_params()
        )
        ledger = _t(LedgerEntry._meta.db_table)
        kinds = ", ".join(f"'{k}'" for k in _POINT_KINDS)
        marks = ", ".join("%s" for _ in users)
        cur.execute(
            f"SELECT s.user_id, s.hand_id, COALESCE(l.total, 0), s.rule"
            f" FROM ({inner}) s LEFT JOIN ("
            f" SELECT user_id, hand_id, SUM(amount) AS total FROM {ledger}"
            f" WHERE currency = 'points' AND kind IN ({kinds})"
            f" AND user_id IN ({marks}) AND hand_id IS NOT NULL"
            " GROUP BY user_id, hand_id"
            ") l ON l.user_id = s.user_id AND l.hand_id = s.hand_id"
            " WHERE COALESCE(l.total, 0) <> s.rule",
            [*params, *users],
        )
        drifted = cur.fetchall()
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
    cur.execute(f"SELECT user_id FROM {_AGG} WHERE rs = '' AND bad_rows > 0")
    bad = [row[0] for row in cur.fetchall()]
    rows = 0
    if bad:
        rows = (
            HandSeat.objects.filter(user_id__in=bad, reversed=False)
            .exclude(points=hand_points_sql())
            .update(points=hand_points_sql())
        )
    return len(drifted), rows


def _repair_balances(cur: Any, lo: int, hi: int, *, fresh: bool) -> int:
    """Step 2: balances that are not their ledger's sum are set to it.

    ``fresh`` False: step 1 booked entries, so the ledger totals are read again.
    """
    profile, ledger = _t(Profile._meta.db_table), _t(LedgerEntry._meta.db_table)
    if not fresh:
        cur.execute(f"DROP TABLE {_LEDGER}")
        cur.execute(
            f"CREATE TEMP TABLE {_LEDGER} AS SELECT p.user_id AS user_id,"
            " COALESCE(SUM(CASE WHEN l.currency = 'coins' THEN l.amount END), 0) AS c,"
            " COALESCE(SUM(CASE WHEN l.currency = 'points' THEN l.amount END), 0)"
            f" AS pt FROM {profile} p LEFT JOIN {ledger} l ON l.user_id = p.user_id"
            " WHERE p.user_id BETWEEN %s AND %s GROUP BY p.user_id",
            [lo, hi],
        )
    cur.execute(
        f"UPDATE {profile} SET coins = s.c, rating_points = s.pt FROM {_LEDGER} s"
        f" WHERE {profile}.user_id = s.user_id"
        f" AND ({profile}.coins <> s.c OR {profile}.rating_points <> s.pt)"
    )
    return int(cur.rowcount)


def _repair_stats(cur: Any, lo: int, hi: int) -> tuple[int, int, int]:
    """Step 3: PlayerStats of users ``lo..hi`` set to the rebuilt counters.

    Returns (rows inserted, rows repaired, rows emptied).
    """
    stats = _t(PlayerStats._meta.db_table)
    cols = ", ".join(_STAT_COLUMNS)
    floats = ("rating", "deviation")

    def differs(c: str) -> str:
        if c in floats:
            return f"ABS({stats}.{c} - a.{c}) > 1e-6"
        if c == "last_played":
            return f"({stats}.{c} IS NULL OR {stats}.{c} <> a.{c})"
        return f"{stats}.{c} <> a.{c}"

    sets = ", ".join(f"{c} = a.{c}" for c in _STAT_COLUMNS)
    counts = [c for c in _STAT_COLUMNS if c not in (*floats, "last_played")]
    zero = ", ".join(f"{c} = 0" for c in counts)
    cur.execute(
        f"INSERT INTO {stats} (user_id, ruleset, {cols})"
        f" SELECT a.user_id, a.rs, {', '.join('a.' + c for c in _STAT_COLUMNS)}"
        f" FROM {_AGG} a WHERE NOT EXISTS (SELECT 1 FROM {stats} s"
        f" WHERE s.user_id = a.user_id AND s.ruleset = a.rs)"
    )
    inserted = int(cur.rowcount)
    cur.execute(
        f"UPDATE {stats} SET {sets} FROM {_AGG} a"
        f" WHERE {stats}.user_id = a.user_id AND {stats}.ruleset = a.rs"
        f" AND ({' OR '.join(differs(c) for c in _STAT_COLUMNS)})"
    )
    repaired = int(cur.rowcount)
    cur.execute(
        f"UPDATE {stats} SET {zero}, rating = {MU}, deviation = {SIGMA},"
        f" last_played = NULL"
        f" WHERE user_id BETWEEN %s AND %s AND (hands <> 0 OR rated_hands <> 0)"
        f" AND NOT EXISTS (SELECT 1 FROM {_AGG} a"
        f" WHERE a.user_id = {stats}.user_id AND a.rs = {stats}.ruleset)",
        [lo, hi],
    )
    emptied = int(cur.rowcount)
    return inserted, repaired, emptied


def repair_batch(lo: int, hi: int) -> dict[str, int]:
    """Steps 1–3 for users ``lo..hi`` in the caller's transaction (profiles locked)."""
    with connection.cursor() as cur:
        _build_totals(cur, lo, hi)
        booked, rows = _repair_points(cur)
        balances = _repair_balances(cur, lo, hi, fresh=not booked)
        inserted, repaired, emptied = _repair_stats(cur, lo, hi)
        for table in (_RS, _AGG, _LEDGER):
            cur.execute(f"DROP TABLE IF EXISTS {table}")
    return {
        "points_recalculated": booked,
        "hand_rows_repaired": rows,
        "balances_repaired": balances,
        "stats_inserted": inserted,
        "stats_repaired": repaired,
        "stats_emptied": emptied,
    }


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


def recalc_day_check(*, day: date, today: date | None = None) -> None:
    """Refuse a day the recalculation cannot be run for by hand.

    Not after today (server time): a future day has no hands and its
    snapshot would hide the real one; not before the snapshot retention
    (``MAHJONG_SNAPSHOT_DAYS`` days before today): its snapshot would be
    pruned by the next nightly run, and the all-time boards it stores are
    today's standings, not that day's.

    Raises:
        ValueError: with the reason and the allowed range.
    """
    today = today or local_today()
    first = today - timedelta(days=settings.MAHJONG_SNAPSHOT_DAYS)
    if day > today:
        raise ValueError(
            f"--date {day.isoformat()} is in the future (today is"
            f" {today.isoformat()}); use a date from {first.isoformat()}"
            f" to {today.isoformat()}"
        )
    if day < first:
        raise ValueError(
            f"--date {day.isoformat()} is older than the snapshot retention"
            f" (MAHJONG_SNAPSHOT_DAYS={settings.MAHJONG_SNAPSHOT_DAYS}); use a"
            f" date from {first.isoformat()} to {today.isoformat()}"
        )


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
            for name, count in repair_batch(lo, hi).items():
                setattr(report, name, getattr(report, name) + count)
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
