"""The hand's due moves, run by the clock (games.services.clock): a person's
prompt that timed out, and the next step of paced automated play.

Each runs under the table lock and does nothing unless the table is still
at the hand and ``seq`` it was planned for, so a row that fires twice, or
after the seat answered, changes nothing.  A hand the server cannot evaluate
is annulled instead (issue 11 §5.1, games.services.unplayable).
"""

from __future__ import annotations

import time

from django.db import transaction

from games.engine.actions import Timeout
from games.engine.events import Event

from ..models import Table
from .auto import automated_seat, run_auto
from .hands import load_hand
from .locking import table_lock_live
from .progress import arm_timer, store_progress
from .unplayable import annul_on_failure


def _clear_deadline(table: Table) -> None:
    """No person's prompt is open at this seq: nothing to time out."""
    if table.deadline is not None:
        table.deadline = None
        table.save(update_fields=["deadline", "updated"])


@annul_on_failure
def table_timeout(
    *, table_id: int, hand_id: int, seq: int, now: float | None = None
) -> bool:
    """Apply ``timeout`` for every seat the prompt at ``seq`` still waits for.

    Does nothing unless the table's current hand is ``hand_id`` and still at
    ``seq``.  Returns whether it acted (False when the hand was annulled).
    """
    with transaction.atomic():
        live = table_lock_live(table_id=table_id, hand_id=hand_id, seq=seq)
        if live is None:
            return False  # moved on: that move planned its own timeout
        table, record = live
        now = time.time() if now is None else now
        hand = load_hand(record, seq=seq)
        s = hand.state
        if s.deadline is None:
            _clear_deadline(table)
            return False
        if now < s.deadline - 0.5:  # fired early (clock skew): try again later
            arm_timer(table=table, record=record, hand=hand, now=now)
            table.save(update_fields=["deadline", "updated"])
            return False
        now = max(now, s.deadline)
        seats = [i for i in (0, 1) if s.pending[i] and table.is_human(i)]
        if not seats:
            _clear_deadline(table)
            return False
        events: list[Event] = []
        for seat in seats:
            if hand.state.pending[seat] and not hand.ended:
                events += hand.apply(Timeout(seat, hand.seq), now=now)
        events += run_auto(table=table, hand=hand, now=now, before=events)
        store_progress(table=table, record=record, hand=hand, events=events, now=now)
    return True


@annul_on_failure
def table_auto_step(
    *, table_id: int, hand_id: int, seq: int, now: float | None = None
) -> bool:
    """Go on with paced automated play (games.services.auto.run_auto) if due.

    Does nothing unless hand ``hand_id`` is live at ``seq`` with an automated
    seat to move.  Returns whether it moved.
    """
    with transaction.atomic():
        live = table_lock_live(table_id=table_id, hand_id=hand_id, seq=seq)
        if live is None:
            return False
        table, record = live
        now = time.time() if now is None else now
        hand = load_hand(record, seq=seq)
        if automated_seat(table=table, hand=hand) is None:
            return False
        events = run_auto(table=table, hand=hand, now=now)
        store_progress(table=table, record=record, hand=hand, events=events, now=now)
    return bool(events)
