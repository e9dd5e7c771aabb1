"""The veil: what a discarder sees cannot tell whether the opponent could claim.

Issue 6 ("the claim window must not leak information") and issue 11 §5.2.
The engine opens a claim window after every discard and a ROB window after
every 加杠, answered at once by an automatic ``pass`` when the opponent has
no option, so the event log — kinds, seats, payloads, ``seq`` — is the same
in both cases (games.engine.claims).  What a person at the table could still
observe is the rest: the timer fields, the frames and their order, and when
they arrive.  The live table's hands are dealt with ``turn_from_discard``
(games.engine.hand.Hand.new), so the opponent's turn deadline counts from the
discard (seed 000: 15 s from the opponent's discard, 吃/碰 included) in both
cases, and the veil below makes the frames the same.

**After a discard** (``kind`` "claim") of a person — its own, a timed-out
turn's, 托管's or a locked 报听 seat's forced one (:func:`update_veil`, after
every write) — while the opponent is a person not playing 明牌, its frame
shows the table as of its discard (wall count, the opponent's tile count and
flowers), the opponent's turn with its
real deadline (discard time + the discard timer, the same in both cases),
and the ``seq`` of the claim prompt right after its discard (``shown``).  It
holds, whatever happens in between — the opponent's pass (its own or the
engine's), its draw and 补花, a timed-out claim window, 托管 or 报听 markers
(:data:`QUIET`) — until the opponent's next move of its own that is not one
of those (a discard, a claim, a kong, a win, 换牌) or the end of the hand.
So the discarder gets one frame at its discard and the next at that move, in
both cases; the consumer does not send a frame that did not change
(games.consumers), so a pass behind the veil sends nothing.

**After a 加杠** (``kind`` "rob"), while the opponent is a person not in 托管
and not playing 明牌, the kong maker's frame shows the table as it was when
the ROB window opened (rendered from the hand before the 加杠 — the tiles
are the same in the window — as the opponent's ROB window with its
deadline, the ``seq`` of the ROB prompt and the 杠 call-out; its
replacement tile not yet drawn), until the ROB window's end plus the time
a timeout takes to be applied (``until``); only then does it see its
replacement tile and its turn (whose deadline counts from that end,
``turn_from_discard``) — or, earlier, the opponent's 抢杠胡.  A consumer
re-renders at ``until`` (``reveal``).  So a 加杠 costs its maker the ROB
window's time whether or not the kong could be robbed.

During a veil the seat's only control is 托管 (not during a ROB veil, where
toggling it would play the turn at once in one case only): a request
carrying the shown number is applied at the real one, a larger number is
refused as "ahead" and anything else as "not your turn", alike in both cases
(:func:`unveil_seq`).

Residue, outside the server's control: the opponent's own thinking time
(a person who weighs a claim takes longer to discard; a seat locked by 报听
that may win on the discard is asked, one that may not discards at once).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.engine.actions import Action, AddedKong, AutoPlay
from games.engine.errors import (
    AheadActionError,
    InvalidActionError,
    OutOfTurnError,
)
from games.engine.hand import Hand
from games.rules.tiles import Tile

from ..models import Table

QUIET = frozenset(
    {
        "prompt",
        "pass",
        "draw",
        "flower",
        "timeout",
        "auto_play",
        "ready",
        "win_declined",
    }
)
"""Events after a discard that keep its veil: the claim window, its answer
(own or automatic, a timeout, a counted 胡加倍), the opponent's draw with its
补花 and turn prompt, and public markers (托管, 报听 without a tile; a 报听
with a tile is followed by its ``discard``, which lifts the veil)."""

ROB_QUIET = QUIET | {"kong_completed"}
"""Events after a 加杠 that keep its veil: the ROB window, its answer, the
kong completed and the maker's replacement draw and turn prompt."""

ROB_SETTLE = 0.25
"""Seconds after a ROB window's end (plus the deadline slack and one clock tick)
by which a timed-out window has surely been applied."""


