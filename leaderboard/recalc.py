"""The nightly rank recalculation (Celery beat, 03:00 server time).

:func:`recalc_ranks` does, for the day that just ended (or ``day``):

1. **Checks** every player in one statement (one pass over the hand rows,
   one over the ledger): the points rule (:mod:`accounts.points`) against
   what the ledger booked for the hands and against each hand row's
   ``points``, balances against their ledger sums, ``PlayerStats`` against
   the counters rebuilt from the hand rows.  Players where anything
   differs are *drifted*; usually none.
2. **Repairs** the drifted players (only they are locked and written):
   a hand whose booked points differ from the rule gets the difference as a
   ``recalc`` ledger entry (so the balance follows) and its row's
   ``points`` set; balances are set to their ledger sums; counters (hands,
   wins, 自摸, 放炮, 流局, points, coins, fan sum, biggest fan, rated hands,
   the latest rating) are inserted, corrected or emptied — only rows that
   differ are written.
3. **Stores the dated snapshot of every board** (5 boards × 4 periods ×
   every rule set and overall) for ``day``: one row per player and
   (period, rule set) with each board's rank and value
   (:class:`~leaderboard.models.BoardSnapshot`), ranked by
   :func:`leaderboard.selectors.board_values` — the live boards' own
   conditions and values — with ``ROW_NUMBER()``; only rows that differ
   from what is stored for that date are written; snapshots older than
   ``MAHJONG_SNAPSHOT_DAYS`` are dropped.
4. Reports what it changed (:class:`RecalcReport`, logged and returned as
   the task's result), with the seconds of each step.

Set-based SQL throughout (a statement per step over all players, a
statement per snapshot of a period and rule set), never a Python loop per
hand — except the ledger entries of a changed points rule, which go
through :func:`accounts.ledger.ledger_post` like every movement.  The rating
is not replayed: it is updated incrementally by every settlement
(``leaderboard.services``); the counters' step only repairs the stored
rating from the latest rated hand.  openskill has no time decay, so nothing
grows the deviation of inactive players (see ``leaderboard.rating``).

**Concurrency** (it may run while hands are settled): recompute, then apply
under the players' locks.  Every settlement writes a hand's rows, ledger
entries, balances and counters in one transaction, after locking its two
players' profiles (``games.services.settlement.book_hand``).

* The check is *one* statement, so it reads one snapshot of the database
  (any isolation level): in it each settlement is either wholly present or
  wholly absent, and stored counters and balances agree with the hand rows
  and ledger unless they really drifted.  It takes no locks and writes
  nothing but a temporary table of drifted players.  (A settlement
  committed after that snapshot keeps an undrifted player undrifted: it
  adds its hand to both sides.)
* The repair locks the drifted players' profiles in one statement
  (``SELECT … FOR UPDATE`` in ascending user id, the settlements' order, so
  no deadlock) and only then recomputes *those* players with fresh
  statements: READ COMMITTED gives each statement a snapshot taken after
  the locks were granted, so it sees every settlement of these players that
  committed before, and none can commit until the repair does — a
  settlement that comes meanwhile waits, then adds its own increments to
  the repaired counters.  Nothing is lost or counted twice
  (``tests/leaderboard/test_leaderboard_concurrency.py``).  Players who did
  not drift are never locked, so play goes on during the run.
* Snapshots only write rows of their own date.
* A reversed or restored hand rebuilds its players at once with the same
  statements (:func:`repair_players`), under the reversal's own locks.

**Idempotent**: a second run finds no drifted player (0 rows changed) and
finds every snapshot row of the date already as it would write it (0 rows
written).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import BigIntegerField, Case, Count, F, Max, Q, Sum, Value, When
from django.db.models.expressions import RawSQL

from accounts.ledger import POINTS, Movement, ledger_post
from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points_sql
from games.models import HandSeat
from games.rules.rulesets import NAMES as RULESETS

from .models import BOARD_KINDS, OVERALL, BoardSnapshot, PlayerStats
from .periods import PERIODS, local_today
from .rating import MU, SIGMA
from .selectors import BoardKey, board_values
from .sql import queryset_sql

log = logging.getLogger(__name__)


@dataclass
class RecalcReport:
    """What one run changed (all counts of rows) and how long each step took."""

    date: str
    players: int = 0
    drifted_players: int = 0
    points_recalculated: int = 0
    hand_rows_repaired: int = 0
    balances_repaired: int = 0
    stats_inserted: int = 0
    stats_repaired: int = 0
    stats_emptied: int = 0
    snapshot_rows: int = 0
    snapshot_written: int = 0
    snapshot_removed: int = 0
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


def _pg() -> bool:
    return connection.vendor == "postgresql"


def _same(a: str, b: str) -> str:
    """Null-safe equality (SQLite spells it ``IS``)."""
    return f"{a} IS NOT DISTINCT FROM {b}" if _pg() else f"{a} IS {b}"


def _work_mem(cur: Any) -> None:
    """PostgreSQL settings for this transaction's big statements."""
    if _pg():
        # the aggregates and window sorts over every player fit in memory
        # instead of spilling to disk
        cur.execute("SET LOCAL work_mem = '256MB'")
        # JIT compiling these one-off statements costs seconds of CPU each
        # (measured: 7 s for the check alone) and saves less
        cur.execute("SET LOCAL jit = off")


