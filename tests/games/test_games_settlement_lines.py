"""The settlement panel's lines for a self-drawn win, by rule set (fresh tester:
every 自摸 showed "自摸 ×1 (自摸不加倍)", in 国标 and 优嘻 too, where no
rule says how a self-drawn win pays)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.display.settlement import settle_lines
from games.engine.settle import Outcome, settle
from games.presenters.settlement import settlement_view
from games.rules.rulesets import NAMES
from games.rules.rulesets import get as get_ruleset


def _panel(name: str) -> list[dict[str, str]]:
    rs = get_ruleset(name)
    st = settle(
        Outcome(winner=0, base_fan=13, self_drawn=True),
        ruleset=rs,
        stake=3,
        balances=(500, 500),
    ).to_json()
    assert any(line["key"] == "self_drawn" for line in st["lines"])  # stored as before
    view = settlement_view(
        result={"winner": 0, "self_drawn": True},
        settlement=st,
        seat=0,
        practice=False,
        annulled=False,
        ruleset=name,
    )
    return settle_lines(view["lines"])


def test_the_rule_sets_that_state_how_a_self_drawn_win_pays():
    stated = {n for n in NAMES if get_ruleset(n).self_drawn_rule}
    # seed 000 游戏说明 4 "自摸不加倍" (二人麻将, and 64张 which takes its 游戏说明)
    assert stated == {"erren", "erren64"}


@pytest.mark.parametrize("name", NAMES)
def test_the_self_drawn_chip_only_where_it_is_a_rule(name):
    chips = {line["key"]: line for line in _panel(name)}
    if get_ruleset(name).self_drawn_rule:
        chip = chips["self_drawn"]
        assert (chip["label"], chip["value"], chip["note"]) == (
            "自摸",
            "×1",
            "自摸不加倍",
        )
    else:
        assert "self_drawn" not in chips
        assert "coins_raw" in chips  # the rest is still listed (倍数 ×1 is not)


def _coins_note(name: str, *, self_drawn: bool, **outcome) -> str:
    st = settle(
        Outcome(winner=0, base_fan=13, self_drawn=self_drawn, **outcome),
        ruleset=get_ruleset(name),
        stake=3,
        balances=(5000, 5000),
    ).to_json()
    view = settlement_view(
        result={"winner": 0, "self_drawn": self_drawn},
        settlement=st,
        seat=0,
        practice=False,
        annulled=False,
        ruleset=name,
    )
    (line,) = [x for x in settle_lines(view["lines"]) if x["key"] == "coins_raw"]
    return line["note"]


def test_erren_coins_note_says_how_in_words_without_a_times_one():
    """Reviewers: an erren win read "游戏币 39 (13×3×1)": the ×1 is the 倍数
    erren does not have. Seed 000 "输赢：以房间底分乘以牌型的倍数"."""
    assert _coins_note("erren", self_drawn=False) == "总番数 13 × 房间基数 3"
    assert _coins_note("erren", self_drawn=True) == "总番数 13 × 房间基数 3"
    with translation.override("en"):
        assert _coins_note("erren", self_drawn=False) == "total fan 13 × stake 3"


def test_coins_note_names_a_multiplier_and_self_drawn_factor_above_one():
    # seed 002 "总番数X房间基数X倍数=游戏币": 明牌 ×4 for seat 0
    note = _coins_note("liangren", self_drawn=False, open_hand=(True, False))
    assert note == "总番数 13 × 房间基数 3 × 倍数 4"
    with translation.override("en"):
        note = _coins_note("liangren", self_drawn=False, open_hand=(True, False))
    assert note == "total fan 13 × stake 3 × multiplier 4"


def test_coins_note_from_lines_with_a_self_drawn_factor():
    # no rule set pays a self-drawn win more today; the engine's note has the
    # factor when one does, and so do the words
    lines = [
        {"key": "fan", "value": 13},
        {"key": "multiplier", "value": 1},
        {"key": "self_drawn", "value": 2},
        {"key": "coins_raw", "value": 13 * 1000 * 2, "note": "13×1000×1×2"},
    ]
    assert settle_lines(lines)[-1]["note"] == "总番数 13 × 房间基数 1,000 × 自摸 2"
    # a line the words cannot explain keeps the engine's working
    lines[-1] = {"key": "coins_raw", "value": 7, "note": "7×1×1"}
    assert settle_lines(lines)[-1]["note"] == "7×1×1"