def snapshot_at(hand: Hand, seat: int, start: int) -> dict[str, Any]:
    """What ``seat`` saw of the table at its discard ``start`` (a seq).

    Every event since is one of :data:`QUIET`: the opponent's draws (wall
    −1 each; a flower goes to its flowers, any other tile to its hand) and
    a 胡加倍 it counted by passing a win on the discard (``win_declined``,
    +1 each: shown only when the veil lifts, else the discarder would learn
    that the opponent could win on its tile).
    """
    s = hand.state
    other = 1 - seat
    later = hand.events_after(start)
    draws = sum(1 for e in later if e.kind == "draw")
    theirs = sum(1 for e in later if e.kind == "draw" and e.seat == other)
    flowers = sum(1 for e in later if e.kind == "flower" and e.seat == other)
    kept = len(s.flowers[other]) - flowers
    declined = sum(1 for e in later if e.kind == "win_declined" and e.seat == other)
    return {
        "wall_count": s.wall_count + draws,
        "opp_count": sum(s.concealed[other]) - (theirs - flowers),
        "opp_flowers": [str(Tile.from_index(f)) for f in s.flowers[other][:kept]],
        "opp_win_doubles": s.win_doubles[other] - declined,
    }


def active_veil(
    table: Table, seat: int, hand: Hand, now: float
) -> dict[str, Any] | None:
    """Return ``table.veil`` if it hides the table from ``seat`` at ``now``.

    Keys of the veil: ``kind`` ("claim" or "rob"), ``seat``, ``from`` (the
    seq of the discard / 加杠), ``shown`` (the seq the seat sees), ``at``
    (the seq whose state a ROB veil shows), ``until`` (epoch s, ROB only),
    ``deadline`` (epoch s: the opponent's turn deadline, or the ROB
    window's),
    ``tile``, ``wall_count``, ``opp_count``, ``opp_flowers``,
    ``opp_win_doubles`` (:func:`snapshot_at`).  It holds while
    the hand is live and every event after ``from`` is one that keeps it
    (:data:`QUIET`, :data:`ROB_QUIET`); a claim veil also ends when the seat
    is asked to act, a ROB veil at ``until``.  Veils written before
    ``from`` existed are ignored.
    """
    veil = table.veil
    if not veil or veil.get("seat") != seat or hand.ended:
        return None
    start = veil.get("from")
    if not isinstance(start, int) or start > hand.seq:
        return None
    rob = veil.get("kind") == "rob"
    if rob:
        until = veil.get("until")
        if until is None or now >= float(until):
            return None
    elif hand.state.pending[seat]:
        return None
    quiet = ROB_QUIET if rob else QUIET
    try:
        later = hand.events_after(start)
    except LookupError:
        # a hand loaded from its snapshot holds its log from just before its
        # last discard: older than that, a discard (never quiet) came since
        return None
    if any(ev.kind not in quiet for ev in later):
        return None
    return veil


def unveil_seq(hand: Hand, veil: dict[str, Any], *, kind: str, seq: int) -> int:
    """Check a veiled seat's request (``kind``, ``seq``) against what it saw.

    The seat sees ``veil["shown"]``: that number means "now" (the real
    ``hand.seq``); a larger one is ahead of what the seat was shown and is
    refused as the engine refuses any number ahead of the hand; a smaller
    one is stale in both cases and is left to the engine.  At "now" only
    托管 (``auto_play``, and not under a ROB veil) is accepted; anything else
    is not the seat's turn — even 报听 without a discard, which the engine
    would take during a claim window but which would lift the veil.  So the
    answer never depends on whether a window is really open.  Returns the
    ``seq`` to apply.

    Raises:
        InvalidActionError: ``seq`` ahead of ``shown``.
        OutOfTurnError: any other request at the shown number.
    """
    shown = int(veil.get("shown", hand.seq))
    if seq > shown:
        raise AheadActionError(f"seq {seq} is ahead of the hand (last event {shown})")
    if seq < shown:
        return seq
    if kind != "auto_play" or veil.get("kind") == "rob":
        raise OutOfTurnError("the table waits for the opponent (veiled)")
    return hand.seq


