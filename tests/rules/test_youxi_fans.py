"""Fans of ``youxi`` (seed 000, 优嘻网 二人麻将 记分规则), from the seed's own text.

"1番：门前清、自摸、海底捞月、杠上开花、断幺、平和、箭刻、抢杠和妙手回春
2番：混幺九、七对、一气贯通、三色同顺、碰碰和、双箭刻、混一色 3番：三杠子、三同刻、
三暗刻、全带幺 7番：清一色、三风刻 20番（役满）：…" — one hand per fan that scores
it, one near miss that does not.
"""

from __future__ import annotations

import pytest
from twoplayer_cases import C, Case, check, run, uncovered

from games.rules import rulesets

RS = rulesets.get("youxi")

VALUES = {
    **dict.fromkeys(
        ("CONCEALED_HAND", "SELF_DRAWN", "LAST_TILE_CLAIM",
         "OUT_WITH_REPLACEMENT_TILE", "ALL_SIMPLES", "ALL_CHOWS", "DRAGON_PUNG",
         "ROBBING_THE_KONG", "LAST_TILE_DRAW"), 1),
    **dict.fromkeys(
        ("ALL_TERMINALS_AND_HONORS", "SEVEN_PAIRS", "PURE_STRAIGHT",
         "MIXED_TRIPLE_CHOW", "ALL_PUNGS", "TWO_DRAGON_PUNGS", "HALF_FLUSH"), 2),
    **dict.fromkeys(
        ("THREE_KONGS", "TRIPLE_PUNG", "THREE_CONCEALED_PUNGS", "OUTSIDE_HAND"), 3),
    **dict.fromkeys(("FULL_FLUSH", "BIG_THREE_WINDS"), 7),
    **dict.fromkeys(
        ("BIG_FOUR_WINDS", "LITTLE_FOUR_WINDS", "BIG_THREE_DRAGONS", "ALL_HONORS",
         "NINE_GATES", "BIG_WHEELS", "ALL_GREEN", "FOUR_KONGS",
         "FOUR_CONCEALED_PUNGS", "THIRTEEN_ORPHANS", "ALL_TERMINALS",
         "LITTLE_THREE_DRAGONS"), 20),
}  # fmt: skip

PINFU = "234m567p345s66s78m"  # 4 chows + 66s, waiting 6m/9m

