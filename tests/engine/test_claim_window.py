"""The claim window leaks nothing to the discarder (issue 6).

"The claim window must not leak information": whether the opponent could
claim (吃/碰/杠/和) a discard, or rob (抢杠胡) an added kong, must not show in
what the discarder receives.  Seeded hands of every rule set are played with
the opponent passing most claim windows; for every discard whose window
closed with a pass, the events the discarder sees from its discard up to the
opponent's turn prompt (kinds, seats, sequence numbers, payloads) are
compared between the cases where the opponent had a choice and passed, and
where it had none (the engine's automatic pass).
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest

from games.engine import checks
from games.engine.actions import Pass
from games.engine.bots.default import choose
from games.engine.events import Event
from games.engine.hand import Hand
from games.engine.state import Phase
from games.rules.rulesets import get
from games.rules.rulesets.base import System
from tests.engine.helpers import available_rulesets

HANDS = 14
"""Seeded hands per rule set (enough for both kinds of window in each)."""


def play(name: str, seed: str, rng: random.Random) -> Hand:
    """Play one hand: the simple bot, but a claim/rob window is passed 4 times in 5."""
    hand = Hand.new(get(name), now=0.0, seed=seed)
    clock = 0.0
    for _ in range(2000):
        if hand.ended:
            break
        s = hand.state
        seat = next(i for i in (0, 1) if s.pending[i])
        if s.phase in (Phase.CLAIM, Phase.ROB) and rng.random() < 0.8:
            action = Pass(seat, s.seq)
        else:
            action = choose(hand, seat)
        clock += 1.0
        hand.apply(action, now=clock)
    assert hand.ended
    return hand


def _seen(ev: Event, seat: int, start: int) -> tuple[Any, ...]:
    """What ``seat`` sees of ``ev``, with times made relative to nothing."""
    data = dict(ev.for_seat(seat)["data"] or {})
    data.pop("deadline", None)  # a clock value: now + the phase's timer
    data.pop("wall", None)
    if "tile" in data and ev.kind == "discard":  # a public tile, any tile
        data["tile"] = "?"
    if ev.kind == "hand_ended":  # both hands revealed: compare the reason only
        data = {"reason": data["reason"]}
    return (ev.kind, ev.seat, ev.seq - start, json.dumps(data, sort_keys=True))


def windows(hand: Hand) -> list[tuple[bool, str, list[tuple[Any, ...]]]]:
    """Every claim/rob window that closed with a pass.

    Returns ``(had_choice, phase, seen)``: ``had_choice`` from the server's
    log (the pass was the seat's own, not the engine's ``auto``), ``seen``
    the opening event's seat's view of the events from the opening event
    (discard / added_kong) up to the next prompt, discard or end, with
    flowers (public draws) and 胡加倍 counts (public by rule) left out.
    """
    out = []
    events = hand.events
    for i, ev in enumerate(events):
        if ev.kind not in ("discard", "added_kong"):
            continue
        seat = ev.seat
        assert seat is not None
        closing = events[i + 2]  # discard/added_kong, prompt, then its answer
        if closing.kind != "pass":
            continue
        had_choice = not closing.payload.get("auto")
        seen = []
        skip = 0
        for later in events[i:]:
            if later.kind == "flower":
                skip += 2  # the draw that turned up the flower, and the flower
                seen.pop()
                continue
            if later.kind == "win_declined":
                # counted only under 胡加倍, where the count is public
                assert System.WIN_DOUBLE in hand.ruleset.systems
                skip += 1
                continue
            seen.append(_seen(later, seat, ev.seq + skip))
            if later.seq > closing.seq and later.kind in (
                "prompt",
                "discard",
                "hand_ended",
            ):
                break
        phase = "claim" if ev.kind == "discard" else "rob"
        out.append((had_choice, phase, seen))
    return out


@pytest.mark.parametrize("name", available_rulesets())
def test_the_discarder_sees_the_same_events_whether_a_claim_was_possible(
    name: str,
) -> None:
    rng = random.Random(f"claim-window-{name}")
    shapes: dict[bool, set[tuple[Any, ...]]] = defaultdict(set)
    counts: dict[bool, int] = defaultdict(int)
    for n in range(HANDS):
        hand = play(name, f"leak-{name}-{n}", rng)
        checks.check_claim_windows(hand)
        for had_choice, phase, seen in windows(hand):
            counts[had_choice] += 1
            # the window itself: opening event, prompt, pass at +0, +1, +2
            assert [(k, d) for k, _, d, _ in seen[:3]] == [
                ("discard" if phase == "claim" else "added_kong", 0),
                ("prompt", 1),
                ("pass", 2),
            ]
            assert seen[2][3] == "{}"  # the pass carries nothing for the discarder
            if seen[-1][0] == "hand_ended":
                # the wall ran out on the draw, or (youxi) the pool is full
                assert seen[1:] in (
                    [seen[1], seen[2], ("hand_ended", None, 3, reason)]
                    for reason in (
                        '{"reason": "wall_exhausted"}',
                        '{"reason": "pool_full"}',
                    )
                ), seen
                continue
            shapes[had_choice].add(tuple(seen[1:]))
    # both cases occur in every rule set …
    assert counts[True] >= 5 and counts[False] >= 50, dict(counts)
    # … and every sequence seen after a passed choice is one also seen when
    # there was no choice: same kinds, seats, payloads and seq deltas (e.g.
    # pass +2, draw +3, the opponent's turn prompt +4)
    assert shapes[True] <= shapes[False], shapes[True] - shapes[False]
    turn = ("prompt", None, 4)
    assert any(s[-1][:3] == turn for s in shapes[True])
    assert any(s[-1][:3] == turn for s in shapes[False])
