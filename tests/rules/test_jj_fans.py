"""Fans of ``jj`` (seed 001, JJ 二人麻将), from the seed's own text.

The one-suit hands of ``test_erren_fans`` are replayed in 条 with seed 001's
differences applied by :func:`to_jj` (written from the seed, not from the
engine's output), and JJ's own fans get their own hands: 八仙过海, 季花, 二五八将,
幺九头, 加番牌, 绿一色 (不记番：无), 推不倒, 自摸 8.
"""

from __future__ import annotations

import copy

import pytest
import test_erren_fans as erren
from twoplayer_cases import C, Case, check, run, uncovered

from games.rules import rulesets

RS = rulesets.get("jj")

# Seed 001, value by value; the 2番 tail and the 1番 list are MCR's (RULES.md).
VALUES = {
    "ALL_FLOWERS": 88, "HEAVENLY_HAND": 48, "EARTHLY_HAND": 32, "HUMAN_HAND": 24,
    "HEAVENLY_READY": 16, "TWO_FIVE_EIGHT_PAIR": 1, "SEAT_FLOWER": 1,
    "TERMINAL_PAIR": 1, "FOUR_PLANTS": 1, "FOUR_SEASONS": 1, "BONUS_TILE": 10,
    "BIG_FOUR_WINDS": 88, "BIG_THREE_DRAGONS": 88, "ALL_GREEN": 88, "NINE_GATES": 88,
    "FOUR_KONGS": 88, "SEVEN_SHIFTED_PAIRS": 88, "LITTLE_FOUR_WINDS": 64,
    "LITTLE_THREE_DRAGONS": 64, "ALL_HONORS": 64, "FOUR_CONCEALED_PUNGS": 64,
    "PURE_TERMINAL_CHOWS": 64, "QUADRUPLE_CHOW": 48, "FOUR_PURE_SHIFTED_PUNGS": 48,
    "FOUR_PURE_SHIFTED_CHOWS": 32, "THREE_KONGS": 32, "ALL_TERMINALS_AND_HONORS": 32,
    "SEVEN_PAIRS": 24, "FULL_FLUSH": 24, "PURE_TRIPLE_CHOW": 24,
    "PURE_SHIFTED_PUNGS": 24, "PURE_STRAIGHT": 16, "PURE_SHIFTED_CHOWS": 16,
    "THREE_CONCEALED_PUNGS": 16, "UPPER_FOUR": 12, "LOWER_FOUR": 12,
    "BIG_THREE_WINDS": 12, "REVERSIBLE_TILES": 8, "LAST_TILE_DRAW": 8,
    "LAST_TILE_CLAIM": 8, "OUT_WITH_REPLACEMENT_TILE": 8, "ROBBING_THE_KONG": 8,
    "SELF_DRAWN": 8, "ALL_PUNGS": 6, "HALF_FLUSH": 6, "MELDED_HAND": 6,
    "TWO_CONCEALED_KONGS": 6, "TWO_DRAGON_PUNGS": 6, "OUTSIDE_HAND": 4,
    "FULLY_CONCEALED_HAND": 4, "TWO_MELDED_KONGS": 4, "LAST_TILE": 4,
    "READY_HAND": 4, "DRAGON_PUNG": 2, "PREVALENT_WIND": 2, "SEAT_WIND": 2,
    "CONCEALED_HAND": 2, "ALL_CHOWS": 2, "TILE_HOG": 2, "TWO_CONCEALED_PUNGS": 2,
    "CONCEALED_KONG": 2, "ALL_SIMPLES": 2, "PURE_DOUBLE_CHOW": 1,
    "SHORT_STRAIGHT": 1, "TWO_TERMINAL_CHOWS": 1, "PUNG_OF_TERMINALS_OR_HONORS": 1,
    "MELDED_KONG": 1, "NO_HONORS": 1, "EDGE_WAIT": 1, "CLOSED_WAIT": 1,
    "SINGLE_WAIT": 1,
}  # fmt: skip

NEVER_COUNTED = {"NO_HONORS": "every honour-free hand is 清一色, which 不计 无字"}

