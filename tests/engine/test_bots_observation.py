"""observation_from_hand is observation_from_view of the rendered view (issue 15:
self-play reads the seat's observation from the state instead of rendering and
parsing the view at every decision)."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Action
from games.engine.bots import make_bot
from games.engine.bots.observation import observation_from_hand, observation_from_view
from games.engine.hand import Hand
from games.engine.selfplay import play_hand
from games.rules.rulesets import NAMES
from games.rules.rulesets import get as get_ruleset


@pytest.mark.parametrize("name", NAMES)
def test_observation_from_hand_equals_the_views(name: str) -> None:
    bot = make_bot("hard", random.Random(3))
    checked = 0

    def choose(hand: Hand, seat: int) -> Action | None:
        nonlocal checked
        for s in (0, 1):
            assert observation_from_hand(hand, s) == observation_from_view(hand.view(s))
        checked += 1
        return bot.choose_in(hand, seat)

    rng = random.Random(5)
    for i in range(6):
        play_hand(
            get_ruleset(name), f"obs-{name}-{i}", check=False, rng=rng, choose=choose
        )
    assert checked > 60


@pytest.mark.parametrize("name", NAMES)
def test_choose_in_makes_the_choice_of_choose(name: str) -> None:
    a = make_bot("normal", random.Random(1))
    b = make_bot("normal", random.Random(1))

    def choose(hand: Hand, seat: int) -> Action | None:
        got = a.choose_in(hand, seat)
        assert got == b.choose(hand.view(seat), hand.legal_actions(seat))
        return got

    play_hand(
        get_ruleset(name),
        f"choose-{name}",
        check=False,
        rng=random.Random(8),
        choose=choose,
    )
