"""The nightly rank recalculation (Celery beat, 03:00 server time).

:func:`recalc_ranks` does, for the day that just ended (or ``day``):

1. **Checks** every player in one snapshot (one pass over the hand rows,
   one over the ledger; on PostgreSQL the latest rating comes out of the
   same pass): the points rule (:mod:`accounts.points`) against
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
   ``MAHJONG_SNAPSHOT_DAYS`` are dropped.  On PostgreSQL (outside a
   transaction) the scopes are stored one per core at a time, each in its
   own connection and transaction (:func:`_store_snapshots_in_parallel`).
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
players' profiles (``games.services.settlement.hand_book``).

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
* On PostgreSQL, when not called inside a transaction (the task, the
  command), the check and the repair first run in *one* REPEATABLE READ
  transaction (:func:`_check_and_repair`): the check keeps the drifted
  players' totals, the repair locks their profiles and counters rows and
  writes from those totals — no second pass over the hand rows and the
  ledger (a first run, when every player drifted, halves its work).  Every
  write to a player's hands, ledger or counters (settlement, reversal,
  correction) updates that player's profile or overall counters row, or
  inserts their counters rows; at REPEATABLE READ, locking or updating a
  row written since the snapshot, or inserting a key committed since,
  fails.  Then it is rolled back and the two steps above run instead.
* Snapshots only write rows of their own date.  Stored in parallel, each
  scope commits on its own (a board reads one scope: all of its new rows or
  none) under an advisory lock of that scope, so two runs never both insert
  a scope's rows: the second waits and finds them stored.
* A reversed or restored hand rebuilds its players at once with the same
  statements (:func:`repair_players`), under the reversal's own locks.

**Idempotent**: a second run finds no drifted player (0 rows changed) and
finds every snapshot row of the date already as it would write it (0 rows
written).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import (
    Aggregate,
    BigIntegerField,
    Case,
    Count,
    F,
    FloatField,
    Max,
    Q,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from accounts.ledger import POINTS, Movement, ledger_post
from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points_sql
from games.models import HandSeat
from games.rules.rulesets import NAMES as RULESETS

from .models import BOARD_KINDS, OVERALL, BoardSnapshot, PlayerStats
from .periods import PERIODS, local_today
from .rating import MU, SIGMA
from .selectors import BoardKey, board_values
from .sql import indexes_built_after, queryset_sql

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
_REANALYZE_ROWS = 10_000
"""A repair that writes this many counter rows refreshes their statistics."""
_BULK_ROWS = 10_000
"""A repair that inserts this many counter rows into an empty counters table
(a first run) builds the table's indexes after the insert (PostgreSQL)."""


def _count(q: Q) -> Sum:
    return Sum(Case(When(q, then=Value(1)), default=Value(0)))


class _Latest(Aggregate):
    """PostgreSQL: ``MAX(ARRAY[id, rating, deviation])`` over the rated rows.

    The array of the row with the highest id (ids are unique, and the array
    comparison looks at the id first), so the latest rating and deviation
    come out of the same pass over the hand rows instead of a second read of
    the latest rows by id.  ``id`` as ``float8`` is exact below 2**53.
    Only used in SQL built around the queryset (never loaded by the ORM).
    """

    function = "MAX"
    template = "%(function)s(ARRAY[%(expressions)s])"
    output_field = FloatField()  # an array in SQL; never converted in Python

    def __init__(self, rating: str, deviation: str) -> None:
        super().__init__(
            Cast("id", FloatField()),
            F(rating),
            F(deviation),
            filter=Q(**{f"{rating}__isnull": False}),
        )


