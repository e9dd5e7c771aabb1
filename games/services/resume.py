"""Crash/restart recovery: resume live tables from their event logs.

Run once after the web processes (re)start (``manage.py resume_tables``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from ..models import HandRecord, Table
from ..presence import seat_present, ttl
from .auto import automated_seat
from .clock import clock_set
from .errors import TableError
from .hands import HandUnavailableError, check_snapshot, rebuild_hand, store_hand
from .locking import table_lock
from .notify import notify_table
from .settlement import hand_annul
from .unplayable import check_playable, is_evaluation_error

log = logging.getLogger(__name__)


@dataclass
class ResumeReport:
    """What :func:`resume_tables` did: table ids resumed / annulled / re-timed."""

    resumed: list[int]
    annulled: list[int]
    settling: list[int]


def resume_tables(*, now: float | None = None) -> ResumeReport:
    """Resume every playing table from seed + log, or annul what cannot be.

    For each table with a live hand: rebuild the hand from its log and
    check its stored snapshot against it (a missing or unequal snapshot is
    replaced by the rebuilt hand's: the log is the truth); if that works,
    plan the clock's timeout (and paced 托管) for the current ``seq`` and
    look at each seat's presence (games.presence, TTL heartbeats shared by
    every process): a seat with no live socket starts its disconnect grace
    now, a seat with one (a Daphne process that never stopped) keeps control
    and is looked at again after one TTL; if it fails, or the rebuilt hand
    cannot be read for a seat
    (games.services.unplayable.check_playable), annul the hand (系统断线:
    和局, stakes returned).  Settling tables get their countdown again.  The
    clock's rows survive a restart (they are rows), so this only re-plans
    them from the state.  Idempotent: the rows are replaced and check ``seq``.
    """
    now = time.time() if now is None else now
    report = ResumeReport([], [], [])
    ids = list(
        Table.objects.filter(
            status__in=[Table.Status.PLAYING, Table.Status.SETTLING]
        ).values_list("pk", flat=True)
    )
    for table_id in ids:
        with transaction.atomic():
            try:
                table = table_lock(table_id=table_id)
            except TableError:
                continue
            record = table.hand
            if table.status == Table.Status.SETTLING and record is not None:
                at = table.settle_deadline.timestamp() if table.settle_deadline else now
                clock_set(
                    table_id=table.pk,
                    kind="settle",
                    at=max(at, now),
                    hand_id=record.pk,
                )
                report.settling.append(table.pk)
                continue
            if record is None or record.status != HandRecord.Status.LIVE:
                continue
            try:
                hand = rebuild_hand(record)
                if hand.seq != table.seq:
                    raise HandUnavailableError(
                        f"log ends at {hand.seq}, table at {table.seq}"
                    )
                # a hand that replays but cannot be read for a seat
                # would freeze the table (issue 11 §5.1)
                check_playable(hand)
            except Exception as exc:
                if not is_evaluation_error(exc):
                    raise
                log.warning("annulling hand %s: %s", record.pk, exc)
                hand_annul(table=table, record=record, now=now, reason=str(exc))
                notify_table(table.pk)
                report.annulled.append(table.pk)
                continue
            if not check_snapshot(record, rebuilt=hand):
                # missing (dealt before snapshots) or unequal to the log,
                # which is the truth: play goes on from the rebuilt hand
                log.warning("hand %s: snapshot rebuilt from the log", record.pk)
                store_hand(record, hand, repair=True)
            # presence is in the cache with a TTL (games.presence), never reset
            # here: a seat whose socket lives on a process that never stopped
            # stays in control (issue 11 §5.4).  A seat with no live socket
            # starts its grace now; a seat that looks present is looked at
            # again once the entries of sockets lost in the crash have
            # expired (one TTL and a heartbeat).
            away = [
                None if a is None else float(a) for a in (table.away_since or [])
            ] + [None, None]
            away = away[:2]
            checks: list[tuple[int, float]] = []
            for seat in (0, 1):
                if not table.is_human(seat):
                    continue
                if seat_present(table_id=table.pk, seat=seat, now=now):
                    checks.append((seat, now + ttl() + settings.MAHJONG_PRESENCE_BEAT))
                    continue
                gone = away[seat]
                if gone is None:
                    gone = away[seat] = now
                grace_end = gone + settings.MAHJONG_DISCONNECT_GRACE
                checks.append((seat, max(now, grace_end)))
            table.away_since = away
            if hand.state.deadline is not None:
                at = max(now, hand.state.deadline + settings.MAHJONG_DEADLINE_SLACK)
                clock_set(
                    table_id=table.pk,
                    kind="timeout",
                    at=at,
                    hand_id=record.pk,
                    seq=hand.seq,
                )
            if automated_seat(table=table, hand=hand) is not None:
                # paced automated play (托管, 报听 against the bot) goes on
                clock_set(
                    table_id=table.pk,
                    kind="auto_step",
                    at=now,
                    hand_id=record.pk,
                    seq=hand.seq,
                )
            table.save(update_fields=["away_since", "updated"])
            for seat, at in checks:
                clock_set(
                    table_id=table.pk,
                    kind="seat_away",
                    at=at,
                    hand_id=record.pk,
                    seat=seat,
                )
            notify_table(table.pk)
            report.resumed.append(table.pk)
    return report