_RS, _AGG, _LEDGER, _DRIFT = "recalc_rs", "recalc_agg", "recalc_ledger", "recalc_drift"
_SNAP = "recalc_snap"
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
_DRIFTED = f"SELECT user_id FROM {_DRIFT}"


def _count(q: Q) -> Sum:
    return Sum(Case(When(q, then=Value(1)), default=Value(0)))


def _seat_totals(users: str | None) -> tuple[str, list[Any]]:
    """SQL of the one pass over the hand rows (of the players ``users`` selects).

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
    rows = HandSeat.objects.exclude(result=HandSeat.Result.ANNULLED)
    if users is not None:
        rows = rows.filter(user_id__in=RawSQL(users, []))
    qs = (
        rows.values("user_id", "ruleset")
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
    return queryset_sql(qs)


def _totals(users: str | None) -> list[tuple[str, str, list[Any]]]:
    """The relations the check and the repair read, in order: (name, SQL, params).

    ``recalc_rs`` (per rule set, one pass over the hand rows), ``recalc_agg``
    (the counters as PlayerStats rows: each rule set and overall, derived
    from ``recalc_rs``) and ``recalc_ledger`` (per player: balances, their
    ledger sums and the booked hand points, one pass over the ledger).
    ``users`` (SQL selecting user ids) limits them to those players.
    """
    seats = _t(HandSeat._meta.db_table)
    profile, ledger = _t(Profile._meta.db_table), _t(LedgerEntry._meta.db_table)
    per_rs = ", ".join(
        f"c.n_{c} AS {c}"
        for c in ("hands", "wins", "self_drawn", "dealt_in", "draws", "points")
    )
    agg = (
        f"SELECT c.user_id AS user_id, c.ruleset AS rs, {per_rs},"
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
    only = "" if users is None else f" WHERE user_id IN ({users})"
    led = (
        "SELECT p.user_id AS user_id, p.coins AS bal_c, p.rating_points AS bal_pt,"
        " COALESCE(l.c, 0) AS c, COALESCE(l.pt, 0) AS pt,"
        f" COALESCE(l.booked, 0) AS booked FROM {profile} p LEFT JOIN ("
        " SELECT user_id,"
        " SUM(CASE WHEN currency = 'coins' THEN amount END) AS c,"
        " SUM(CASE WHEN currency = 'points' THEN amount END) AS pt,"
        " SUM(CASE WHEN currency = 'points' AND hand_id IS NOT NULL"
        f" AND kind IN ({kinds}) THEN amount END) AS booked"
        f" FROM {ledger}{only} GROUP BY user_id) l ON l.user_id = p.user_id"
        + ("" if users is None else f" WHERE p.user_id IN ({users})")
    )
    rs_sql, rs_params = _seat_totals(users)
    return [(_RS, rs_sql, rs_params), (_AGG, agg, []), (_LEDGER, led, [])]


def _differs(c: str) -> str:
    """SQL: stored counter ``s.<c>`` differs from rebuilt ``a.<c>``."""
    stats = "s"
    if c in ("rating", "deviation"):
        return f"ABS({stats}.{c} - a.{c}) > 1e-6"
    if c == "last_played":
        return f"NOT ({_same(f'{stats}.{c}', f'a.{c}')})"
    return f"{stats}.{c} <> a.{c}"


def _check(cur: Any) -> int:
    """Step 1: fill ``recalc_drift`` with every drifted player; return how many.

    One statement (the relations of :func:`_totals` as its CTEs), so one
    snapshot of the database: see the module docstring.
    """
    stats = _t(PlayerStats._meta.db_table)
    ctes = _totals(None)
    with_sql = "WITH " + ", ".join(f"{name} AS ({sql})" for name, sql, _p in ctes)
    params = [p for _n, _s, ps in ctes for p in ps]
    cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")
    cur.execute(
        f"CREATE TEMP TABLE {_DRIFT} AS {with_sql}"
        f" SELECT user_id FROM {_AGG} WHERE rs = '' AND bad_rows > 0"
        f" UNION SELECT a.user_id FROM {_AGG} a JOIN {_LEDGER} l"
        " ON l.user_id = a.user_id WHERE a.rs = '' AND a.points <> l.booked"
        f" UNION SELECT user_id FROM {_LEDGER} WHERE bal_c <> c OR bal_pt <> pt"
        f" UNION SELECT a.user_id FROM {_AGG} a LEFT JOIN {stats} s"
        " ON s.user_id = a.user_id AND s.ruleset = a.rs"
        f" WHERE s.id IS NULL OR {' OR '.join(_differs(c) for c in _STAT_COLUMNS)}"
        f" UNION SELECT s.user_id FROM {stats} s"
        " WHERE (s.hands <> 0 OR s.rated_hands <> 0) AND NOT EXISTS ("
        f"SELECT 1 FROM {_AGG} a WHERE a.user_id = s.user_id AND a.rs = s.ruleset)",
        params,
    )
    cur.execute(f"SELECT COUNT(*) FROM {_DRIFT}")
    return int(cur.fetchone()[0])


def _lock_drifted() -> int:
    """Lock the drifted players' profiles, ascending user id (one statement)."""
    return len(
        Profile.objects.select_for_update()
        .filter(user_id__in=RawSQL(_DRIFTED, []))
        .order_by("user_id")
        .values_list("pk", flat=True)
    )