def _last_event(hand: Hand, seat: int, kind: str) -> Any:
    for ev in reversed(hand.events):
        if ev.kind == kind and ev.seat == seat:
            return ev
    raise InvalidActionError("no such event")  # pragma: no cover


def set_veil(
    table: Table,
    hand: Hand,
    seat: int,
    action: Action,
    now: float,
    *,
    kept: dict[str, Any] | None = None,
    added: int = 0,
) -> dict[str, Any] | None:
    """Update ``table.veil`` after ``seat``'s own ``action``; return the reveal.

    A 加杠 veils the table from ``seat`` (ROB veil) when the opponent is a
    person not in 托管 and not playing 明牌; the reveal ``{seat, at}`` asks
    that seat's consumer to render again when it ends.  ``kept``: the veil
    that was active for ``seat`` before the action — its 托管 toggle keeps
    it, ``shown`` moved on by the ``added`` events it caused.  Claim veils
    are set by :func:`update_veil`, after every write.
    """
    s = hand.state
    other = 1 - seat
    if kept is not None and isinstance(action, AutoPlay) and not hand.ended:
        table.veil = {**kept, "shown": int(kept["shown"]) + added}
        return None
    person = table.is_human(other) and not s.open_hand[other] and not hand.ended
    if isinstance(action, AddedKong) and person and not s.auto[other]:
        ev = _last_event(hand, seat, "added_kong")
        until = (
            ev.at
            + hand.ruleset.timers.claim
            + settings.MAHJONG_DEADLINE_SLACK
            + settings.MAHJONG_CLOCK_TICK
            + ROB_SETTLE
        )
        table.veil = {
            "kind": "rob",
            "seat": seat,
            "from": ev.seq,
            "shown": ev.seq + 1,
            # the state before the 加杠 (the last one committed; the tiles
            # are as in the ROB window), shown as that window
            "at": ev.seq - 1,
            "deadline": ev.at + hand.ruleset.timers.claim,
            "until": until,
        }
        if active_veil(table, seat, hand, now) is None:
            table.veil = None  # robbed at once: nothing to hide
            return None
        return {"seat": seat, "at": until}
    return None


def update_veil(table: Table, hand: Hand, now: float) -> None:
    """After any write: veil the hand's last discard while it is answered.

    The discard of a person — its own, a timed-out turn's, 托管's or a
    locked 报听 seat's — is veiled from it while its opponent is a person
    not playing 明牌, it is not asked to act, and every event since is one
    of :data:`QUIET`.  A veil already set for that discard is kept (with
    its ``shown``); any other veil is dropped once it hides nothing.
    """
    s = hand.state
    veil = table.veil
    last = next((e for e in reversed(hand.events) if e.kind == "discard"), None)
    if last is not None and last.seat is not None and not hand.ended:
        seat, start = last.seat, last.seq
        other = 1 - seat
        if (
            table.is_human(seat)
            and table.is_human(other)
            and not s.open_hand[other]
            and not s.pending[seat]
            and all(e.kind in QUIET for e in hand.events_after(start))
        ):
            if veil and veil.get("kind") == "claim" and veil.get("from") == start:
                return
            table.veil = {
                "kind": "claim",
                "seat": seat,
                "from": start,
                "shown": start + 1,  # the claim prompt: opened in both cases
                "deadline": last.at + hand.ruleset.timers.discard,
                "until": None,
                "tile": str(last.payload.get("tile", "")),
                **snapshot_at(hand, seat, start),
            }
            return
    tidy_veil(table, hand, now)


def tidy_veil(table: Table, hand: Hand, now: float) -> None:
    """Drop ``table.veil`` once it no longer hides anything."""
    veil = table.veil
    if veil and active_veil(table, int(veil.get("seat", -1)), hand, now) is None:
        table.veil = None


__all__ = [
    "QUIET",
    "ROB_QUIET",
    "active_veil",
    "set_veil",
    "snapshot_at",
    "tidy_veil",
    "unveil_seq",
    "update_veil",
]
