"""The settlement panel's lines for a self-drawn win, by rule set (fresh tester:
every 自摸 showed "自摸 ×1 (自摸不加倍)", in 国标 and 优嘻 too, where no
rule says how a self-drawn win pays)."""

from __future__ import annotations

import pytest

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