def _build(cur: Any, relations: list[tuple[str, str, list[Any]]]) -> None:
    for name, sql, params in relations:
        cur.execute(f"DROP TABLE IF EXISTS {name}")
        cur.execute(f"CREATE TEMP TABLE {name} AS {sql}", params)


def _repair_points(cur: Any) -> tuple[int, int]:
    """Re-apply the points rule to the drifted players (locked, totals built).

    A player whose booked hand points (the net of the hands' ``hand``,
    ``recalc`` and ``reversal`` ledger entries) differ from the rule's total
    has each drifted hand looked at: the difference is booked as a
    ``recalc`` entry.  Hand rows whose ``points`` differ from the rule are
    set to it.  Returns (entries booked, rows repaired).
    """
    users = (
        f"SELECT a.user_id FROM {_AGG} a JOIN {_LEDGER} l ON l.user_id = a.user_id"
        " WHERE a.rs = '' AND a.points <> l.booked"
    )
    inner, params = queryset_sql(
        HandSeat.objects.filter(user_id__in=RawSQL(users, []), reversed=False)
        .exclude(result=HandSeat.Result.ANNULLED)
        .annotate(rule=hand_points_sql())
        .values("user_id", "hand_id", "rule")
    )
    ledger = _t(LedgerEntry._meta.db_table)
    kinds = ", ".join(f"'{k}'" for k in _POINT_KINDS)
    cur.execute(
        f"SELECT s.user_id, s.hand_id, COALESCE(l.total, 0), s.rule"
        f" FROM ({inner}) s LEFT JOIN ("
        f" SELECT user_id, hand_id, SUM(amount) AS total FROM {ledger}"
        f" WHERE currency = 'points' AND kind IN ({kinds})"
        f" AND user_id IN ({users}) AND hand_id IS NOT NULL"
        " GROUP BY user_id, hand_id"
        ") l ON l.user_id = s.user_id AND l.hand_id = s.hand_id"
        " WHERE COALESCE(l.total, 0) <> s.rule",
        params,
    )
    drifted = cur.fetchall()
    if drifted:
        # already locked by this transaction: this only reads them
        locked = {
            p.user_id: p
            for p in Profile.objects.select_for_update()
            .filter(user_id__in=RawSQL(users, []))
            .order_by("user_id")
        }
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
            locked=locked,
        )
    bad = f"SELECT user_id FROM {_AGG} WHERE rs = '' AND bad_rows > 0"
    rows = (
        HandSeat.objects.filter(user_id__in=RawSQL(bad, []), reversed=False)
        .exclude(points=hand_points_sql())
        .update(points=hand_points_sql())
    )
    return len(drifted), rows


