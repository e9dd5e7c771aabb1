"""A seat's presence at the table: connect, disconnect, the grace, 托管.

Presence itself (who has a socket open) lives in games.presence; these
services write what follows from it under the table lock: ``away_since``
(the opponent's frame says "对手断线" at once), the clock's ``seat_away``
row at the end of the grace (``MAHJONG_DISCONNECT_GRACE``), and 托管 —
switched on after a whole grace away, off when the seat is back, on at once
for a player removed by moderation.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction

from games.engine.actions import AutoPlay
from games.engine.events import Event

from ..models import HandEvent, HandRecord, Table
from ..presence import seat_present
from .auto import automated_seat, run_auto
from .clock import clock_set
from .errors import TableError
from .grace import grace_over
from .hands import load_hand
from .locking import table_lock
from .notify import notify_table
from .progress import store_progress
from .unplayable import annul_on_failure


def _set_auto(table: Table, seat: int, on: bool, now: float) -> bool:
    record = table.hand
    if record is None or record.status != HandRecord.Status.LIVE:
        return False
    hand = load_hand(record, seq=table.seq)
    if hand.state.auto[seat] == on and automated_seat(table=table, hand=hand) is None:
        return False
    events: list[Event] = []
    if hand.state.auto[seat] != on:
        events += hand.apply(AutoPlay(seat, hand.seq, on), now=now)
    # also resumes paced automated play whose step job was lost (a
    # restart): a player opening the table is enough to go on
    events += run_auto(table=table, hand=hand, now=now)
    store_progress(table=table, record=record, hand=hand, events=events, now=now)
    return True


def away_since(*, table: Table) -> list[float | None]:
    """Per seat, when its last websocket closed (epoch s), None if connected."""
    return _per_seat(table.away_since)


def _per_seat(stored: list[float | None] | None) -> list[float | None]:
    """The stored ``away_since`` value (a JSON list, possibly short or
    null) as one entry per seat."""
    away = list(stored or [])
    return [float(a) if a is not None else None for a in (away + [None, None])[:2]]


def seat_connect(*, table_id: int, seat: int, now: float | None = None) -> None:
    """A websocket of ``seat`` opened (registered in games.presence first).

    The seat is back: its ``away_since`` is cleared (the opponent's frame
    drops "对手断线" and says "对手已回来") and control is handed back: 托管
    off — unless the player switched it on before going away (a reload, a
    second tab: :func:`_chose_auto`), which stays on until they cancel it.
    Both broadcast on change.  Paced 托管 whose step was lost resumes.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        try:
            table = table_lock(table_id=table_id)
        except TableError:
            return
        away = away_since(table=table)
        since = away[seat]
        if since is not None:
            away[seat] = None  # any pending grace job now finds the seat back
            table.away_since = away
            table.save(update_fields=["away_since", "updated"])
            notify_table(table.pk)
        _set_auto(table, seat, _chose_auto(table=table, seat=seat, since=since), now)


def _chose_auto(*, table: Table, seat: int, since: float | None) -> bool:
    """Whether ``seat``'s 托管 in the live hand is its player's own choice.

    True when the seat's last ``auto_play`` event switched 托管 on before
    the seat went away at ``since`` (epoch s; None: it was not marked away,
    e.g. a second tab).  托管 switched on at or after ``since`` is the
    disconnect's (seed 000 异常处理: 断线 → 托管) and is handed back on
    return; no ``auto_play`` event, or an "off" last, is False.
    One indexed query over the hand's events of that kind and seat.
    """
    if table.hand_id is None:
        return False
    last = (
        HandEvent.objects.filter(hand_id=table.hand_id, seat=seat, kind="auto_play")
        .order_by("-seq")
        .values_list("payload", "at")
        .first()
    )
    if last is None or not (last[0] or {}).get("on"):
        return False
    return since is None or last[1] < since


def seat_disconnect(*, table_id: int, seat: int, now: float | None = None) -> bool:
    """``seat`` may have gone: a websocket closed, or its presence expired.

    Presence (games.presence) decides: while another socket of the seat is
    live nothing happens.  Otherwise the first call records the moment in
    ``table.away_since`` (the grace starts), plans a ``seat_away`` row for
    the end of the grace (``MAHJONG_DISCONNECT_GRACE`` seconds) and tells
    the opponent at once (issue 11 §4: "对手断线，N 秒后托管").  Idempotent:
    a seat already away keeps its moment.  Returns whether it marked the seat
    away.
    """
    now = time.time() if now is None else now
    if seat_present(table_id=table_id, seat=seat, now=now):
        return False
    with transaction.atomic():
        try:
            table = table_lock(table_id=table_id)
        except TableError:
            return False
        return _mark_away(table, seat, now)


