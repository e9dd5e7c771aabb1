"""Every fan of every rule set has an example hand, and the engine scores it
with that fan (issue 12: the rules site can never show a wrong example)."""

from __future__ import annotations

import pytest

from games.rules import rulesets
from games.rules.api import score_hand
from games.rules.examples import COMMON, example, is_dead, parsed
from games.rules.examples.rulesets import BY_RULESET

CASES = [(n, f.id) for n in rulesets.NAMES for f in rulesets.get(n).fans]


@pytest.mark.parametrize(("ruleset", "fan_id"), CASES)
def test_the_example_wins_and_scores_its_fan(ruleset, fan_id):
    rs = rulesets.get(ruleset)
    ex = example(ruleset, fan_id)
    assert ex is not None, f"{ruleset} {fan_id} has no example"
    hand, tiles, situation = parsed(ex)
    result = score_hand(tiles, list(hand.melds), situation, rs).result
    assert result.win, (ex.hand, result.error)
    counted = {line.id: line.count for line in result.fans}
    if is_dead(ruleset, fan_id):
        # a fan the wall makes dead: the pattern is there, another fan drops it
        assert fan_id not in counted
        assert fan_id in {line.id for line in result.not_counted}
    else:
        assert counted.get(fan_id, 0) >= 1, (ex.hand, sorted(counted))


def test_dead_fans_are_only_the_ones_rules_md_names():
    assert {n: sorted(ids) for n, ids in _dead().items()} == {
        "erren": ["NO_HONORS"],
        "erren64": ["NO_HONORS"],
        "jj": ["NO_HONORS"],
    }


def _dead():
    return {
        n: {f.id for f in rulesets.get(n).fans if is_dead(n, f.id)}
        for n in rulesets.NAMES
        if any(is_dead(n, f.id) for f in rulesets.get(n).fans)
    }


def test_every_example_is_used_by_some_rule_set():
    used = {fan_id for _n, fan_id in CASES}
    assert set(COMMON) <= used
    for ruleset, table in BY_RULESET.items():
        ids = {f.id for f in rulesets.get(ruleset).fans}
        assert set(table) <= ids, ruleset


def test_jj_reads_the_shared_hands_in_bamboo():
    ex = example("jj", "BONUS_TILE")
    assert ex is not None
    assert "m" not in ex.hand and ex.situation["bonus_tiles"] == "5s"