def _seat_totals(users: str | None) -> tuple[str, list[Any]]:
    """SQL of the one pass over the hand rows (of the players ``users`` selects).

    One row per (user, rule set): the counters, the points by the rule
    (:func:`accounts.points.hand_points_sql`, compiled by the ORM), how many
    rows store other points than the rule, and the latest rated rows (ids
    follow the order the settlements rated the hands: a player's
    settlements are serialised by the profile lock): on PostgreSQL their
    ratings themselves (``n_latest``, ``n_latest_all``: arrays of id, μ, σ,
    see :class:`_Latest`), elsewhere their ids (``n_last_rated``,
    ``n_last_rated_all``, read back by id).
    """
    rule = hand_points_sql()
    big = BigIntegerField()
    # reversed hands count nowhere but in the rating (games.models.COUNTED)
    live = Q(reversed=False)
    rows = HandSeat.objects.exclude(result=HandSeat.Result.ANNULLED)
    if users is not None:
        rows = rows.filter(user_id__in=RawSQL(users, []))
    if _pg():
        latest: dict[str, Any] = {
            "n_latest": _Latest("ruleset_rating_after", "ruleset_deviation_after"),
            "n_latest_all": _Latest("rating_after", "deviation_after"),
        }
    else:
        latest = {
            "n_last_rated": Max(
                Case(When(ruleset_rating_after__isnull=False, then=F("id")))
            ),
            "n_last_rated_all": Max(
                Case(When(rating_after__isnull=False, then=F("id")))
            ),
        }
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
            n_rated_all=Count("rating_after"),
            **latest,
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
    if _pg():
        # the latest rating came with the pass (arrays of id, μ, σ)
        rs_rating = (
            f"COALESCE(c.n_latest[2], {MU}) AS rating,"
            f" COALESCE(c.n_latest[3], {SIGMA}) AS deviation"
        )
        rs_from = f"{_RS} c"
        all_rating = f"COALESCE(o.latest[2], {MU}), COALESCE(o.latest[3], {SIGMA})"
        all_latest, all_from = "MAX(n_latest_all) AS latest", ""
    else:
        # the latest rated rows read back by id
        rs_rating = (
            f"COALESCE(r.ruleset_rating_after, {MU}) AS rating,"
            f" COALESCE(r.ruleset_deviation_after, {SIGMA}) AS deviation"
        )
        rs_from = f"{_RS} c LEFT JOIN {seats} r ON r.id = c.n_last_rated"
        all_rating = (
            f"COALESCE(r.rating_after, {MU}), COALESCE(r.deviation_after, {SIGMA})"
        )
        all_latest = "MAX(n_last_rated_all) AS last_rated"
        all_from = f" LEFT JOIN {seats} r ON r.id = o.last_rated"
    agg = (
        f"SELECT c.user_id AS user_id, c.ruleset AS rs, {per_rs},"
        " c.n_coins AS coins, c.n_fan_sum AS fan_sum, c.n_max_fan AS max_fan,"
        f" c.n_rated AS rated_hands, {rs_rating},"
        " c.n_last_played AS last_played, c.n_bad_rows AS bad_rows"
        f" FROM {rs_from}"
        " UNION ALL"
        " SELECT o.user_id, '', o.hands, o.wins, o.self_drawn, o.dealt_in, o.draws,"
        f" o.points, o.coins, o.fan_sum, o.max_fan, o.rated_hands, {all_rating},"
        " o.last_played, o.bad_rows FROM ("
        " SELECT user_id, SUM(n_hands) AS hands, SUM(n_wins) AS wins,"
        " SUM(n_self_drawn) AS self_drawn, SUM(n_dealt_in) AS dealt_in,"
        " SUM(n_draws) AS draws, SUM(n_points) AS points, SUM(n_coins) AS coins,"
        " SUM(n_fan_sum) AS fan_sum, MAX(n_max_fan) AS max_fan,"
        f" SUM(n_rated_all) AS rated_hands, {all_latest},"
        " MAX(n_last_played) AS last_played, SUM(n_bad_rows) AS bad_rows"
        f" FROM {_RS} GROUP BY user_id) o{all_from}"
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


def _check_sql() -> tuple[str, str, list[Any]]:
    """The check as (WITH clause, drift SELECT, params): see :func:`_check`."""
    stats = _t(PlayerStats._meta.db_table)
    ctes = _totals(None)
    with_sql = "WITH " + ", ".join(f"{name} AS ({sql})" for name, sql, _p in ctes)
    params = [p for _n, _s, ps in ctes for p in ps]
    drift = (
        f"SELECT user_id FROM {_AGG} WHERE rs = '' AND bad_rows > 0"
        f" UNION SELECT a.user_id FROM {_AGG} a JOIN {_LEDGER} l"
        " ON l.user_id = a.user_id WHERE a.rs = '' AND a.points <> l.booked"
        f" UNION SELECT user_id FROM {_LEDGER} WHERE bal_c <> c OR bal_pt <> pt"
        f" UNION SELECT a.user_id FROM {_AGG} a LEFT JOIN {stats} s"
        " ON s.user_id = a.user_id AND s.ruleset = a.rs"
        f" WHERE s.id IS NULL OR {' OR '.join(_differs(c) for c in _STAT_COLUMNS)}"
        f" UNION SELECT s.user_id FROM {stats} s"
        " WHERE (s.hands <> 0 OR s.rated_hands <> 0) AND NOT EXISTS ("
        f"SELECT 1 FROM {_AGG} a WHERE a.user_id = s.user_id AND a.rs = s.ruleset)"
    )
    return with_sql, drift, params


def _check(cur: Any) -> int:
    """Step 1: fill ``recalc_drift`` with every drifted player; return how many.

    One statement (the relations of :func:`_totals` as its CTEs), so one
    snapshot of the database: see the module docstring.
    """
    with_sql, drift, params = _check_sql()
    cur.execute(f"DROP TABLE IF EXISTS {_DRIFT}")
    cur.execute(f"CREATE TEMP TABLE {_DRIFT} AS {with_sql} {drift}", params)
    cur.execute(f"SELECT COUNT(*) FROM {_DRIFT}")
    return int(cur.fetchone()[0])


_AGG_COLUMNS = ("user_id", "rs", *_STAT_COLUMNS, "bad_rows")
_LEDGER_COLUMNS = ("bal_c", "bal_pt", "c", "pt", "booked")


def _check_keeping_totals(cur: Any) -> int:
    """:func:`_check` that also keeps the drifted players' rebuilt totals.

    PostgreSQL, one statement (``CREATE TABLE … AS``, so its passes may use
    parallel workers, which a data-modifying statement cannot): the
    drifted players, their ``recalc_agg`` rows and their ``recalc_ledger``
    rows, stored together and then split into those three tables.  A
    repair in the same snapshot needs no second pass over the hand rows and
    the ledger (:func:`_check_and_repair`).
    """
    with_sql, drift, params = _check_sql()
    keep = "recalc_keep"
    for name in (keep, _DRIFT, _AGG, _LEDGER):
        cur.execute(f"DROP TABLE IF EXISTS {name}")
    nulls = {c: f"NULL AS {c}" for c in (*_AGG_COLUMNS[1:], *_LEDGER_COLUMNS)}
    agg_cols = ", ".join(f"a.{c}" for c in _AGG_COLUMNS)
    led_cols = ", ".join(f"l.{c}" for c in _LEDGER_COLUMNS)
    agg_nulls = ", ".join(nulls[c] for c in _AGG_COLUMNS[1:])
    led_nulls = ", ".join(nulls[c] for c in _LEDGER_COLUMNS)
    mine = "IN (SELECT user_id FROM drifted)"
    cur.execute(
        f"CREATE TEMP TABLE {keep} AS {with_sql}, drifted AS ({drift})"
        f" SELECT 'a' AS part, {agg_cols}, {led_nulls}"
        f" FROM {_AGG} a WHERE a.user_id {mine}"
        f" UNION ALL SELECT 'l', l.user_id, {agg_nulls}, {led_cols}"
        f" FROM {_LEDGER} l WHERE l.user_id {mine}"
        f" UNION ALL SELECT 'd', user_id, {agg_nulls}, {led_nulls} FROM drifted",
        params,
    )
    cur.execute(
        f"CREATE TEMP TABLE {_DRIFT} AS SELECT user_id FROM {keep} WHERE part = 'd'"
    )
    drifted = int(cur.rowcount)
    cur.execute(
        f"CREATE TEMP TABLE {_AGG} AS SELECT {', '.join(_AGG_COLUMNS)}"
        f" FROM {keep} WHERE part = 'a'"
    )
    cur.execute(
        f"CREATE TEMP TABLE {_LEDGER} AS SELECT user_id, {', '.join(_LEDGER_COLUMNS)}"
        f" FROM {keep} WHERE part = 'l'"
    )
    cur.execute(f"DROP TABLE {keep}")
    return drifted


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


def _bulk_first_fill(cur: Any, stats: str) -> bool:
    """PostgreSQL: is the counters table empty, with many rows to insert?

    The first run after a fresh install or an emptied table (issue 13's
    benchmark) inserts a row per player and rule set.
    """
    if not _pg():
        return False
    cur.execute(
        f"SELECT NOT EXISTS (SELECT 1 FROM {stats}),"
        f" (SELECT COUNT(*) FROM {_AGG}) >= %s",
        [_BULK_ROWS],
    )
    empty, many = cur.fetchone()
    return bool(empty and many)


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
    insert = (
        f"INSERT INTO {stats} (user_id, ruleset, {cols})"
        f" SELECT a.user_id, a.rs, {', '.join('a.' + c for c in _STAT_COLUMNS)}"
        f" FROM {_AGG} a WHERE NOT EXISTS (SELECT 1 FROM {stats} s"
        f" WHERE s.user_id = a.user_id AND s.ruleset = a.rs)"
    )
    if _bulk_first_fill(cur, stats):
        # every rebuilt row is new: inserted with the indexes built after;
        # nothing stored to repair or empty (the table held none of these
        # players' rows, and only this transaction writes it until commit)
        with indexes_built_after(cur, stats):
            cur.execute(insert)
            inserted = int(cur.rowcount)
        return inserted, 0, 0
    cur.execute(insert)
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


def repair_drifted(*, totals_kept: bool = False) -> dict[str, int]:
    """Step 2 in the caller's transaction: lock the players in ``recalc_drift``,
    recompute them and write what differs; return the counts of
    :class:`RecalcReport`'s repair fields.

    ``totals_kept``: the check of this same REPEATABLE READ transaction left
    their totals (:func:`_check_keeping_totals`); they are used instead of
    recomputed, and the players' counters rows are locked too, so that a
    write to any of them since the check's snapshot fails the transaction
    (see :func:`_check_and_repair`).
    """
    _lock_drifted()
    with connection.cursor() as cur:
        _work_mem(cur)
        if _pg():
            # its size for the planner: index lookups for a few players,
            # hash joins for many
            cur.execute(f"ANALYZE {_DRIFT}")
        if totals_kept:
            stats = _t(PlayerStats._meta.db_table)
            cur.execute(
                f"SELECT id FROM {stats} WHERE user_id IN ({_DRIFTED})"
                " ORDER BY user_id, id FOR UPDATE"
            )
            cur.execute(f"ANALYZE {_AGG}, {_LEDGER}")
        else:
            _build(cur, _totals(_DRIFTED))
        booked, rows = _repair_points(cur)
        balances = _repair_balances(cur, fresh=not booked)
        inserted, repaired, emptied = _repair_stats(cur)
        if _pg() and inserted + repaired + emptied >= _REANALYZE_ROWS:
            # fresh statistics for the snapshots' plans that read these rows
            # next (a first run inserts every row into a table the planner
            # believes empty)
            cur.execute(f"ANALYZE {_t(PlayerStats._meta.db_table)}")
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


def snapshot(
    *, period: str, ruleset: str, day: date, fresh: bool = False
) -> tuple[int, int, int]:
    """Store the boards of ``period`` × ``ruleset`` as snapshot rows of ``day``.

    ``fresh``: the caller knows nothing is stored for this scope and date
    (a first fill of an empty table, :func:`_snapshots_empty`); the rows are
    inserted without looking.

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
    key: list[Any] = [period, ruleset, day]
    cols = ", ".join(SNAPSHOT_COLUMNS)
    tcols = ", ".join(f"t.{c}" for c in SNAPSHOT_COLUMNS)
    with connection.cursor() as cur:
        if not fresh:
            cur.execute(f"SELECT 1 FROM {snap} s WHERE {here} LIMIT 1", key)
        if fresh or cur.fetchone() is None:
            # nothing stored for this date yet (the nightly case): every row
            # is written, straight from the ranking (nothing to compare with)
            cur.execute(
                f"INSERT INTO {snap} (period, ruleset, date, user_id, {cols})"
                f" SELECT %s, %s, %s, b.user_id, {ranked} FROM ({inner}) b",
                [*key, *params],
            )
            rows = int(cur.rowcount)
            return rows, rows, 0
        same = " AND ".join(_same(f"t.{c}", f"s.{c}") for c in SNAPSHOT_COLUMNS)
        # a rerun for the date: usually every row is already as it would be
        # written; one statement tells, without storing the ranking
        cur.execute(
            f"WITH t AS (SELECT b.user_id AS user_id, {ranked} FROM ({inner}) b)"
            " SELECT (SELECT COUNT(*) FROM t),"
            f" (SELECT COUNT(*) FROM {snap} s WHERE {here}),"
            " (SELECT COUNT(*) FROM t WHERE NOT EXISTS"
            f" (SELECT 1 FROM {snap} s WHERE {here} AND s.user_id = t.user_id"
            f" AND {same}))",
            [*params, *key, *key],
        )
        rows, stored, differ = (int(n) for n in cur.fetchone())
        if rows == stored and not differ:
            return rows, 0, 0
        cur.execute(f"DROP TABLE IF EXISTS {_SNAP}")
        cur.execute(
            f"CREATE TEMP TABLE {_SNAP} AS SELECT b.user_id AS user_id, {ranked}"
            f" FROM ({inner}) b",
            params,
        )
        cur.execute(f"SELECT COUNT(*) FROM {_SNAP}")
        rows = int(cur.fetchone()[0])
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


_CONFLICTS = {"40001", "40P01", "23505"}
"""SQLSTATEs of a write since the snapshot: serialization failure, deadlock,
unique violation (a counters row inserted meanwhile)."""


def _check_and_repair(report: RecalcReport) -> bool:
    """Steps 1 and 2 in one REPEATABLE READ transaction (PostgreSQL).

    The check keeps the drifted players' totals
    (:func:`_check_keeping_totals`); the repair locks their profiles and
    counters rows and writes from those totals, all in the check's
    snapshot — one pass over the hand rows and the ledger instead of two
    when many players drifted (a first run).  Sound because every write to
    a player's hands, ledger or counters (settlement, reversal, correction)
    updates that player's profile or overall counters row, or inserts their
    counters rows, in its transaction: at REPEATABLE READ, locking a row
    updated since the snapshot, updating it, or inserting a key committed
    since, fails.  Then everything is rolled back and this returns False:
    the caller runs the check and the repair the usual way (a fresh check,
    a recompute after the locks).  True when done (``report`` filled).
    """
    clock = time.perf_counter()
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            _work_mem(cur)
            drifted = _check_keeping_totals(cur)
            check = round(time.perf_counter() - clock, 3)
            clock = time.perf_counter()
            counts = repair_drifted(totals_kept=True) if drifted else {}
    except (OperationalError, IntegrityError) as exc:
        if getattr(exc.__cause__, "sqlstate", None) not in _CONFLICTS:
            raise
        log.info("recalc_ranks: a write since the check's snapshot (%s); again", exc)
        return False
    report.drifted_players = drifted
    for name, count in counts.items():
        setattr(report, name, count)
    report.seconds["check"] = check
    report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    return True


_SNAPSHOT_WORKERS = max(1, min(4, os.cpu_count() or 1))
"""Connections that store the snapshots at once on PostgreSQL (one per core,
at most 4): each scope's ranking is one CPU-bound statement that PostgreSQL
runs on one core (an INSERT … SELECT gets no parallel workers), so on this
2-core machine two at a time halve the step (issue 13's figure)."""

_SNAPSHOT_LOCK = 0x6D6A_7363
"""The first key of the advisory locks that order two runs' writes of one
scope (:func:`_snapshot_scope`); the second is the scope's index."""


def _snapshot_scope(
    index: int, period: str, ruleset: str, day: date
) -> tuple[int, int, int, int]:
    """Store one scope's snapshot of ``day`` and prune its old dates, in this
    thread's own connection and transaction (PostgreSQL; run by
    :func:`_store_snapshots_in_parallel`).

    A transaction-scoped advisory lock on the scope makes a second run that
    reaches the same scope wait and then find the rows stored (so two runs
    never both insert them).  Each scope is committed on its own: a board
    reads one scope, so it sees all of a scope's new rows or none.
    Returns (rows, written, removed, pruned).  The connection is closed.
    """
    try:
        with transaction.atomic(), connection.cursor() as cur:
            _work_mem(cur)
            cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_SNAPSHOT_LOCK, index])
            rows, written, removed = snapshot(period=period, ruleset=ruleset, day=day)
            keep = day - timedelta(days=settings.MAHJONG_SNAPSHOT_DAYS)
            pruned, _ = BoardSnapshot.objects.filter(
                period=period, ruleset=ruleset, date__lt=keep
            ).delete()
        return rows, written, removed, pruned
    finally:
        connection.close()