CASES: list[Case] = [
    # -- 1 番 ---------------------------------------------------------------
    C("concealed all chows all simples", PINFU, "6m",
      {"CONCEALED_HAND": 1, "ALL_CHOWS": 1, "ALL_SIMPLES": 1},
      near=("SELF_DRAWN", "MIXED_TRIPLE_CHOW", "SEVEN_PAIRS")),
    C("concealed self-drawn: 门前清 and 自摸 both", PINFU, "6m",
      {"CONCEALED_HAND": 1, "SELF_DRAWN": 1, "ALL_CHOWS": 1, "ALL_SIMPLES": 1},
      self_drawn=True),
    C("a chi: no 门前清", "567p345s66s78m", "6m",
      {"ALL_CHOWS": 1, "ALL_SIMPLES": 1}, melds=[("chi", "234m", "3m")],
      near=("CONCEALED_HAND",)),
    C("no fan: below the 1-fan minimum", "567p345s66s78m", "6m", {},
      melds=[("pung", "111z", "1z")], win=False,
      near=("ALL_CHOWS", "ALL_SIMPLES", "CONCEALED_HAND")),
    C("妙手回春 drops 自摸", PINFU, "6m",
      {"LAST_TILE_DRAW": 1, "CONCEALED_HAND": 1, "ALL_CHOWS": 1, "ALL_SIMPLES": 1},
      self_drawn=True, wall_last=True, near=("SELF_DRAWN", "LAST_TILE_CLAIM")),
    C("海底捞月", PINFU, "6m",
      {"LAST_TILE_CLAIM": 1, "CONCEALED_HAND": 1, "ALL_CHOWS": 1, "ALL_SIMPLES": 1},
      wall_last=True, near=("LAST_TILE_DRAW",)),
    C("杠上开花 drops 自摸", "234m567p66s78m", "6m",
      {"OUT_WITH_REPLACEMENT_TILE": 1, "ALL_SIMPLES": 1},
      melds=[("kong", "2222p", "2p")], self_drawn=True, kong=True,
      near=("SELF_DRAWN", "ROBBING_THE_KONG", "CONCEALED_HAND", "ALL_CHOWS")),
    C("抢杠和", PINFU, "6m",
      {"ROBBING_THE_KONG": 1, "CONCEALED_HAND": 1, "ALL_CHOWS": 1,
       "ALL_SIMPLES": 1},
      kong=True, near=("OUT_WITH_REPLACEMENT_TILE",)),
    C("箭刻", "234m567p345s6s", "6s", {"DRAGON_PUNG": 1},
      melds=[("pung", "555z", "5z")],
      near=("TWO_DRAGON_PUNGS", "ALL_SIMPLES", "MIXED_TRIPLE_CHOW")),
    # -- 2 番 ---------------------------------------------------------------
    C("双箭刻 drops 箭刻", "234m567p9s", "9s", {"TWO_DRAGON_PUNGS": 1},
      melds=[("pung", "555z", "5z"), ("pung", "666z", "6z")],
      near=("DRAGON_PUNG", "LITTLE_THREE_DRAGONS", "BIG_THREE_DRAGONS")),
    C("混幺九 drops 碰碰和", "999p111z222z9s", "9s",
      {"ALL_TERMINALS_AND_HONORS": 1, "THREE_CONCEALED_PUNGS": 1},
      melds=[("pung", "111m", "1m")],
      near=("ALL_PUNGS", "OUTSIDE_HAND", "ALL_HONORS", "ALL_TERMINALS",
            "THIRTEEN_ORPHANS")),
    C("七对", "1133m5577p9s1122z", "9s", {"SEVEN_PAIRS": 1},
      near=("CONCEALED_HAND",)),
    C("一气贯通 and 混一色", "456p789p111z5z", "5z",
      {"PURE_STRAIGHT": 1, "HALF_FLUSH": 1}, melds=[("chi", "123p", "1p")],
      near=("FULL_FLUSH", "ALL_SIMPLES", "OUTSIDE_HAND")),
    C("三色同顺", "345m345p345s78s22z", "6s",
      {"MIXED_TRIPLE_CHOW": 1, "CONCEALED_HAND": 1},
      near=("ALL_CHOWS", "PURE_STRAIGHT")),
    C("碰碰和", "555s333z7z", "7z", {"ALL_PUNGS": 1},
      melds=[("pung", "222m", "2m"), ("pung", "888p", "8p")],
      near=("TRIPLE_PUNG", "THREE_CONCEALED_PUNGS", "BIG_THREE_WINDS")),
    # -- 3 番 ---------------------------------------------------------------
    C("清一色 and 三暗刻", "111m555m999m23m44m", "1m",
      {"FULL_FLUSH": 1, "THREE_CONCEALED_PUNGS": 1, "CONCEALED_HAND": 1},
      near=("HALF_FLUSH", "FOUR_CONCEALED_PUNGS", "NINE_GATES")),
    C("三同刻", "222p222s456m9p", "9p", {"TRIPLE_PUNG": 1},
      melds=[("pung", "222m", "2m")], near=("ALL_SIMPLES",)),
    C("三杠子", "456m7z", "7z", {"THREE_KONGS": 1},
      melds=[("kong", "1111m", "1m"), ("kong", "2222p", "2p"),
             ("concealed_kong", "3333s")],
      near=("FOUR_KONGS",)),
    C("全带幺 needs a chow here", "789p111s999s1z", "1z", {"OUTSIDE_HAND": 1},
      melds=[("chi", "123m", "1m")], near=("ALL_TERMINALS_AND_HONORS",)),
    # -- 7 番 ---------------------------------------------------------------
    C("三风刻 and 混一色", "333z456m9m", "9m",
      {"BIG_THREE_WINDS": 1, "HALF_FLUSH": 1},
      melds=[("pung", "111z", "1z"), ("pung", "222z", "2z")],
      near=("LITTLE_FOUR_WINDS",)),
    C("清一色, 一气贯通, 平和", "123m456m789m234m5m", "5m",
      {"FULL_FLUSH": 1, "PURE_STRAIGHT": 1, "CONCEALED_HAND": 1, "ALL_CHOWS": 1},
      near=("NINE_GATES", "HALF_FLUSH")),
    # -- 役满 20 番 ----------------------------------------------------------
    C("大四喜 + 字一色 stack", "222z333z444z5z", "5z",
      {"BIG_FOUR_WINDS": 1, "ALL_HONORS": 1}, melds=[("pung", "111z", "1z")],
      near=("LITTLE_FOUR_WINDS", "BIG_THREE_WINDS", "ALL_PUNGS",
            "THREE_CONCEALED_PUNGS")),
    C("小四喜 replaces everything else", "222z333z4z123m", "4z",
      {"LITTLE_FOUR_WINDS": 1}, melds=[("pung", "111z", "1z")],
      near=("BIG_FOUR_WINDS", "BIG_THREE_WINDS", "HALF_FLUSH", "OUTSIDE_HAND")),
    C("大三元", "666z777z123p9p", "9p", {"BIG_THREE_DRAGONS": 1},
      melds=[("pung", "555z", "5z")],
      near=("LITTLE_THREE_DRAGONS", "TWO_DRAGON_PUNGS", "DRAGON_PUNG")),
    C("小三元", "666z7z123p456p", "7z", {"LITTLE_THREE_DRAGONS": 1},
      melds=[("pung", "555z", "5z")],
      near=("BIG_THREE_DRAGONS", "HALF_FLUSH", "TWO_DRAGON_PUNGS")),
    C("九莲宝灯", "1112345678999p", "9p", {"NINE_GATES": 1},
      near=("FULL_FLUSH", "CONCEALED_HAND")),
    C("大车轮 (一色双龙抱大车轮（筒）)", "2233445566778p", "8p", {"BIG_WHEELS": 1},
      near=("SEVEN_PAIRS", "FULL_FLUSH", "ALL_SIMPLES")),
    C("seven pairs of 筒 with honours: no 大车轮", "2233445566p117z", "7z",
      {"SEVEN_PAIRS": 1, "HALF_FLUSH": 1}, near=("BIG_WHEELS",)),
    C("绿一色（条）", "234s234s666s888s6z", "6z", {"ALL_GREEN": 1},
      near=("HALF_FLUSH", "CONCEALED_HAND")),
    C("9s breaks 绿一色", "234s234s666s999s6z", "6z",
      {"HALF_FLUSH": 1, "CONCEALED_HAND": 1}, near=("ALL_GREEN",)),
    C("四杠子", "5m", "5m", {"FOUR_KONGS": 1},
      melds=[("kong", "1111m", "1m"), ("concealed_kong", "2222z"),
             ("kong", "3333p", "3p"), ("kong", "9999s", "9s")],
      near=("THREE_KONGS", "ALL_PUNGS")),
    C("四暗刻", "111m333p555s777s9m", "9m", {"FOUR_CONCEALED_PUNGS": 1},
      near=("THREE_CONCEALED_PUNGS", "ALL_PUNGS", "CONCEALED_HAND")),
    C("十三幺", "19m19p19s1234567z", "1m", {"THIRTEEN_ORPHANS": 1},
      near=("ALL_TERMINALS_AND_HONORS", "CONCEALED_HAND")),
    C("清老头", "999m111p999p1s", "1s", {"ALL_TERMINALS": 1},
      melds=[("pung", "111m", "1m")],
      near=("ALL_TERMINALS_AND_HONORS", "THREE_CONCEALED_PUNGS", "ALL_PUNGS",
            "FOUR_CONCEALED_PUNGS")),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case(case: Case) -> None:
    check(case, RS, VALUES)


def test_values_are_the_seeds() -> None:
    assert {f.id: f.points for f in RS.fans} == VALUES


def test_every_fan_scored_and_missed() -> None:
    assert uncovered(RS, CASES) == ([], [])


def test_no_fan_hand_is_refused_with_the_minimum() -> None:
    case = next(c for c in CASES if c.name.startswith("no fan"))
    res = run(case, RS).result
    assert not res.win and res.total == 0
    assert res.error == "below the 1-fan minimum (0)"
