"""What follows a move: the log, the snapshot, settlement, the veil, the
next due times and the notification (lila's ``Progress``, stored).

Called under the table lock by every service that applied something to a
hand, in the same transaction as the move.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from games.engine.events import Event
from games.engine.hand import Hand

from ..models import HandRecord, Table
from .auto import automated_seat
from .clock import clock_set
from .hands import events_insert, store_hand
from .notify import notify_table
from .rows import Writes, table_save_changes
from .veil import update_veil


def _dt(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def store_progress(
    *,
    table: Table,
    record: HandRecord,
    hand: Hand,
    events: list[Event],
    now: float,
    reveal: dict[str, Any] | None = None,
    new_hand: bool = False,
) -> None:
    """Write ``events``, settle an ended hand, set the deadline, notify.

    ``new_hand``: ``record`` was created in this transaction (the deal), so
    its snapshot is inserted without a look for an existing one.
    """
    from .settlement import hand_settle

    # a move's log rows, snapshot, clock rows and table row: one statement
    # on PostgreSQL (games.services.rows.Writes); settling reads and writes
    # other rows, after the log and the snapshot
    writes = Writes()
    events_insert(record, events, writes=writes)
    store_hand(record, hand, new=new_hand, writes=writes)
    table.seq = hand.seq
    table.deadline = None
    if hand.ended:
        writes.flush()
        table.veil = None
        hand_settle(table=table, record=record, hand=hand, now=now)
    else:
        update_veil(table, hand, now)  # whoever discarded (games.services.veil)
        arm_timer(table=table, record=record, hand=hand, now=now, writes=writes)
        if automated_seat(table=table, hand=hand) is not None:  # paced: go on
            clock_set(
                table_id=table.pk,
                kind="auto_step",
                at=now + settings.MAHJONG_AUTO_PACE,
                hand_id=record.pk,
                seq=hand.seq,
                writes=writes,
            )
    # the columns this move (and settling) changed
    table_save_changes(table, writes=writes)
    writes.flush()
    notify_table(
        table.pk,
        reveal=reveal,
        hand_id=record.pk,
        events=[e.to_json() for e in events],
        seq=hand.seq,
    )


def arm_timer(
    *,
    table: Table,
    record: HandRecord,
    hand: Hand,
    now: float,
    writes: Writes | None = None,
) -> None:
    """Set ``table.deadline`` and the clock's timeout row for this prompt
    (``writes``: queued there, games.services.clock.clock_set).

    Only a person's prompt times out; the row (one per table, replaced)
    fires ``MAHJONG_DEADLINE_SLACK`` after the deadline and acts only if the
    table is still at this ``seq`` (games.services.timers.table_timeout).
    """
    s = hand.state
    humans = [i for i in (0, 1) if s.pending[i] and table.is_human(i)]
    if hand.ended or not humans or s.deadline is None:
        return
    table.deadline = _dt(s.deadline)
    clock_set(
        table_id=table.pk,
        kind="timeout",
        at=s.deadline + settings.MAHJONG_DEADLINE_SLACK,
        hand_id=record.pk,
        seq=hand.seq,
        writes=writes,
    )