def _repair_balances(cur: Any, *, fresh: bool) -> int:
    """Balances of the drifted players that are not their ledger's sum are set to it.

    ``fresh`` False: points were booked, so the ledger totals are read again.
    """
    profile = _t(Profile._meta.db_table)
    if not fresh:
        _build(cur, _totals(_DRIFTED)[2:])
    cur.execute(
        f"UPDATE {profile} SET coins = s.c, rating_points = s.pt FROM {_LEDGER} s"
        f" WHERE {profile}.user_id = s.user_id"
        f" AND ({profile}.coins <> s.c OR {profile}.rating_points <> s.pt)"
    )
    return int(cur.rowcount)


def _repair_stats(cur: Any) -> tuple[int, int, int]:
    """The drifted players' PlayerStats set to the rebuilt counters.

    Only rows that differ are written.  Returns (rows inserted, rows
    repaired, rows emptied).
    """
    stats = _t(PlayerStats._meta.db_table)
    cols = ", ".join(_STAT_COLUMNS)
    sets = ", ".join(f"{c} = a.{c}" for c in _STAT_COLUMNS)
    counts = [
        c for c in _STAT_COLUMNS if c not in ("rating", "deviation", "last_played")
    ]
    zero = ", ".join(f"{c} = 0" for c in counts)
    cur.execute(
        f"INSERT INTO {stats} (user_id, ruleset, {cols})"
        f" SELECT a.user_id, a.rs, {', '.join('a.' + c for c in _STAT_COLUMNS)}"
        f" FROM {_AGG} a WHERE NOT EXISTS (SELECT 1 FROM {stats} s"
        f" WHERE s.user_id = a.user_id AND s.ruleset = a.rs)"
    )
    inserted = int(cur.rowcount)
    cur.execute(
        f"UPDATE {stats} AS s SET {sets} FROM {_AGG} a"
        " WHERE s.user_id = a.user_id AND s.ruleset = a.rs"
        f" AND ({' OR '.join(_differs(c) for c in _STAT_COLUMNS)})"
    )
    repaired = int(cur.rowcount)
    cur.execute(
        f"UPDATE {stats} SET {zero}, rating = {MU}, deviation = {SIGMA},"
        f" last_played = NULL"
        f" WHERE user_id IN ({_DRIFTED}) AND (hands <> 0 OR rated_hands <> 0)"
        f" AND NOT EXISTS (SELECT 1 FROM {_AGG} a"
        f" WHERE a.user_id = {stats}.user_id AND a.rs = {stats}.ruleset)"
    )
    emptied = int(cur.rowcount)
    return inserted, repaired, emptied


def repair_drifted() -> dict[str, int]:
    """Step 2 in the caller's transaction: lock the players in ``recalc_drift``,
    recompute them and write what differs; return the counts of
    :class:`RecalcReport`'s repair fields."""
    _lock_drifted()
    with connection.cursor() as cur:
        _work_mem(cur)
        if _pg():
            # its size for the planner: index lookups for a few players,
            # hash joins for many
            cur.execute(f"ANALYZE {_DRIFT}")
        _build(cur, _totals(_DRIFTED))
        booked, rows = _repair_points(cur)
        balances = _repair_balances(cur, fresh=not booked)
        inserted, repaired, emptied = _repair_stats(cur)
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


def repair_players(*, user_ids: Sequence[int]) -> dict[str, int]:
    """Rebuild these players' points, balances and counters now, as the
    nightly repair does (:func:`repair_drifted`), whether they drifted or not.

    For a change that moves counters no increment can (a reversed or
    restored hand: ``leaderboard.services.stats_reverse_hand``).  Runs in
    the caller's transaction and locks the players' profiles (already
    locked by the caller: nothing waits).  Returns the repair counts.
    """
    with connection.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")
        cur.execute(f"CREATE TEMP TABLE {_DRIFT} (user_id bigint)")
        cur.executemany(
            f"INSERT INTO {_DRIFT} (user_id) VALUES (%s)",
            [(u,) for u in sorted(set(user_ids))],
        )
    try:
        return repair_drifted()
    finally:
        with connection.cursor() as cur:
            cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")


SNAPSHOT_COLUMNS = [f"{b}_{c}" for b in BOARD_KINDS for c in ("rank", "value")]