def _mark_away(table: Table, seat: int, now: float) -> bool:
    """Start ``seat``'s grace at ``now`` unless it has started (table locked)."""
    away = away_since(table=table)
    if away[seat] is not None or not table.is_human(seat):
        return False
    if table.status not in (Table.Status.PLAYING, Table.Status.SETTLING):
        return False
    away[seat] = now
    table.away_since = away
    table.save(update_fields=["away_since", "updated"])
    if table.hand_id is not None and table.status == Table.Status.PLAYING:
        clock_set(
            table_id=table.pk,
            kind="seat_away",
            at=now + settings.MAHJONG_DISCONNECT_GRACE,
            hand_id=table.hand_id,
            seat=seat,
        )
    notify_table(table.pk)
    return True


def seat_force_auto(
    *, table_id: int, seat: int, now: float | None = None, removed: bool = False
) -> bool:
    """托管 on for ``seat`` at once, connected or not; return whether it changed.

    Moderation (issue 14): the live hand of a suspended or banned player is
    finished by 托管 (their websockets are closed and refused, so nothing
    turns it off again).  Logged as the engine action ``auto_play``.
    ``removed``: the seat's player was suspended or banned — the table is
    marked (``closed_reason`` "removed" and ``closed_seat`` while the hand
    is played), so their 托管 never wins, claims or kongs for them
    (games.services.auto.removed_move), the opponent's frame says so, and
    the table closes when the hand is settled (no 继续 with them).
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        try:
            table = table_lock(table_id=table_id)
        except TableError:
            return False
        if not table.is_human(seat):
            return False
        if removed and table.status == Table.Status.PLAYING:
            table.closed_reason, table.closed_seat = "removed", seat
            table.save(update_fields=["closed_reason", "closed_seat", "updated"])
        changed = _set_auto(table, seat, True, now)
        if removed and not changed:
            notify_table(table.pk)  # the opponent's frame says what happened
        return changed


def _marked_away(*, table_id: int, seat: int, hand_id: int) -> bool:
    """Whether ``seat`` of table ``table_id`` is marked away while the table
    plays hand ``hand_id`` (one row read, no lock): False when the table is
    gone or at another hand, as :func:`seat_away` then does nothing."""
    stored = (
        Table.objects.filter(pk=table_id, hand_id=hand_id)
        .values_list("away_since", flat=True)
        .first()
    )
    return _per_seat(stored)[seat] is not None


@annul_on_failure
def seat_away(
    *, table_id: int, seat: int, hand_id: int, now: float | None = None
) -> bool:
    """Look at ``seat``'s presence; after a whole grace away: 托管.

    The clock's ``seat_away`` row, planned when a seat went away (or at the
    deal, or by ``resume_tables``).  Presence (games.presence, TTL
    heartbeats) decides, never a count of sockets: a seat with a live socket
    on any process is here (a stale ``away_since`` is cleared and the
    opponent told); a seat with none that was not yet marked away is marked
    now (the grace starts, another job is scheduled); a seat away for the
    whole grace (``MAHJONG_DISCONNECT_GRACE``, counted from
    ``table.away_since[seat]``) goes to 托管 — logged as the engine action
    ``auto_play`` (seed 000 异常处理: 断线 → 托管, which wins when it can).
    A job from an earlier absence that fires during a later, short one does
    nothing (the later absence has its own job).  Returns whether 托管 was
    switched on.
    """
    now = time.time() if now is None else now
    present = seat_present(table_id=table_id, seat=seat, now=now)
    if present and not _marked_away(table_id=table_id, seat=seat, hand_id=hand_id):
        # the usual case (a look a heartbeat after the deal, or a seat back
        # within the grace): nothing to write, so no lock of the table and
        # its hand (a later absence is marked by whoever sees it, with a
        # row of its own)
        return False
    with transaction.atomic():
        try:
            table = table_lock(table_id=table_id)
        except TableError:
            return False
        if table.hand_id != hand_id or not table.is_human(seat):
            return False
        away = away_since(table=table)
        since = away[seat]
        if present:
            if since is not None:  # back (on another process) or never gone
                away[seat] = None
                table.away_since = away
                table.save(update_fields=["away_since", "updated"])
                notify_table(table.pk)
            return False
        if since is None:
            _mark_away(table, seat, now)
            return False
        if not grace_over(since=since, now=now):
            return False
        return _set_auto(table, seat, True, now)