def _store_snapshots_in_parallel(*, day: date, report: RecalcReport) -> None:
    """Step 3 on PostgreSQL outside a transaction: every scope's snapshot by
    :func:`_snapshot_scope`, :data:`_SNAPSHOT_WORKERS` at a time, each in
    its own connection; adds the counts to ``report``.

    Raises whatever a scope raised (the scopes committed before stay: a
    rerun finds them as it would write them).
    """
    every = scopes()
    with ThreadPoolExecutor(max_workers=_SNAPSHOT_WORKERS) as pool:
        done = list(
            pool.map(
                _snapshot_scope,
                range(len(every)),
                [period for period, _ in every],
                [ruleset for _, ruleset in every],
                [day] * len(every),
            )
        )
    for rows, written, removed, pruned in done:
        report.snapshot_rows += rows
        report.snapshot_written += written
        report.snapshot_removed += removed
        report.snapshots_pruned += pruned


def _snapshots_empty(cur: Any) -> bool:
    """PostgreSQL: is the snapshot table empty (a first run)?

    If so it stays locked until the snapshot step commits (EXCLUSIVE: a
    second run waits here and then finds it filled; readers wait only while
    :func:`leaderboard.sql.indexes_built_after` holds it).
    """
    if not _pg() or BoardSnapshot.objects.exists():
        return False
    cur.execute(f"LOCK TABLE {_t(BoardSnapshot._meta.db_table)} IN EXCLUSIVE MODE")
    return not BoardSnapshot.objects.exists()