# The erren hands' pairs (read off the hands by hand): 2/5/8 and 1/9 pairs.
PAIR_258 = {
    "big four winds", "nine gates", "nine gates shape with a chi: not nine gates",
    "four kongs", "pure terminal chows (双龙会)", "three kongs",
    "all chows, all simples",
}  # fmt: skip
PAIR_19 = {
    "big three dragons", "four concealed pungs in one suit",
    "four pure shifted pungs", "pure triple chow", "big three winds (大三风)",
    "two concealed kongs", "two melded kongs", "concealed kong and melded kong",
}  # fmt: skip
NOT_IN_JJ = {"NO_FLOWERS", "FLOWER_TILES", "LITTLE_THREE_WINDS", "READY_FIRST_DISCARD"}


def to_jj(case: Case) -> Case:
    """Replay an erren hand in 条 with seed 001's table.

    * 万 → 条; 无花牌, 花牌, 小三风, 报听一发 are not JJ fans.
    * 大七星 → 字一色 + 七对; 四喜七对 / 三元七对 → 七对 (not JJ fans).
    * 自摸 is 8 and nothing drops it (妙手回春, 杠上开花 and 不求人 name no such
      不记 in seed 001).
    * 二五八将 / 幺九头 for a suited 2/5/8 or 1/9 pair.
    * Flowers: all eight → 八仙过海 (不记 季花, 春夏秋冬, 梅兰竹菊); otherwise the
      sets as before, and 季花 for 春/梅 at seat 东.
    """
    h = copy.deepcopy(case.hand)
    h["concealed"] = h["concealed"].replace("m", "s")
    h["win_tile"] = h["win_tile"].replace("m", "s")
    for m in h.get("melds", []):
        m["tiles"] = m["tiles"].replace("m", "s")
        if "claimed" in m:
            m["claimed"] = m["claimed"].replace("m", "s")
    exp = {k: v for k, v in case.expect.items() if k not in NOT_IN_JJ}
    if exp.pop("BIG_SEVEN_STARS", 0):
        exp["ALL_HONORS"] = exp["SEVEN_PAIRS"] = 1
    for f in ("FOUR_WINDS_SEVEN_PAIRS", "THREE_DRAGONS_SEVEN_PAIRS"):
        if exp.pop(f, 0):
            exp["SEVEN_PAIRS"] = 1
    if h.get("self_drawn"):
        exp["SELF_DRAWN"] = 1
    if case.name in PAIR_258:
        exp["TWO_FIVE_EIGHT_PAIR"] = 1
    if case.name in PAIR_19:
        exp["TERMINAL_PAIR"] = 1
    flowers = h.get("flowers", "")
    if flowers == "12345678f":
        exp.pop("FOUR_PLANTS", None)
        exp.pop("FOUR_SEASONS", None)
        exp["ALL_FLOWERS"] = 1
    elif flowers:
        own = sum(1 for d in "15" if d in flowers)  # seat 东: 春 1f, 梅 5f
        if own:
            exp["SEAT_FLOWER"] = own
    near = tuple(f for f in case.near if f in VALUES and f not in exp)
    return Case(case.name + " (条)", h, exp, near, case.win, case.note)


REPLAYED = [to_jj(c) for c in erren.CASES]

