"""Bots use each rule set's special systems sensibly (issue 11 §2), one test each.

* 明牌 (liangren, seed 002) and 开始加倍 (erren, seed 000) come before the deal:
  no hand to judge, so only the level that raises stakes on the dealer's
  edge (hard) takes them, and only as the dealer.
* 加倍 after the deal (erren64, liangren): with a hand close to waiting
  (two tiles for easy and normal, three for hard), never with a poor one.
* 胡加倍 (erren): hard declines a win only with a good wait (live tiles,
  wall left, below the cap).
"""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Action, Discard, Double, PreDeal, Win
from games.engine.bots import LEVELS, make_bot
from games.engine.hand import Hand
from games.rules.tiles import Tile, parse_tiles
from tests.engine.helpers import stacked
from tests.engine.test_bots import _view


def _pre_deal_choice(ruleset: str, level: str, dealer: int) -> PreDeal:
    hand = Hand.new(ruleset, now=0.0, seed="ab" * 16, dealer=dealer)
    action = make_bot(level, random.Random(0)).choose(
        hand.view(0), hand.legal_actions(0)
    )
    assert isinstance(action, PreDeal)
    return action


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_open_hand_before_the_deal_only_by_the_hard_dealer(level: str) -> None:
    as_dealer = _pre_deal_choice("liangren", level, dealer=0)
    assert as_dealer.open_hand == (level == "hard") and not as_dealer.double
    other = _pre_deal_choice("liangren", level, dealer=1)
    assert not other.open_hand and not other.double


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_start_double_before_the_deal_only_by_the_hard_dealer(level: str) -> None:
    as_dealer = _pre_deal_choice("erren", level, dealer=0)
    assert as_dealer.double == (level == "hard") and not as_dealer.open_hand
    assert not _pre_deal_choice("erren", level, dealer=1).double


def _double_choice(level: str, dealer: str, other: str, ruleset: str) -> bool:
    hand = stacked(ruleset, dealer, other)
    assert hand.state.phase.value == "double"
    action = make_bot(level, random.Random(0)).choose(
        hand.view(1), hand.legal_actions(1)
    )
    assert isinstance(action, Double)
    return action.double


# seat 1's 13 tiles, by how far from waiting the bots' evaluation puts them
# (free deficiency, games.engine.bots.evaluate): 1 (123m 456m 789m 11z 23p)
# and 5 (scattered, no 十三幺 either) in liangren; 3 in erren64
CLOSE = "123m456m789m11z23p"
SCATTERED = "1m9m3p6p8p2s3s5s6s8s1z6z7z"
LIANGREN_DEALER = "1122z3344z5566z7z9s"
THREE_AWAY_64 = "5m5m6m6m7m7m8m9m2z4z4z5z7z"
ERREN64_DEALER = "1122m3344m5566z7z7z"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_double_after_the_deal_with_a_hand_close_to_waiting(level: str) -> None:
    assert _double_choice(level, LIANGREN_DEALER, CLOSE, "liangren") is True
    assert _double_choice(level, LIANGREN_DEALER, SCATTERED, "liangren") is False


def test_double_after_the_deal_thresholds_differ_by_level() -> None:
    # erren64 (万子 and honours): three tiles from waiting — hard only
    choices = {
        lv: _double_choice(lv, ERREN64_DEALER, THREE_AWAY_64, "erren64")
        for lv in LEVELS
    }
    assert choices == {"easy": False, "normal": False, "hard": True}


def _tiles(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text)]


def test_win_double_only_with_a_good_wait() -> None:
    # erren, 报听 locked, waiting on 1m/4m/7m, drawing 4m with 40 tiles left
    legal: list[Action] = [Win(0, 10), Discard(0, 10, Tile.parse("4m"))]
    view = _view(_tiles("23456m789m111z22z"), drawn="4m", ruleset="erren", wall=40)
    view["me"]["ready"] = True
    hard = make_bot("hard", random.Random(0))
    assert hard.choose(view, legal) == Discard(0, 10, Tile.parse("4m"))
    # the same hand whose other waits are gone (three 1m, three 7m and the
    # last 4m out of reach): winning again is unlikely, take this win
    poor = _view(
        _tiles("23456m789m111z22z"),
        drawn="4m",
        ruleset="erren",
        wall=40,
        opp_discards=_tiles("111m777m4m"),
    )
    poor["me"]["ready"] = True
    assert make_bot("hard", random.Random(0)).choose(poor, legal) == Win(0, 10)
    # easy and normal always win (issue 5)
    for level in ("easy", "normal"):
        assert make_bot(level, random.Random(0)).choose(view, legal) == Win(0, 10)
