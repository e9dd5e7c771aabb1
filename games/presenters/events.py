"""What the hand's log tells a seat beyond its view: the latest call for the
call-out (``callout``), a discard made by a turn timeout (``timeout_notice``)
and the last discard still in a pool (``last_discard``).
"""

from __future__ import annotations

from typing import Any

from games.engine.events import Event
from games.engine.hand import Hand
from games.rules.tiles import ALL_TILES

from .seats import side_of

CALLOUT_EVENTS = {
    "chi": "chi",
    "pung": "pung",
    "kong": "kong",
    "added_kong": "kong",
    "concealed_kong": "kong",
}
"""Log events that are a call the table shouts (吃 碰 杠); wins come from
``hand_ended`` (和, or 自摸 when self-drawn)."""


def callout(hand: Hand, record_id: int, seat: int) -> dict[str, Any] | None:
    """The latest call since the last discard, for the call-out animation.

    ``{id ("<hand>:<seq>", new per call), kind chi|pung|kong|hu|zimo, who
    me|opponent}`` or None.  Only public facts: the kind and seat of the
    event (a 暗杠's tile stays hidden).  The browser shows each id once.
    """
    for ev in reversed(hand.events[-40:]):  # 补花 after a kong: up to 8 pairs
        if ev.kind == "hand_ended":
            winner = ev.payload.get("winner")
            if not isinstance(winner, int):
                return None
            kind = "zimo" if ev.payload.get("self_drawn") else "hu"
            who = side_of(winner, seat)
        elif ev.kind in CALLOUT_EVENTS and ev.seat is not None:
            kind, who = CALLOUT_EVENTS[ev.kind], side_of(ev.seat, seat)
        elif ev.kind == "discard":
            return None
        else:
            continue
        return {"id": f"{record_id}:{ev.seq}", "kind": kind, "who": who}
    return None


def timeout_notice(hand: Hand, record_id: int, seat: int) -> dict[str, Any] | None:
    """The latest discard, if a turn timeout made it (context ``timeout_notice``).

    ``{id ("<hand>:<seq>" of the discard), who me|opponent, tile}`` or None.
    Public facts only: the discard is seen by both seats, and only a turn's
    timeout counts (a claim window's is never shown).

    The seat that timed out also keeps the notice of its own discard when
    the opponent's discard came in the same write (the same ``at``: a bot,
    托管 or a locked 报听 seat answers at once), so it never had a frame
    of its own — until its next call or discard.  A loaded hand holds that
    discard (games.engine.snapshot.recent_events).
    """
    latest: Event | None = None
    acted = False  # the seat called after the latest discard
    for ev in reversed(hand.events[-40:]):
        if ev.kind != "discard":
            acted |= latest is None and ev.seat == seat and ev.kind in CALLOUT_EVENTS
        elif latest is None:
            note = _timed_out_discard(hand, record_id, seat, ev.seq)
            if note is not None or ev.seat == seat or acted:
                return note
            latest = ev
        elif ev.seat == seat and ev.at == latest.at:
            note = _timed_out_discard(hand, record_id, seat, ev.seq)
            return note if note is not None and note["who"] == "me" else None
        else:
            return None
    return None


def own_timeout_notice(
    hand: Hand, record_id: int, seat: int, discard_seq: int
) -> dict[str, Any] | None:
    """Under the claim veil: the notice of the seat's own discard at
    ``discard_seq`` (the veil's ``from``, the discard it shows), read from
    that discard and the event before it only — nothing after it, so nothing
    about a claim."""
    note = _timed_out_discard(hand, record_id, seat, discard_seq)
    return note if note is not None and note["who"] == "me" else None


def _timed_out_discard(
    hand: Hand, record_id: int, seat: int, discard_seq: int
) -> dict[str, Any] | None:
    """The notice for the discard at ``discard_seq`` if a turn timeout made it.

    Reads that discard and the event before it (a hand loaded from its
    snapshot holds both for its last discard)."""
    ev, before = hand.event_at(discard_seq), hand.event_at(discard_seq - 1)
    if (
        ev is None
        or before is None
        or ev.kind != "discard"
        or ev.seat is None
        or before.kind != "timeout"
        or before.seat != ev.seat
        or before.payload.get("phase") != "turn"
    ):
        return None
    tile = ev.payload.get("tile")
    if not isinstance(tile, str):
        return None
    return {"id": f"{record_id}:{ev.seq}", "who": side_of(ev.seat, seat), "tile": tile}


def last_discard_from_log(hand: Hand, seat: int) -> dict[str, Any] | None:
    """The most recent discard still lying in a pool, for the 'last' mark."""
    s = hand.state
    for ev in reversed(hand.events):
        if ev.kind in ("chi", "pung", "kong"):
            return None  # it was claimed
        if ev.kind == "discard" and ev.seat is not None:
            pool = s.discards[ev.seat]
            if not pool:
                return None
            return {
                "seat": side_of(ev.seat, seat),
                "tile": str(ALL_TILES[pool[-1]]),
                "index": len(pool) - 1,
            }
    return None
