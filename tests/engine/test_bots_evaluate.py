"""Hand evaluation for the bots, on plain data (hands in tile notation)."""

from __future__ import annotations

import pytest

from games.engine.bots import evaluate as ev
from games.engine.bots.defence import danger, opponent_tenpai
from games.engine.bots.observation import Observation
from games.engine.bots.plans import (
    INF,
    Plan,
    plan_deficiency,
    plans_for,
    pungs_deficiency,
)
from games.engine.bots.wins import engine_scorer
from games.rules.melds import Meld
from games.rules.rulesets import get
from games.rules.shanten import Shape
from games.rules.tiles import Tile, parse_tiles, to_counts

HARD = ev.Style(plans=True, max_plans=3, deep=3, tempo=6.0, defence=1.0)


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def idx(text: str) -> int:
    return Tile.parse(text).index


def obs(ruleset: str, hand: str, **kw: object) -> Observation:
    return Observation(ruleset=get(ruleset), seat=0, hand=tuple(counts(hand)), **kw)  # type: ignore[arg-type]


# -- plans -------------------------------------------------------------------


def test_pungs_deficiency_counts_missing_tiles() -> None:
    # 111 222 333m + 44z 55z: waiting on 4z or 5z
    assert pungs_deficiency(counts("111222333m44z55z"), 4) == 1
    # four pungs and a pair: complete
    assert pungs_deficiency(counts("111222333m444z55z"), 4) == 0
    # seven singles: 4 pungs need 8 more, the pair 1
    assert pungs_deficiency(counts("1357m1234567z"), 4) == 9


def test_plan_deficiency_respects_allowed_kinds_and_melds() -> None:
    mcr = get("mcr")
    flush = next(
        p for p in plans_for(mcr) if p.name == "FULL_FLUSH" and 0 in (p.allowed or ())
    )
    # 123 456 789 12m + 5p: the free shape pairs the 5p (2 to go), the
    # 万 flush must replace it (3 to go)
    free = plans_for(mcr)[0]
    assert plan_deficiency(free, counts("123456789m12m5p"), []) == 2
    assert plan_deficiency(flush, counts("123456789m12m5p"), []) == 3
    # a pung of 5p on the table rules the 万 flush out
    pung = Meld.parse("pung", "555p", "5p")
    assert plan_deficiency(flush, counts("123456789m1m"), [pung]) == INF
    pungs = Plan("ALL_PUNGS", 6, None, frozenset({Shape.REGULAR}), pungs_only=True)
    chi = Meld.parse("chi", "123m", "2m")
    assert plan_deficiency(pungs, counts("1112223334z"), [chi]) == INF


def test_straight_plan_uses_fixed_chows() -> None:
    mcr = get("mcr")
    straight = next(
        p for p in plans_for(mcr) if p.name == "PURE_STRAIGHT" and p.chows == (0, 3, 6)
    )
    # 123 456 78m + 11z 22z + 5p: needs 9m and one more tile for a set or pair
    assert plan_deficiency(straight, counts("12345678m1122z5p"), []) == 2
    # a declared 456m chow counts toward the straight
    chi = Meld.parse("chi", "456m", "5m")
    assert plan_deficiency(straight, counts("12378m11z22z5p"), [chi]) == 2


def test_plans_follow_the_rule_set_tiles() -> None:
    erren = {p.name for p in plans_for(get("erren"))}
    mcr = {p.name for p in plans_for(get("mcr"))}
    # erren has one suit: no half flush plan (every hand is one), no 花龙
    assert "HALF_FLUSH" not in erren and "MIXED_STRAIGHT" not in erren
    assert {"FREE", "FULL_FLUSH", "ALL_PUNGS", "SEVEN_PAIRS"} <= erren
    wanted = {"HALF_FLUSH", "MIXED_STRAIGHT", "MIXED_TRIPLE_CHOW", "KNITTED_STRAIGHT"}
    assert wanted <= mcr


# -- what the seat sees ------------------------------------------------------


def test_unseen_counts_only_what_the_seat_sees() -> None:
    o = obs(
        "erren",
        "123m456m789m11z22z",
        opp_discards=(idx("1z"), idx("5m")),
        opp_melds=(Meld.parse("pung", "333z", "3z"),),
    )
    unseen = o.unseen()
    assert unseen[idx("1z")] == 1  # two in hand, one discarded
    assert unseen[idx("3z")] == 1
    assert unseen[idx("5m")] == 2
    assert unseen[idx("9m")] == 3
    assert unseen[idx("5p")] == 0  # erren has no 筒


# -- valuation ---------------------------------------------------------------


def test_a_wait_under_the_minimum_fan_is_no_wait() -> None:
    # MCR (min 8): 234m 567p 345s 99p + 78s wins on 6s/9s with too few fan
    o = obs("mcr", "234m567p345s78s99p")
    ctx = ev.make_context(o, HARD, engine_scorer)
    est = ev.value(ctx, list(o.hand), [])
    assert est.waits == ()
    assert est.plan != "WAIT"
    # 123456789m (清龙 16) + 78s 99p: a real wait on 6s and 9s
    o2 = obs("mcr", "123456789m78s99p")
    ctx2 = ev.make_context(o2, HARD, engine_scorer)
    est2 = ev.value(ctx2, list(o2.hand), [])
    assert est2.plan == "WAIT"
    assert set(est2.waits) == {idx("6s"), idx("9s")}
    assert est2.value >= 16


