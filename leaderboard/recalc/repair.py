"""Step 2, the repair: the drifted players locked and rebuilt from their
hand rows and ledger (see leaderboard.recalc); also a reversed hand's
players (:func:`repair_players`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models.expressions import RawSQL

from accounts.ledger import POINTS, Movement, ledger_post
from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points_sql
from games.models import HandSeat

from ..models import PlayerStats
from ..rating import MU, SIGMA
from ..sql import indexes_built_after, queryset_sql
from .base import (
    _AGG,
    _DRIFT,
    _DRIFTED,
    _LEDGER,
    _POINT_KINDS,
    _RS,
    _STAT_COLUMNS,
    _pg,
    _t,
    _work_mem,
)
from .check import _differs, _totals

_REANALYZE_ROWS = 10_000
"""A repair that writes this many counter rows refreshes their statistics."""
_BULK_ROWS = 10_000
"""A repair that inserts this many counter rows into an empty counters table
(a first run) builds the table's indexes after the insert (PostgreSQL)."""


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
