"""Contract every rule set must meet (the six of issue 3, RULES.md).

One class, run for each rule set: it loads by name, describes itself, its
wall is 4 × kinds + flowers and matches its seed, its fan table is sorted by
value with unique ids and documented fans, its minimum and timers are sane,
and a 不计 never points backwards in table order (the scorer applies a fan's
exclusions only to fans after it).
"""

from __future__ import annotations

import json

import pytest

from games.rules import rulesets
from games.rules.cli import describe_dict, describe_text
from games.rules.rulesets.base import Claim, RuleSet, System
from games.rules.tiles import FLOWERS, PLAYING_KINDS

# Wall sizes from the seeds: 000 "万牌 + 风牌 + 箭牌 +花牌" (72), 003 144,
# 004 / 000 游戏说明 64, 001 "共：72张牌", 002 "共136张牌", 000 优嘻网 "共136张".
WALL = {"erren": 72, "mcr": 144, "erren64": 64, "jj": 72, "liangren": 136, "youxi": 136}
MIN_FAN = {"erren": 8, "mcr": 8, "erren64": 8, "jj": 8, "liangren": 8, "youxi": 1}


@pytest.fixture(params=rulesets.NAMES)
def rs(request: pytest.FixtureRequest) -> RuleSet:
    return rulesets.get(request.param)


class TestRuleSetContract:
    def test_loads_by_its_name(self, rs: RuleSet) -> None:
        assert rulesets.get(rs.name) is rs
        assert rs.zh and rs.en and rs.sources

    def test_wall_is_four_of_each_kind_plus_flowers(self, rs: RuleSet) -> None:
        assert len(set(rs.kinds)) == len(rs.kinds)
        assert set(rs.kinds) <= set(PLAYING_KINDS)
        assert set(rs.flowers) <= set(FLOWERS)
        assert rs.wall_size == 4 * len(rs.kinds) + len(rs.flowers)
        assert rs.wall_size == WALL[rs.name]

    def test_fans_sorted_by_value_with_unique_ids(self, rs: RuleSet) -> None:
        points = [f.points for f in rs.fans]
        assert points == sorted(points, reverse=True)
        ids = [f.id for f in rs.fans]
        assert len(ids) == len(set(ids))
        assert all(i.isupper() and " " not in i for i in ids)

    def test_every_fan_has_names_and_a_source(self, rs: RuleSet) -> None:
        for f in rs.fans:
            assert f.zh and f.en and f.source, f.id
            assert f.points > 0, f.id
            assert f.id not in f.excludes, f.id

    def test_exclusions_point_forward_or_are_mutual(self, rs: RuleSet) -> None:
        order = {f.id: i for i, f in enumerate(rs.fans)}
        by_id = {f.id: f for f in rs.fans}
        for f in rs.fans:
            for x in f.excludes:
                if x in order and order[x] < order[f.id]:
                    assert f.id in by_id[x].excludes, (f.id, x)

    def test_minimum_fan(self, rs: RuleSet) -> None:
        assert rs.min_fan == MIN_FAN[rs.name]

    def test_timers(self, rs: RuleSet) -> None:
        # Seed 000: 15 s to discard, 10 s to claim; the other seeds are silent.
        assert (rs.timers.discard, rs.timers.claim) == (15, 10)

    def test_claims_and_systems(self, rs: RuleSet) -> None:
        assert Claim.WIN in rs.claims
        if rs.flowers:
            assert System.FLOWERS in rs.systems
        if System.WILD in rs.systems:
            assert not rs.flowers  # seed 002: 二人麻将无花牌

    def test_describes_itself(self, rs: RuleSet) -> None:
        d = describe_dict(rs)
        json.dumps(d, ensure_ascii=False)
        assert d["wall_size"] == rs.wall_size
        assert [f["id"] for f in d["fans"]] == [f.id for f in rs.fans]
        text = describe_text(rs)
        assert rs.name in text and f"wall size:    {rs.wall_size}" in text
        for f in rs.fans:
            assert f.id in text


def test_default_is_erren_and_unknown_names_are_refused() -> None:
    assert rulesets.DEFAULT == "erren"
    with pytest.raises(KeyError, match="known: erren"):
        rulesets.get("riichi")


def test_seed_specific_settings() -> None:
    erren, jj, liangren = (rulesets.get(n) for n in ("erren", "jj", "liangren"))
    # seed 000: 换牌 ≤5, 胡加倍 ≤8, 自摸不加倍, 杠牌不计分; 天听 32
    assert (erren.max_swaps, erren.max_win_doubles) == (5, 8)
    assert erren.self_drawn_factor == 1 and not erren.kong_payments
    assert erren.fan("HEAVENLY_READY").points == 32
    # seed 001: 天听 16, 加番牌
    assert jj.fan("HEAVENLY_READY").points == 16
    assert System.BONUS_TILE in jj.systems
    # seed 002: 明牌 ×4, 加倍 ×2, 听牌胡 ×2, 5 % 回收, 财神
    assert liangren.multipliers == {"open_hand": 4, "deal_double": 2, "ready_win": 2}
    assert liangren.rake_percent == 5
    assert System.WILD in liangren.systems
    assert rulesets.get("youxi").full_discard_pool == 54