def snapshot(*, period: str, ruleset: str, day: date) -> tuple[int, int, int]:
    """Store the boards of ``period`` × ``ruleset`` as snapshot rows of ``day``.

    The rows are :func:`leaderboard.selectors.board_values`, each board
    numbered with ``ROW_NUMBER() OVER (ORDER BY value DESC, user_id)`` —
    so a snapshot ranks exactly as the live board.  Stored rows of that date
    that differ are replaced, missing ones inserted, others left alone.
    Returns (rows, rows written, rows removed).
    """
    snap = _t(BoardSnapshot._meta.db_table)
    inner, params = queryset_sql(board_values(period=period, ruleset=ruleset, day=day))
    ranked = ", ".join(
        f"CASE WHEN b.v_{b} IS NULL THEN NULL ELSE ROW_NUMBER() OVER"
        f" (ORDER BY b.v_{b} DESC NULLS LAST, b.user_id) END AS {b}_rank,"
        f" b.v_{b} AS {b}_value"
        for b in BOARD_KINDS
    )
    here = "s.period = %s AND s.ruleset = %s AND s.date = %s"
    key = [period, ruleset, day]
    cols = ", ".join(SNAPSHOT_COLUMNS)
    tcols = ", ".join(f"t.{c}" for c in SNAPSHOT_COLUMNS)
    with connection.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {_SNAP}")
        cur.execute(
            f"CREATE TEMP TABLE {_SNAP} AS SELECT b.user_id AS user_id, {ranked}"
            f" FROM ({inner}) b",
            params,
        )
        cur.execute(f"SELECT COUNT(*) FROM {_SNAP}")
        rows = int(cur.fetchone()[0])
        same = " AND ".join(_same(f"t.{c}", f"s.{c}") for c in SNAPSHOT_COLUMNS)
        cur.execute(
            f"DELETE FROM {snap} WHERE id IN (SELECT s.id FROM {snap} s"
            f" WHERE {here} AND NOT EXISTS (SELECT 1 FROM {_SNAP} t"
            f" WHERE t.user_id = s.user_id AND {same}))",
            key,
        )
        removed = int(cur.rowcount)
        cur.execute(
            f"INSERT INTO {snap} (period, ruleset, date, user_id, {cols})"
            f" SELECT %s, %s, %s, t.user_id, {tcols}"
            f" FROM {_SNAP} t WHERE NOT EXISTS (SELECT 1 FROM {snap} s"
            f" WHERE {here} AND s.user_id = t.user_id)",
            [*key, *key],
        )
        written = int(cur.rowcount)
        cur.execute(f"DROP TABLE {_SNAP}")
    return rows, written, removed


def scopes() -> list[tuple[str, str]]:
    """Every (period, rule set) of the boards: 4 periods × (overall + each rule set).

    Each scope holds the five boards (:data:`leaderboard.models.BOARD_KINDS`).
    """
    return [(p, rs) for p in PERIODS for rs in (OVERALL, *RULESETS)]


def board_keys() -> list[BoardKey]:
    """Every board: 5 kinds × 4 periods × (overall + each rule set)."""
    return [BoardKey(b, p, rs) for p, rs in scopes() for b in BOARD_KINDS]


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


def recalc_ranks(*, day: date | None = None) -> RecalcReport:
    """Run the nightly recalculation for ``day`` (default: yesterday, server time).

    See the module docstring for the steps, the concurrency argument and
    idempotence.  Returns the report (also logged).
    """
    day = day or local_today() - timedelta(days=1)
    report = RecalcReport(date=day.isoformat())
    clock = time.perf_counter()
    report.players = Profile.objects.count()
    with transaction.atomic(), connection.cursor() as cur:
        _work_mem(cur)
        report.drifted_players = _check(cur)
    report.seconds["check"] = round(time.perf_counter() - clock, 3)
    clock = time.perf_counter()
    if report.drifted_players:
        with transaction.atomic():
            for name, count in repair_drifted().items():
                setattr(report, name, count)
    with connection.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")
    report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    clock = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as cur:
            _work_mem(cur)
        for period, ruleset in scopes():
            rows, written, removed = snapshot(period=period, ruleset=ruleset, day=day)
            report.snapshot_rows += rows
            report.snapshot_written += written
            report.snapshot_removed += removed
        keep = day - timedelta(days=settings.MAHJONG_SNAPSHOT_DAYS)
        for period, ruleset in scopes():
            pruned, _ = BoardSnapshot.objects.filter(
                period=period, ruleset=ruleset, date__lt=keep
            ).delete()
            report.snapshots_pruned += pruned
    report.seconds["snapshots"] = round(time.perf_counter() - clock, 3)
    log.info("recalc_ranks %s: %s", day, report.to_json())
    return report