OWN: list[Case] = [
    C("all green with 发: 混一色 still counts (不记番：无)", "234s234s666s888s6z", "6z",
      {"ALL_GREEN": 1, "HALF_FLUSH": 1, "PURE_DOUBLE_CHOW": 1,
       "TWO_CONCEALED_PUNGS": 1, "CONCEALED_HAND": 1, "SINGLE_WAIT": 1},
      near=("FULL_FLUSH", "DRAGON_PUNG")),
    C("all green without 发: 清一色 counts", "234s234s666s888s2s", "2s",
      {"ALL_GREEN": 1, "FULL_FLUSH": 1, "ALL_SIMPLES": 1, "PURE_DOUBLE_CHOW": 1,
       "TWO_CONCEALED_PUNGS": 1, "CONCEALED_HAND": 1, "TWO_FIVE_EIGHT_PAIR": 1,
       "TILE_HOG": 1},
      near=("HALF_FLUSH", "SINGLE_WAIT", "NO_HONORS")),
    C("9s breaks all green", "234s234s666s999s6z", "6z",
      {"HALF_FLUSH": 1, "PURE_DOUBLE_CHOW": 1, "TWO_CONCEALED_PUNGS": 1,
       "CONCEALED_HAND": 1, "PUNG_OF_TERMINALS_OR_HONORS": 1, "SINGLE_WAIT": 1},
      near=("ALL_GREEN",)),
    C("reversible tiles (推不倒 245689条、白板)", "456s456s888s22s55z", "5z",
      {"REVERSIBLE_TILES": 1, "HALF_FLUSH": 1, "PURE_DOUBLE_CHOW": 1,
       "DRAGON_PUNG": 1, "CONCEALED_HAND": 1, "TWO_FIVE_EIGHT_PAIR": 1},
      near=("TWO_CONCEALED_PUNGS", "ALL_SIMPLES")),
    C("7s is not reversible", "456s456s777s22s55z", "5z",
      {"HALF_FLUSH": 1, "PURE_DOUBLE_CHOW": 1, "DRAGON_PUNG": 1,
       "CONCEALED_HAND": 1, "TWO_FIVE_EIGHT_PAIR": 1},
      near=("REVERSIBLE_TILES",)),
    C("bonus tile in the hand: +10 once", "123s456s789s111z5z", "5z",
      {"BONUS_TILE": 1, "PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1,
       "SEAT_WIND": 1, "CONCEALED_HAND": 1, "SINGLE_WAIT": 1},
      bonus_tiles="5z", note="two 白 held: still one 加番"),
    C("bonus tile inside a chi counts", "456s789s111z5z", "5z",
      {"BONUS_TILE": 1, "PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1,
       "SEAT_WIND": 1, "SINGLE_WAIT": 1},
      melds=[("chi", "123s", "1s")], bonus_tiles="2s"),
    C("bonus tile not held", "123s456s789s111z5z", "5z",
      {"PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1, "SEAT_WIND": 1,
       "CONCEALED_HAND": 1, "SINGLE_WAIT": 1},
      bonus_tiles="6z", near=("BONUS_TILE", "SELF_DRAWN")),
    C("seat 西: 秋 and 竹 are its 季花", "123s456s789s111z5z", "5z",
      {"PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1,
       "CONCEALED_HAND": 1, "SINGLE_WAIT": 1, "SEAT_FLOWER": 2},
      seat_wind="3z", flowers="37f",
      near=("SEAT_WIND", "PUNG_OF_TERMINALS_OR_HONORS")),
    C("seat 西 with 冬: no 季花", "123s456s789s111z5z", "5z",
      {"PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1,
       "CONCEALED_HAND": 1, "SINGLE_WAIT": 1},
      seat_wind="3z", flowers="4f", near=("SEAT_FLOWER",)),
    C("seven flowers: no 八仙过海", "123s456s789s111z5z", "5z",
      {"PURE_STRAIGHT": 1, "HALF_FLUSH": 1, "PREVALENT_WIND": 1, "SEAT_WIND": 1,
       "CONCEALED_HAND": 1, "SINGLE_WAIT": 1, "FOUR_SEASONS": 1, "SEAT_FLOWER": 2},
      flowers="1234567f", near=("ALL_FLOWERS", "FOUR_PLANTS")),
    C("seven pairs have no 将: no 幺九头/二五八将", "113355779s2244z", "9s",
      {"SEVEN_PAIRS": 1, "HALF_FLUSH": 1},
      near=("TERMINAL_PAIR", "TWO_FIVE_EIGHT_PAIR")),
    C("below the minimum; 加番 and 季花 do not help", "345s666s7z", "7z",
      {"HALF_FLUSH": 1, "SINGLE_WAIT": 1, "BONUS_TILE": 1, "SEAT_FLOWER": 1},
      melds=[("chi", "234s", "2s"), ("pung", "888s", "8s")], bonus_tiles="3s",
      flowers="1f", win=False),
]  # fmt: skip

CASES = REPLAYED + OWN


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case(case: Case) -> None:
    check(case, RS, VALUES)


def test_values_are_the_seeds() -> None:
    assert {f.id: f.points for f in RS.fans} == VALUES


def test_every_fan_scored_and_missed() -> None:
    assert uncovered(RS, CASES, NEVER_COUNTED) == ([], [])


def test_self_drawn_is_eight_and_kept_by_fully_concealed() -> None:
    case = next(c for c in REPLAYED if c.name.startswith("fully concealed hand"))
    fans = run(case, RS).result.fan_ids()
    assert fans["SELF_DRAWN"] == 1 and fans["FULLY_CONCEALED_HAND"] == 1
    assert RS.fan("SELF_DRAWN").points == 8


def test_bonus_tile_as_a_flower() -> None:
    case = C("flower bonus", "123s456s789s111z5z", "5z", {}, bonus_tiles="3f",
             flowers="3f")  # fmt: skip
    assert run(case, RS).result.fan_ids()["BONUS_TILE"] == 1
