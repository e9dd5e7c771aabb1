"""Tables the server cannot evaluate are annulled, never left playing.

Issue 11 §5.1: one hand whose state made every evaluation raise froze its
table for good — its seat's socket closed on every frame, its page returned
500, the deadline sweep failed on it every second, and both players were
sent back to it from the lobby.  Whatever the cause, such a hand is ended
as 系统断线 (seed 000 异常处理: 和局, stakes returned — nothing is paid
during a hand, :func:`games.services.settlement.hand_annul`), the failure is
logged with its traceback, and the table goes on to its settlement like
any other.

What counts as "cannot evaluate": rebuilding the hand from its log, or
reading it for a seat (``view``, ``legal_actions``, ``default_action``),
raises — anything but a database error, which may be passing (a lock
timeout, a lost connection) and is left to the next attempt.  A player's
own request that raises is *not* a reason to annul (a player could end a
losing hand at will); the next frame or timer that reads the hand decides.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import Error as DatabaseError
from django.db import transaction

from games.engine.hand import Hand

from .locking import table_lock_live
from .notify import notify_table

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])


def is_evaluation_error(exc: BaseException) -> bool:
    """Whether ``exc`` says the hand cannot be evaluated (not a database
    error, which may pass, and not a control-flow exception)."""
    return isinstance(exc, Exception) and not isinstance(exc, DatabaseError)


def check_playable(hand: Hand) -> None:
    """Read ``hand`` as every frame and timer does, for both seats.

    Raises:
        Exception: whatever the engine raises (the hand is unplayable).
    """
    for seat in (0, 1):
        hand.view(seat)
        hand.legal_actions(seat)
        hand.default_action(seat)


def hand_annul_unplayable(
    *, table_id: int, hand_id: int, reason: str, now: float | None = None
) -> bool:
    """Annul hand ``hand_id`` at table ``table_id``: the server cannot play it.

    Locks the table (own transaction), and if ``hand_id`` is still its live
    hand ends it as 系统断线 (``hand_annul``: 和局, no coins move, the seed is
    revealed) and tells the table.
    Logged at ERROR with ``reason``.  Returns whether it annulled (False:
    no such table, or that hand is no longer live there).
    """
    from .settlement import hand_annul

    now = time.time() if now is None else now
    with transaction.atomic():
        live = table_lock_live(table_id=table_id, hand_id=hand_id)
        if live is None:
            return False
        table, record = live
        log.error(
            "annulling hand %s at table %s: the server cannot evaluate it: %s",
            record.pk,
            table.pk,
            reason[:500],
        )
        hand_annul(
            table=table,
            record=record,
            now=now,
            reason=f"unplayable: {reason}"[:300],
        )
        notify_table(table.pk)
    return True


def annul_on_failure(func: F) -> F:
    """Decorate a timer service: an evaluation error annuls the hand.

    The service takes ``table_id`` and ``hand_id`` as keywords (the hand the
    call is about).  The decorated service returns False after annulling;
    database errors are raised unchanged.
    """

    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if not is_evaluation_error(exc):
                raise
            log.exception("%s failed", func.__name__)
            hand_annul_unplayable(
                table_id=int(kwargs["table_id"]),
                hand_id=int(kwargs["hand_id"]),
                reason=f"{func.__name__}: {type(exc).__name__}: {exc}",
            )
            return False

    return guarded  # type: ignore[return-value]
