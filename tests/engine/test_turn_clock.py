"""The turn after a claim window counts from the discard (issue 11 §5.2).

Seed 000 行牌规定: "此後，包括各家，每次从上家打出牌後，到自己出牌的时限为15秒
(包括吃牌、碰牌、补花)".  With ``turn_from_discard`` (the live table) the
opponent's turn deadline is the discard's time + 15 s whether its claim
window was answered at once (no claim possible) or seconds later, so the
deadline tells the discarder nothing.  Older logs (no key) replay as before.
"""

from __future__ import annotations

import pytest

from games.engine.actions import Discard, Pass
from games.engine.hand import Hand
from games.engine.state import Phase
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

# the non-dealer waits on 白 (5z): the dealer's 5z opens a real window, its
# 7z none
OTHER = "123m789m111z333z5z"
DEALER = "445566m22z44z66z7z5z"


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.parametrize("tile", ["5z", "7z"])
def test_the_turn_after_a_window_counts_from_the_discard(on, tile):
    hand = stacked("erren", DEALER, OTHER, turn_from_discard=on)
    started = hand.events[0].payload
    assert started.get("turn_from_discard", False) is on
    hand.apply(Discard(0, hand.seq, Tile.parse(tile)), now=2000.0)
    if hand.state.phase is Phase.CLAIM:  # a real window, answered 6 s later
        assert tile == "5z" and hand.state.deadline == 2010.0
        hand.apply(Pass(1, hand.seq), now=2006.0)
        answered = 2006.0
    else:
        assert tile == "7z"
        answered = 2000.0
    assert hand.state.phase is Phase.TURN and hand.state.pending[1]
    assert hand.state.deadline == (2015.0 if on else answered + 15)
    again = Hand.replay(hand.state.seed, hand.events, wall=hand.state.wall)
    assert again.events == hand.events
