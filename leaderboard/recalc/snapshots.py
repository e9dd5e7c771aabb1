"""Step 3, the dated snapshots of every board (see leaderboard.recalc)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from games.rules.rulesets import NAMES as RULESETS

from ..models import BOARD_KINDS, OVERALL, BoardSnapshot
from ..periods import PERIODS
from ..selectors import BoardKey, board_values
from ..sql import queryset_sql
from .base import _SNAP, _pg, _same, _t, _work_mem
from .report import RecalcReport

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
