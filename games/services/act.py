"""A seated player's move: applied to the hand under the table lock.

The veil (issue 6; issue 11 §5.2): whether the opponent could claim a
discard, or rob a 加杠, must not show in anything the discarder observes —
``seq``, frames and their order, timer fields, timing.  The engine opens the
windows in both cases; the hands are dealt with ``turn_from_discard`` (the
opponent's turn deadline counts from the discard, seed 000); and
games.services.veil decides what the discarder's frame shows meanwhile and
what a veiled seat's ``seq`` means.
"""

from __future__ import annotations

import dataclasses
import time

from django.db import transaction
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.engine.hand import Hand

from ..models import HandRecord, Table
from .auto import run_auto
from .errors import TableError
from .hands import load_hand
from .locking import table_lock
from .moves import Move, cancel_auto_now, move_action, refuse_stale_toggle
from .progress import store_progress
from .veil import active_veil, set_veil, unveil_seq


def table_act(
    *, user: User, table_id: int, move: Move, now: float | None = None
) -> Table:
    """Apply ``user``'s ``move`` for their seat at table ``table_id``.

    :func:`table_move` without the hand; returns the table.
    """
    return table_move(user=user, table_id=table_id, move=move, now=now)[0]


def table_move(
    *, user: User, table_id: int, move: Move, now: float | None = None
) -> tuple[Table, Hand]:
    """Apply ``user``'s ``move`` for their seat at table ``table_id``.

    Locks the table row; loads the hand; resolves the move against it
    (games.services.moves); applies it with the engine; plays the bot's and
    托管 seats' moves until a human must act; stores the events; settles an
    ended hand; schedules the next deadline; on commit, notifies the table.
    Table-level requests (``continue``, ``regroup``, ``leave``,
    ``accept_bot``) are not moves: the interfaces route them to
    games.services.tables (``games.protocol.TABLE_REQUESTS``).

    Returns the table and the hand as stored (the state at ``table.seq``),
    both as committed: the caller's own objects, which a frame of that state
    may be rendered from (games.consumers) with no query.

    Raises:
        TableError: not seated here, no live hand.
        ActionError (InvalidActionError, StaleActionError, OutOfTurnError,
            IllegalActionError, HandOverError): refused by the engine; the
            hand and the database are unchanged.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        table = table_lock(table_id=table_id)
        seat = table.seat_of(user.pk)
        if seat is None:
            raise TableError(gettext_lazy("你不在这张牌桌的座位上"))
        record = table.hand
        if record is None or record.status != HandRecord.Status.LIVE:
            raise TableError(gettext_lazy("现在没有进行中的牌局"))
        hand = load_hand(record, seq=table.seq)
        veil = active_veil(table, seat, hand, now)
        if veil is not None:
            seq = unveil_seq(hand, veil, kind=move.kind, seq=move.seq)
            move = dataclasses.replace(move, seq=seq)
        action = move_action(move=move, hand=hand, seat=seat)
        action = cancel_auto_now(
            move=move,
            action=action,
            hand=hand,
            rob_veiled=veil is not None and veil.get("kind") == "rob",
        )
        refuse_stale_toggle(action=action, hand=hand)
        # refused (ActionError) or failed: the transaction stores nothing and
        # this loaded hand is dropped
        events = hand.apply(action, now=now)
        events += run_auto(table=table, hand=hand, now=now, before=events)
        reveal = set_veil(table, hand, seat, action, now, kept=veil, added=len(events))
        store_progress(
            table=table,
            record=record,
            hand=hand,
            events=events,
            now=now,
            reveal=reveal,
        )
    return table, hand
