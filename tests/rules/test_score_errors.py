"""Why a scored hand is no win, as a value (ScoreError), not a string to parse."""

from __future__ import annotations

from games.rules import rulesets
from games.rules.api import score_hand
from games.rules.scoring import ScoreError
from games.rules.situation import WinSituation
from games.rules.tiles import Tile, parse_tiles


def _score(standing: str, win: str, ruleset: str = "mcr"):
    situation = WinSituation(win_tile=Tile.parse(win))
    return score_hand(
        parse_tiles(standing), [], situation, rulesets.get(ruleset)
    ).result


def test_a_win_has_no_error_code() -> None:
    result = _score("123m456p789s234m5z", "5z")  # 花龙 8, 门前清 2, 单钓将 1
    assert result.win and result.total == 11
    assert result.code is None and result.error is None


def test_a_hand_completing_no_shape_is_not_complete() -> None:
    result = _score("123m456m789m124p5s", "5s")
    assert not result.win and result.shape == ""
    assert result.code is ScoreError.NOT_COMPLETE
    assert result.error == "not a complete hand"


def test_a_complete_hand_under_the_minimum_is_below_minimum() -> None:
    # 234m 345m 456p 678s 99p on a discard: 门前清 2, 平和 2, 单钓将 1
    result = _score("234m456p678s345m9p", "9p")
    assert result.shape == "regular" and not result.win
    assert result.code is ScoreError.BELOW_MINIMUM
    assert result.minimum_total == 5
    assert result.error == "below the 8-fan minimum (5)"
