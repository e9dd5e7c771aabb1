"""Fans of ``erren64`` (seed 004's MCR list on 64 tiles), from the seeds' text.

The one-suit hands of ``test_erren_fans`` are replayed with seed 004's table
by :func:`to_erren64`: the two-player extras and flower fans of seed 000 are
not in it, so 大七星 is 字一色 + 七对, 四喜七对 / 三元七对 are 七对, 大三风 is
三风刻 12, and 九莲宝灯 drops only the pattern's own 幺九刻 (MCR), not all of them.
"""

from __future__ import annotations

import pytest
import test_erren_fans as erren
from twoplayer_cases import Case, check, uncovered

from games.rules import rulesets

RS = rulesets.get("erren64")

# Seed 004 牌型番数 (MCR values; 双暗杠 under 6番), fans one suit can make.
VALUES = {
    "BIG_FOUR_WINDS": 88, "BIG_THREE_DRAGONS": 88, "NINE_GATES": 88, "FOUR_KONGS": 88,
    "SEVEN_SHIFTED_PAIRS": 88, "LITTLE_FOUR_WINDS": 64, "LITTLE_THREE_DRAGONS": 64,
    "ALL_HONORS": 64, "FOUR_CONCEALED_PUNGS": 64, "PURE_TERMINAL_CHOWS": 64,
    "QUADRUPLE_CHOW": 48, "FOUR_PURE_SHIFTED_PUNGS": 48, "FOUR_PURE_SHIFTED_CHOWS": 32,
    "THREE_KONGS": 32, "ALL_TERMINALS_AND_HONORS": 32, "SEVEN_PAIRS": 24,
    "FULL_FLUSH": 24, "PURE_TRIPLE_CHOW": 24, "PURE_SHIFTED_PUNGS": 24,
    "PURE_STRAIGHT": 16, "PURE_SHIFTED_CHOWS": 16, "THREE_CONCEALED_PUNGS": 16,
    "UPPER_FOUR": 12, "LOWER_FOUR": 12, "BIG_THREE_WINDS": 12, "LAST_TILE_DRAW": 8,
    "LAST_TILE_CLAIM": 8, "OUT_WITH_REPLACEMENT_TILE": 8, "ROBBING_THE_KONG": 8,
    "ALL_PUNGS": 6, "HALF_FLUSH": 6, "MELDED_HAND": 6, "TWO_CONCEALED_KONGS": 6,
    "TWO_DRAGON_PUNGS": 6, "OUTSIDE_HAND": 4, "FULLY_CONCEALED_HAND": 4,
    "TWO_MELDED_KONGS": 4, "LAST_TILE": 4, "DRAGON_PUNG": 2, "PREVALENT_WIND": 2,
    "SEAT_WIND": 2, "CONCEALED_HAND": 2, "ALL_CHOWS": 2, "TILE_HOG": 2,
    "TWO_CONCEALED_PUNGS": 2, "CONCEALED_KONG": 2, "ALL_SIMPLES": 2,
    "PURE_DOUBLE_CHOW": 1, "SHORT_STRAIGHT": 1, "TWO_TERMINAL_CHOWS": 1,
    "PUNG_OF_TERMINALS_OR_HONORS": 1, "MELDED_KONG": 1, "NO_HONORS": 1,
    "EDGE_WAIT": 1, "CLOSED_WAIT": 1, "SINGLE_WAIT": 1, "SELF_DRAWN": 1,
}  # fmt: skip

NEVER_COUNTED = {"NO_HONORS": "every honour-free hand is 清一色, which 不计 无字"}

SEED_000_ONLY = {
    "NO_FLOWERS", "FLOWER_TILES", "FOUR_PLANTS", "FOUR_SEASONS", "HEAVENLY_HAND",
    "EARTHLY_HAND", "HUMAN_HAND", "HEAVENLY_READY", "READY_HAND",
    "READY_FIRST_DISCARD", "LITTLE_THREE_WINDS",
}  # fmt: skip


def to_erren64(case: Case) -> Case:
    """Replay an erren hand under seed 004's MCR table (see the module doc)."""
    exp = {k: v for k, v in case.expect.items() if k not in SEED_000_ONLY}
    if exp.pop("BIG_SEVEN_STARS", 0):
        exp["ALL_HONORS"] = exp["SEVEN_PAIRS"] = 1
    for f in ("FOUR_WINDS_SEVEN_PAIRS", "THREE_DRAGONS_SEVEN_PAIRS"):
        if exp.pop(f, 0):
            exp["SEVEN_PAIRS"] = 1
    if case.name == "nine gates":  # 111 234 55 678 999: one 幺九刻 left (MCR)
        exp["PUNG_OF_TERMINALS_OR_HONORS"] = 1
    near = tuple(f for f in case.near if f in VALUES and f not in exp)
    return Case(case.name, case.hand, exp, near, case.win, case.note)


CASES = [to_erren64(c) for c in erren.CASES if "flowers" not in c.hand]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case(case: Case) -> None:
    check(case, RS, VALUES)


def test_values_are_the_seeds() -> None:
    assert {f.id: f.points for f in RS.fans} == VALUES


def test_every_fan_scored_and_missed() -> None:
    assert uncovered(RS, CASES, NEVER_COUNTED) == ([], [])


def test_no_flowers_in_the_64_tile_wall() -> None:
    assert RS.wall_size == 64 and RS.flowers == ()
    with pytest.raises(ValueError, match="not in rule set"):
        from twoplayer_cases import C, run

        run(C("flower", "123m456m789m111z5z", "5z", {}, flowers="1f"), RS)
