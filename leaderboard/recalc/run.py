"""The nightly run: the check, the repair and the snapshots in order
(:func:`recalc_ranks`, see leaderboard.recalc), and the day a run by hand
may be for (:func:`recalc_day_check`)."""

from __future__ import annotations

import logging
import time
from contextlib import nullcontext
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction

from accounts.models import Profile

from ..models import BoardSnapshot
from ..periods import local_today
from ..sql import indexes_built_after
from . import check, repair, snapshots
from .base import _AGG, _DRIFT, _LEDGER, _pg, _t, _work_mem
from .report import RecalcReport
from .snapshots import scopes, snapshot

# the package's logger, as before the steps were modules of their own
log = logging.getLogger("leaderboard.recalc")


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
            drifted = check._check_keeping_totals(cur)
            checked = round(time.perf_counter() - clock, 3)
            clock = time.perf_counter()
            counts = repair.repair_drifted(totals_kept=True) if drifted else {}
    except (OperationalError, IntegrityError) as exc:
        if getattr(exc.__cause__, "sqlstate", None) not in _CONFLICTS:
            raise
        log.info("recalc_ranks: a write since the check's snapshot (%s); again", exc)
        return False
    report.drifted_players = drifted
    for name, count in counts.items():
        setattr(report, name, count)
    report.seconds["check"] = checked
    report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    return True


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
            report.drifted_players = check._check(cur)
        report.seconds["check"] = round(time.perf_counter() - clock, 3)
        clock = time.perf_counter()
        if report.drifted_players:
            with transaction.atomic():
                for name, count in repair.repair_drifted().items():
                    setattr(report, name, count)
        report.seconds["repair"] = round(time.perf_counter() - clock, 3)
    with connection.cursor() as cur:
        for table in (_DRIFT, _AGG, _LEDGER):
            cur.execute(f"DROP TABLE IF EXISTS {table}")
    clock = time.perf_counter()
    if _pg() and not connection.in_atomic_block and snapshots._SNAPSHOT_WORKERS > 1:
        snapshots._store_snapshots_in_parallel(day=day, report=report)
        report.seconds["snapshots"] = round(time.perf_counter() - clock, 3)
        log.info("recalc_ranks %s: %s", day, report.to_json())
        return report
    with transaction.atomic(), connection.cursor() as cur:
        _work_mem(cur)
        fresh = snapshots._snapshots_empty(cur)
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