def test_discard_keeps_the_shape_and_the_effective_tiles() -> None:
    # 14 tiles: everything connected but the lone 7z
    o = obs("erren", "123m456m789m23m11z7z")
    ctx = ev.make_context(o, HARD, engine_scorer)
    ranked = ev.rank_discards(ctx, list(o.hand), [])
    assert ranked[0][1] == idx("7z")
    assert ranked[0][2].plan.startswith("WAIT")


def test_effective_tiles_break_shanten_ties() -> None:
    # both hands wait after 东东东 南南南 西西西 北北: 23m waits on 1m and 4m
    # (8 tiles), 12m only on 3m (4 tiles); the two-sided wait is worth more
    two = obs("erren", "111z222z333z44z23m")
    edge = obs("erren", "111z222z333z44z12m")
    vt = ev.value(ev.make_context(two, HARD, engine_scorer), list(two.hand), [])
    ve = ev.value(ev.make_context(edge, HARD, engine_scorer), list(edge.hand), [])
    assert set(vt.waits) == {idx("1m"), idx("4m")}
    assert set(ve.waits) == {idx("3m")}
    assert vt.ukeire == 8
    assert ve.ukeire == 4
    assert vt.utility > ve.utility


def test_danger_uses_only_visible_tiles() -> None:
    o = obs(
        "erren",
        "123m456m789m17z2z",
        opp_discards=(idx("5m"), idx("6z"), idx("2z")),
        opp_ready_index=1,  # 6z and 2z were thrown after its 报听
        opp_melds=(Meld.parse("pung", "777z", "7z"),),
    )
    d = danger(o)
    assert d[idx("6z")] == 0.0
    assert d[idx("2z")] == 0.0
    assert d[idx("7z")] == 0.0  # all four 中 visible
    assert d[idx("4m")] > d[idx("5m")]  # 5m was discarded (before 报听)
    assert all(0.0 <= x <= 1.0 for x in d)


def test_opponent_tenpai_estimate_rises_with_melds_and_ready() -> None:
    early = obs("erren", "123m456m789m11z22z")
    melded = obs(
        "erren",
        "123m456m789m11z22z",
        opp_melds=(Meld.parse("pung", "333z", "3z"), Meld.parse("pung", "555z", "5z")),
        opp_discards=tuple(range(8)),
    )
    ready = obs("erren", "123m456m789m11z22z", opp_ready_index=0)
    assert opponent_tenpai(early) < opponent_tenpai(melded) < 1.0
    assert opponent_tenpai(ready) == 1.0


@pytest.mark.parametrize("ruleset", ["erren", "mcr"])
def test_value_prefers_closer_hands(ruleset: str) -> None:
    style = HARD
    near = obs(ruleset, "123m456m789m23m1z")  # one tile from waiting
    far = obs(ruleset, "147m258m369m1234z")  # far from anything
    vn = ev.value(ev.make_context(near, style, engine_scorer), list(near.hand), [])
    vf = ev.value(ev.make_context(far, style, engine_scorer), list(far.hand), [])
    assert vn.free_deficiency < vf.free_deficiency
    assert vn.utility > vf.utility


# -- tie order (issue 15) ------------------------------------------------------


def test_keep_value_counts_copies_and_neighbours() -> None:
    c = counts("113s5s9s1z22z")
    assert ev.keep_value(c, idx("1z"), None) == 0  # a lone honour
    assert ev.keep_value(c, idx("2z"), None) == 3  # a pair of honours
    assert ev.keep_value(c, idx("9s"), None) == 0  # nothing within two ranks
    # 3s: 1s twice two ranks away (1 each), 5s two ranks away (1)
    assert ev.keep_value(c, idx("3s"), None) == 3
    # 1s: the other copy (3), 3s two ranks away (1)
    assert ev.keep_value(c, idx("1s"), None) == 4
    # the 财神 kind is kept, and a wild neighbour does not count
    assert ev.keep_value(c, idx("2z"), idx("2z")) == 99
    assert ev.keep_value(c, idx("5s"), idx("3s")) == 0


def test_normal_throws_the_least_connected_of_tied_discards() -> None:
    import dataclasses

    from games.engine.bots.normal import NormalBot

    # 123m 456m 789p 11s + 3s 8s 1z: throwing 1s, 3s, 8s or 1z leaves the
    # hand two tiles from waiting, so the cheap pass values them the same
    o = obs("mcr", "123456m789p113s8s1z", wall_count=40)
    ctx = ev.make_context(o, NormalBot.style, engine_scorer)
    ranked = ev.rank_discards(ctx, list(o.hand), [])
    assert [k for _, k, _ in ranked[:4]] == [idx(x) for x in ("8s", "1z", "3s", "1s")]
    # 8s touches nothing (keep value 0, like 1z but a lower kind) and is the
    # one whose effective tiles are counted: 20 live, against 17 typical
    assert ranked[0][2].free_deficiency == 2
    assert ranked[0][2].ukeire == 20
    assert {e.ukeire for _, _, e in ranked[1:4]} == {17}
    assert ranked[0][0] > ranked[1][0] == ranked[3][0]
    # counting the three lowest tied kinds instead (before issue 15) keeps
    # the 3s, which ties with the 8s at 20 and comes first
    old = dataclasses.replace(NormalBot.style, order_ties=False, deep=3)
    before = ev.rank_discards(ev.make_context(o, old, engine_scorer), list(o.hand), [])
    assert [k for _, k, _ in before[:3]] == [idx("3s"), idx("8s"), idx("1s")]
    assert [e.ukeire for _, _, e in before[:3]] == [20, 20, 10]
