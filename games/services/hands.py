"""Loading a live hand: rebuilt from seed + event log, with a per-process cache.

The log in the database is the truth.  A cached :class:`Hand` is used only
when its last event number equals the one the caller expects (the table's
``seq`` read under the row lock, or the log's last ``seq``); otherwise the
hand is rebuilt with ``Hand.replay``.  Several processes may each hold a
cache: a cached hand that is behind is simply rebuilt.

Every use of a cached hand happens under its own lock, :func:`hand_lock`
(consumers render and apply in worker threads; the embedded default runs
timers in threads too).  Writers also hold the table's row lock, so the
per-hand lock only keeps a reader from seeing a hand halfway through a
move.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any

from games.engine.actions import action_from_json
from games.engine.events import Event
from games.engine.hand import Hand

from ..models import HandEvent, HandRecord

_GUARD = threading.Lock()  # the cache dict and the lock registry only
_LOCKS: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def hand_lock(hand_id: int) -> Any:
    """The re-entrant lock of hand ``hand_id`` in this process.

    Hold it while loading, reading or changing that hand (``with
    hand_lock(record.pk): hand = load_hand(...)``).  Kept alive by whoever
    holds it; one lock per hand id at any time.
    """
    with _GUARD:
        lock = _LOCKS.get(hand_id)
        if lock is None:
            lock = threading.RLock()
            _LOCKS[hand_id] = lock
        return lock


_CACHE: OrderedDict[int, Hand] = OrderedDict()
_CACHE_SIZE = 2048


class HandUnavailableError(RuntimeError):
    """The hand cannot be rebuilt from its log (missing seed or a broken log)."""


def event_from_row(row: HandEvent) -> Event:
    """Convert a stored log row back into the engine's :class:`Event`."""
    return Event(
        seq=row.seq,
        kind=row.kind,
        seat=row.seat,
        payload=row.payload,
        public=row.public,
        visible_to=frozenset(row.visible_to),
        at=row.at,
        action=row.action,
    )


def event_to_row(record: HandRecord, ev: Event) -> HandEvent:
    """Build (unsaved) the log row for ``ev`` of ``record``."""
    return HandEvent(
        hand=record,
        seq=ev.seq,
        kind=ev.kind,
        seat=ev.seat,
        payload=ev.payload,
        public=ev.public,
        visible_to=sorted(ev.visible_to),
        at=ev.at,
        action=ev.action,
    )


def rebuild_hand(record: HandRecord, *, upto: int | None = None) -> Hand:
    """Replay ``record``'s seed and stored log into a fresh :class:`Hand`.

    ``upto``: rebuild the hand as it was at that event (the log is append-only
    and every write ends at a move's last event, so the prefix up to a
    table row's ``seq`` is the state that row was committed with); ``None``
    replays the whole log.

    Raises:
        HandUnavailableError: no events, no seed, or the replay does not
            reproduce the stored log (tampered or truncated).
    """
    query = HandEvent.objects.filter(hand=record)
    if upto is not None:
        query = query.filter(seq__lte=upto)
    rows = list(query.order_by("seq"))
    if not rows or not record.secret_seed:
        raise HandUnavailableError(f"hand {record.pk} has no log or no seed")
    events = [event_from_row(r) for r in rows]
    try:
        hand = Hand.replay(record.secret_seed, events)
    except (ValueError, KeyError, TypeError) as exc:
        raise HandUnavailableError(f"hand {record.pk}: {exc}") from exc
    if hand.seq != events[-1].seq:
        raise HandUnavailableError(
            f"hand {record.pk}: replay stops at {hand.seq}, log at {events[-1].seq}"
        )
    return hand


def load_hand(record: HandRecord, *, seq: int) -> Hand:
    """Return the live hand of ``record`` at event ``seq`` (cache or replay).

    The hand is the state at ``seq`` exactly, even when the log has moved on
    since the caller read ``seq`` (a move committed between the table row
    and the log, issue 11 §5.6): a frame is built from one state, the one
    its row describes, never the row of one moment and the log of another.
    A cached hand ahead of ``seq`` stays cached (it is the newer state).

    Call holding :func:`hand_lock` of ``record``.

    Raises:
        HandUnavailableError: see :func:`rebuild_hand`, or the log does not
            reach ``seq``.
    """
    with _GUARD:
        hand = _CACHE.get(record.pk)
        if hand is not None:
            _CACHE.move_to_end(record.pk)
    if hand is not None and hand.seq == seq:
        return hand
    if hand is not None and hand.seq < seq and _catch_up(record, hand, seq):
        return hand
    newer = hand is not None and hand.seq > seq
    hand = rebuild_hand(record, upto=seq)
    if hand.seq != seq:
        raise HandUnavailableError(
            f"hand {record.pk}: log ends at {hand.seq}, table says {seq}"
        )
    if not newer:
        remember_hand(record.pk, hand)
    return hand


def _catch_up(record: HandRecord, hand: Hand, seq: int) -> bool:
    """Bring a cached hand that is behind (another process moved on) up to
    ``seq`` by re-applying the logged actions after it; the events it
    produces must equal the stored ones.  Returns False (cache dropped) when
    they do not, so the caller rebuilds from the start.
    """
    rows = list(
        HandEvent.objects.filter(hand=record, seq__gt=hand.seq, seq__lte=seq).order_by(
            "seq"
        )
    )
    start = len(hand.events)
    try:
        for row in rows:
            if row.action is not None:
                hand.apply(action_from_json(row.action), now=row.at)
        ok = hand.seq == seq and hand.events[start:] == [
            event_from_row(r) for r in rows
        ]
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        forget_hand(record.pk)
    return ok


def absorb_events(hand_id: int, events: list[dict[str, Any]]) -> bool:
    """Bring this process's cached hand up to date from broadcast events.

    ``events`` are ``Event.to_json()`` dicts that another process has just
    committed to the log (carried by the table's group message, see
    games.services.notify.notify_table), in order.  When the cached hand is
    exactly one step behind them, their actions are re-applied and the
    produced events must equal the broadcast ones — saving the catch-up query
    that :func:`load_hand` would otherwise make.  Anything else (no cached
    hand, a gap, a mismatch) changes nothing but dropping a mismatched hand;
    :func:`load_hand` then reads the log, which stays the truth.  Returns
    whether the cache moved forward.
    """
    if not events:
        return False
    with hand_lock(hand_id):
        with _GUARD:
            hand = _CACHE.get(hand_id)
        try:
            incoming = [Event.from_json(e) for e in events]
        except (KeyError, TypeError, ValueError):
            return False
        if hand is None or hand.seq != incoming[0].seq - 1:
            return False
        start = len(hand.events)
        try:
            for ev in incoming:
                if ev.action is not None:
                    hand.apply(action_from_json(ev.action), now=ev.at)
            ok = hand.events[start:] == incoming
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            forget_hand(hand_id)
        return ok


def remember_hand(hand_id: int, hand: Hand) -> None:
    """Put ``hand`` in this process's cache (evicting the oldest)."""
    with _GUARD:
        _CACHE[hand_id] = hand
        _CACHE.move_to_end(hand_id)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


def forget_hand(hand_id: int) -> None:
    """Drop ``hand_id`` from the cache (after a failed write)."""
    with _GUARD:
        _CACHE.pop(hand_id, None)


def clear_cache() -> None:
    """Empty the cache (tests simulate a restarted process with it)."""
    with _GUARD:
        _CACHE.clear()
