"""Property tests: random legal action sequences on every rule set.

Invariants after every action: tile conservation, no view shows a hidden
tile, and (at the end) replay equals the live hand at every step and coins
are conserved.  The actions are drawn from ``legal_actions`` plus
``timeout`` at the deadline, so every kind of action and phase occurs.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import checks
from games.engine.actions import Action, Timeout
from games.engine.hand import Hand
from games.rules.rulesets import get
from tests.engine.helpers import available_rulesets

RULESETS = available_rulesets()


@pytest.mark.parametrize("name", RULESETS)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.text(min_size=1, max_size=12), data=st.data())
def test_random_legal_play_keeps_the_invariants(
    name: str, seed: str, data: Any
) -> None:
    hand = Hand.new(get(name), now=0.0, seed=seed, balances=(500, 800))
    clock = 0.0
    snapshots: list[tuple[int, dict[str, Any]]] = []
    for _ in range(300):
        if hand.ended:
            break
        s = hand.state
        seat = next(i for i in (0, 1) if s.pending[i])
        options: list[Action] = list(hand.legal_actions(seat))
        options.append(Timeout(seat, s.seq))
        action = data.draw(st.sampled_from(options))
        if isinstance(action, Timeout):
            clock = max(clock, s.deadline or clock)
        clock += 0.25
        start = len(hand.events)
        hand.apply(action, now=clock)
        snapshots.append((start, hand.state.snapshot()))
        checks.check_conservation(hand)
        checks.check_view(hand, 0)
        checks.check_view(hand, 1)
    if hand.ended:
        checks.check_settlement(hand)
    checks.check_claim_windows(hand)
    checks.check_replay(hand, snapshots)


def test_every_rule_set_is_covered() -> None:
    assert RULESETS == ["erren", "mcr", "erren64", "jj", "liangren", "youxi"]
