"""Invariant checks used by ``selfplay --check`` and the property tests.

Each function raises :class:`InvariantError` with a message naming the
broken invariant; none of them changes the hand.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..rules.tiles import NUM_KINDS, Tile
from .hand import Hand
from .state import Phase
from .wall import wall_tiles

HIDDEN_KEYS = ("tile", "tiles", "out")
"""Payload keys that carry a tile and must never reach the other seat in
the redacted form of a private event."""


SKIP_KEYS = frozenset(
    {"legal_actions", "commitment", "seed", "result", "task", "wind", "round_wind"}
    | {"bonus_tile", "last_discard", "short_win"}
)
"""View keys that name a tile kind without being a physical tile."""


class InvariantError(AssertionError):
    """An engine invariant does not hold."""


def check_conservation(hand: Hand) -> None:
    """Every tile of the rule set's wall is in exactly one place."""
    s = hand.state
    where: Counter[int] = Counter(s.wall[s.head : s.tail])
    for seat in (0, 1):
        for i in range(NUM_KINDS):
            where[i] += s.concealed[seat][i]
        for m in s.melds[seat]:
            where.update(t.index for t in m.tiles)
        where.update(s.discards[seat])
        where.update(s.flowers[seat])
        where.update(s.swapped[seat])
    if s.wild_indicator is not None:
        where[s.wild_indicator] += 1
    expected = Counter(wall_tiles(hand.ruleset))
    if +where != +expected:
        diff = (where - expected) + (expected - where)
        raise InvariantError(f"tile conservation broken: {dict(diff)}")
    if s.phase not in (Phase.ENDED, Phase.PRE_DEAL):
        for seat in (0, 1):
            n = sum(s.concealed[seat]) + 3 * len(s.melds[seat])
            turn = s.phase is Phase.TURN and s.turn == seat
            want = 14 if turn else 13
            if s.phase is Phase.DOUBLE and seat == s.dealer:
                want = 14
            if s.phase is Phase.ROB and seat != s.turn:
                want = 14  # the kong maker still holds the robbable tile
            if n != want:
                raise InvariantError(f"seat {seat} holds {n} tiles, expected {want}")


def _tiles_in(view: Any) -> list[str]:
    out: list[str] = []
    if isinstance(view, dict):
        for k, v in view.items():
            if k in SKIP_KEYS:
                continue
            out.extend(_tiles_in(v))
    elif isinstance(view, list):
        for v in view:
            out.extend(_tiles_in(v))
    elif isinstance(view, str) and len(view) == 2 and view[1] in "mpszf":
        out.append(view)
    return out


def check_view(hand: Hand, seat: int) -> None:
    """``view(seat)`` is JSON, and shows no hidden tile and no secret."""
    s = hand.state
    view = hand.view(seat)
    json.dumps(view)
    ended = s.phase is Phase.ENDED
    if not ended and view["seed"] is not None:
        raise InvariantError("the seed is visible before the end")
    if "wall" in view:
        raise InvariantError("the wall is in the view")
    opp = view["opponent"]
    if (
        not ended
        and not s.open_hand[1 - seat]
        and ("concealed" in opp or "drawn" in opp or "swapped" in opp)
    ):
        raise InvariantError("the opponent's concealed tiles are in the view")
    if not ended:
        for m, real in zip(opp["melds"], s.melds[1 - seat], strict=True):
            if real.is_concealed and m["tiles"] is not None:
                raise InvariantError("the opponent's 暗杠 is face up")
    me = view["me"]
    n = len(me["concealed"]) + (0 if me["drawn"] is None else 1)
    if n != me["concealed_count"]:
        raise InvariantError("own concealed tiles do not add up")
    seen = Counter(_tiles_in(view))
    for text, count in seen.items():
        limit = 1 if text.endswith("f") else 4
        if count > limit:
            raise InvariantError(f"the view shows {count} × {text}")
    if not ended:
        for ev in hand.events:
            if ev.public is not None and seat not in ev.visible_to:
                for key in HIDDEN_KEYS:
                    if key in ev.public:
                        raise InvariantError(
                            f"event {ev.seq} {ev.kind} leaks {key!r} to seat {seat}"
                        )


def check_claim_windows(hand: Hand) -> None:
    """The log does not tell the discarder whether a claim was possible.

    Issue 6 ("the claim window must not leak information"; hand.py's module
    docstring): every ``discard`` is followed at once by a CLAIM ``prompt``
    for the opponent, every ``added_kong`` by a ROB ``prompt``; the window
    closes with the opponent's ``pass`` (or its claim, win or a ``timeout``
    / ``auto_play`` first), and a ``pass`` looks the same (``{}``) to the
    other seat whether the seat or the engine made it.  ``win_declined``
    appears only where it raises the public 胡加倍 count.
    """
    events = hand.events
    doubles = [0, 0]
    for i, ev in enumerate(events):
        if ev.kind in ("discard", "added_kong"):
            phase = "claim" if ev.kind == "discard" else "rob"
            nxt = events[i + 1] if i + 1 < len(events) else None
            want = {"phase": phase, "seats": [1 - (ev.seat or 0)]}
            if (
                nxt is None
                or nxt.kind != "prompt"
                or {k: nxt.payload.get(k) for k in want} != want
            ):
                raise InvariantError(
                    f"{ev.kind} at seq {ev.seq} is not followed by a {phase} window"
                )
        elif ev.kind == "pass":
            other = 1 - (ev.seat or 0)
            if ev.for_seat(other)["data"] != {}:
                raise InvariantError(
                    f"the pass at seq {ev.seq} differs for the other seat"
                )
        elif ev.kind == "win_declined":
            seat = ev.seat or 0
            doubles[seat] += 1
            if ev.payload.get("win_doubles") != doubles[seat]:
                raise InvariantError(
                    f"win_declined at seq {ev.seq} does not raise the 胡加倍 count"
                )
    if list(hand.state.win_doubles) != doubles:
        raise InvariantError("win_doubles differ from the win_declined events")


def check_settlement(hand: Hand) -> None:
    """Balances are conserved: winner's gain + rake = loser's loss."""
    st = hand.settlement
    if st is None:
        raise InvariantError("an ended hand has no settlement")
    s = hand.state
    if st.winner is None:
        if st.deltas != (0, 0) or st.rake:
            raise InvariantError("a drawn hand moved coins")
        return
    if st.deltas[0] + st.deltas[1] + st.rake != 0:
        raise InvariantError(f"coins not conserved: {st.deltas} rake {st.rake}")
    if -st.deltas[st.loser or 0] > min(s.balances):
        raise InvariantError("the loss exceeds the poorer balance")
    if st.deltas[st.winner] < 0 or st.rake < 0:
        raise InvariantError("negative gain or rake")


def check_replay(hand: Hand, snapshots: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """Replaying seed + log gives the same events and, after every action,
    the same state as the live hand (``snapshots``: event index → state)."""
    by_index = dict(snapshots)

    def step(replayed: Hand, i: int) -> None:
        want = by_index.get(i)
        if want is not None and replayed.state.snapshot() != want:
            raise InvariantError(f"replayed state differs after event {i + 1}")

    again = Hand.replay(hand.state.seed, hand.events, on_step=step)
    if again.events != hand.events:
        raise InvariantError("replayed log differs")
    if again.state.snapshot() != hand.state.snapshot():
        raise InvariantError("replayed final state differs")


def tiles_text(tiles: Sequence[Tile]) -> str:
    """Helper for messages: tiles as notation."""
    return " ".join(str(t) for t in tiles)