def recalc_ranks(*, day: date | None = None) -> RecalcReport:
    """Run the nightly recalculation for ``day`` (default: yesterday, server time).

    See the module docstring for the steps, the concurrency argument and
    idempotence.  Returns the report (also logged).
    """
    day = day or local_today() - timedelta(days=1)
    report = RecalcReport(date=day.isoformat())
    clock = time.perf_counter()
    report.players = Profile.objects.count()
    if not (_pg() and not connection.in_atomic_block and _check_and_repair(report)):
        with transaction.atomic(), connection.cursor() as cur:
            _work_mem(cur)
            report.drifted_players = _check(cur)
        report.seconds["check"] = round(time.perf_counter() - clock, 3)
        clock = time.perf_counter()
        if report.drifted_players:
            with transaction.atomic():
                for name, count in repair_drifted().items():
                    setattr(report, name, count)
        report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    with connection.cursor() as cur:
        for table in (_DRIFT, _AGG, _LEDGER):
            cur.execute(f"DROP TABLE IF EXISTS {table}")
    clock = time.perf_counter()
    if _pg() and not connection.in_atomic_block and _SNAPSHOT_WORKERS > 1:
        _store_snapshots_in_parallel(day=day, report=report)
        report.seconds["snapshots"] = round(time.perf_counter() - clock, 3)
        log.info("recalc_ranks %s: %s", day, report.to_json())
        return report
    with transaction.atomic(), connection.cursor() as cur:
        _work_mem(cur)
        fresh = _snapshots_empty(cur)
        snap = _t(BoardSnapshot._meta.db_table)
        # an empty table (the first run) is filled with its index built after
        with indexes_built_after(cur, snap) if fresh else nullcontext():
            for period, ruleset in scopes():
                rows, written, removed = snapshot(
                    period=period, ruleset=ruleset, day=day, fresh=fresh
                )
                report.snapshot_rows += rows
                report.snapshot_written += written
                report.snapshot_removed += removed
        keep = day - timedelta(days=settings.MAHJONG_SNAPSHOT_DAYS)
        for period, ruleset in () if fresh else scopes():
            pruned, _ = BoardSnapshot.objects.filter(
                period=period, ruleset=ruleset, date__lt=keep
            ).delete()
            report.snapshots_pruned += pruned
    report.seconds["snapshots"] = round(time.perf_counter() - clock, 3)
    log.info("recalc_ranks %s: %s", day, report.to_json())
    return report
