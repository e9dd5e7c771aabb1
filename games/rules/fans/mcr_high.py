"""MCR fans worth 88, 64 and 48 番 (seed 003 番种表)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shanten import Shape
from .mcr_common import (
    _M_GREEN,
    _M_TERMINAL,
    _REG,
    _chows,
    _fan,
    _only,
    _pungs,
)

if TYPE_CHECKING:
    from ..scoring import ScoringContext

# 88 番


@_fan(
    "BIG_FOUR_WINDS",
    "大四喜",
    "Big Four Winds",
    88,
    (
        "BIG_THREE_WINDS",
        "LITTLE_FOUR_WINDS",
        "ALL_PUNGS",
        "PREVALENT_WIND",
        "SEAT_WIND",
        "PUNG_OF_TERMINALS_OR_HONORS",
    ),
    needs=("regular", "triplets2"),
    via=_pungs,
)
def big_four_winds(ctx: ScoringContext) -> int:
    """Four wind pungs (or kongs) and a pair."""
    return _pungs(ctx).get("BIG_FOUR_WINDS", 0)


@_fan(
    "BIG_THREE_DRAGONS",
    "大三元",
    "Big Three Dragons",
    88,
    ("DRAGON_PUNG", "TWO_DRAGON_PUNGS"),
    needs=("regular", "triplets2"),
    via=_pungs,
)
def big_three_dragons(ctx: ScoringContext) -> int:
    """Pungs (or kongs) of 中, 发 and 白."""
    return _pungs(ctx).get("BIG_THREE_DRAGONS", 0)


@_fan(
    "ALL_GREEN",
    "绿一色",
    "All Green",
    88,
    ("HALF_FLUSH", "ONE_VOIDED_SUIT"),
    note="不计缺一门 as in MCR; without 发 清一色 still counts (seed)",
    needs=("only_green",),
    exact=True,
)
def all_green(ctx: ScoringContext) -> int:
    """Only 2 3 4 6 8 条 and 发."""
    return int(_only(ctx, _M_GREEN))


@_fan(
    "NINE_GATES",
    "九莲宝灯",
    "Nine Gates",
    88,
    ("FULL_FLUSH", "FULLY_CONCEALED_HAND", "CONCEALED_HAND", "NO_HONORS"),
    note="不计幺九刻 removes the pattern's own pung of 1s or 9s (see 幺九刻)",
    needs=("regular", "no_melds", "one_suit", "no_honors"),
)
def nine_gates(ctx: ScoringContext) -> int:
    """Concealed 1112345678999 of one suit, won on any tile of that suit."""
    h = ctx.hand
    if ctx.shape is not _REG or h.melds or h.win >= 27:
        return 0
    base = (h.win // 9) * 9
    if sum(h.standing) != 13:
        return 0
    pattern = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return int(tuple(h.standing[base : base + 9]) == pattern)


@_fan(
    "FOUR_KONGS",
    "四杠",
    "Four Kongs",
    88,
    (
        "THREE_KONGS",
        "TWO_CONCEALED_KONGS",
        "TWO_MELDED_KONGS",
        "MELDED_KONG",
        "CONCEALED_KONG",
        "SINGLE_WAIT",
        "ALL_PUNGS",
    ),
    note="不计碰碰和 as in MCR",
    needs=("kongs",),
)
def four_kongs(ctx: ScoringContext) -> int:
    """Four kongs, melded or concealed."""
    return int(ctx.hand.kongs == 4)


@_fan(
    "SEVEN_SHIFTED_PAIRS",
    "连七对",
    "Seven Shifted Pairs",
    88,
    (
        "SEVEN_PAIRS",
        "FULL_FLUSH",
        "NO_HONORS",
        "FULLY_CONCEALED_HAND",
        "CONCEALED_HAND",
        "SINGLE_WAIT",
    ),
    needs=("seven_pairs", "one_suit", "no_honors"),
)
def seven_shifted_pairs(ctx: ScoringContext) -> int:
    """Seven pairs of consecutive ranks in one suit."""
    k = ctx.hand.kinds
    if ctx.shape is not Shape.SEVEN_PAIRS or len(k) != 7 or k[6] >= 27:
        return 0
    return int(k[6] - k[0] == 6 and k[0] // 9 == k[6] // 9)


@_fan(
    "THIRTEEN_ORPHANS",
    "十三幺",
    "Thirteen Orphans",
    88,
    (
        "ALL_TYPES",
        "FULLY_CONCEALED_HAND",
        "CONCEALED_HAND",
        "SINGLE_WAIT",
        "ALL_TERMINALS_AND_HONORS",
    ),
    note="不计混幺九 as in MCR",
    needs=("thirteen_orphans",),
    exact=True,
)
def thirteen_orphans(ctx: ScoringContext) -> int:
    """One of each terminal and honour, and a pair of one of them."""
    return int(ctx.shape is Shape.THIRTEEN_ORPHANS)


# ---------------------------------------------------------------------------
# 64 番


@_fan(
    "ALL_TERMINALS",
    "清幺九",
    "All Terminals",
    64,
    (
        "ALL_PUNGS",
        "DOUBLE_PUNG",
        "NO_HONORS",
        "OUTSIDE_HAND",
        "PUNG_OF_TERMINALS_OR_HONORS",
        "ALL_TERMINALS_AND_HONORS",
    ),
    needs=("only_terminals",),
    exact=True,
)
def all_terminals(ctx: ScoringContext) -> int:
    """Only suited 1s and 9s."""
    return int(_only(ctx, _M_TERMINAL))


@_fan(
    "LITTLE_FOUR_WINDS",
    "小四喜",
    "Little Four Winds",
    64,
    ("BIG_THREE_WINDS", "PUNG_OF_TERMINALS_OR_HONORS"),
    needs=("regular", "triplets2", "pair_wind"),
)
def little_four_winds(ctx: ScoringContext) -> int:
    """Three wind pungs and a pair of the fourth wind."""
    p = ctx.pair
    return int(
        p is not None and p.is_wind and _pungs(ctx).get("BIG_THREE_WINDS", 0) > 0
    )


@_fan(
    "LITTLE_THREE_DRAGONS",
    "小三元",
    "Little Three Dragons",
    64,
    ("TWO_DRAGON_PUNGS", "DRAGON_PUNG"),
    needs=("regular", "triplets2", "pair_dragon"),
)
def little_three_dragons(ctx: ScoringContext) -> int:
    """Two dragon pungs and a pair of the third dragon."""
    p = ctx.pair
    return int(
        p is not None and p.is_dragon and _pungs(ctx).get("TWO_DRAGON_PUNGS", 0) > 0
    )


@_fan(
    "ALL_HONORS",
    "字一色",
    "All Honors",
    64,
    (
        "ALL_PUNGS",
        "ALL_TERMINALS_AND_HONORS",
        "OUTSIDE_HAND",
        "PUNG_OF_TERMINALS_OR_HONORS",
        "ONE_VOIDED_SUIT",
    ),
    needs=("only_honors",),
    exact=True,
)
def all_honors(ctx: ScoringContext) -> int:
    """Only winds and dragons."""
    return int(ctx.hand.suits == 0)


@_fan(
    "FOUR_CONCEALED_PUNGS",
    "四暗刻",
    "Four Concealed Pungs",
    64,
    (
        "ALL_PUNGS",
        "THREE_CONCEALED_PUNGS",
        "TWO_CONCEALED_PUNGS",
        "CONCEALED_HAND",
        "FULLY_CONCEALED_HAND",
    ),
    needs=("regular", "concealed_pungs4"),
    exact=True,
)
def four_concealed_pungs(ctx: ScoringContext) -> int:
    """Four concealed pungs (concealed kongs count)."""
    return int(ctx.shape is _REG and ctx.concealed_pungs == 4)


@_fan(
    "PURE_TERMINAL_CHOWS",
    "一色双龙会",
    "Pure Terminal Chows",
    64,
    (
        "ALL_CHOWS",
        "SEVEN_PAIRS",
        "FULL_FLUSH",
        "PURE_DOUBLE_CHOW",
        "TWO_TERMINAL_CHOWS",
        "NO_HONORS",
    ),
    needs=("regular", "chows2"),
    via=_chows,
)
def pure_terminal_chows(ctx: ScoringContext) -> int:
    """123 123 789 789 of one suit with a pair of its 5."""
    return _chows(ctx).get("PURE_TERMINAL_CHOWS", 0)


# ---------------------------------------------------------------------------
# 48 番


@_fan(
    "QUADRUPLE_CHOW",
    "一色四同顺",
    "Quadruple Chow",
    48,
    (
        "PURE_SHIFTED_PUNGS",
        "PURE_DOUBLE_CHOW",
        "TILE_HOG",
        "PURE_TRIPLE_CHOW",
        "SEVEN_PAIRS",
    ),
    needs=("regular", "chows2"),
    via=_chows,
)
def quadruple_chow(ctx: ScoringContext) -> int:
    """Four identical chows."""
    return _chows(ctx).get("QUADRUPLE_CHOW", 0)


@_fan(
    "FOUR_PURE_SHIFTED_PUNGS",
    "一色四节高",
    "Four Pure Shifted Pungs",
    48,
    ("PURE_TRIPLE_CHOW", "PURE_SHIFTED_PUNGS", "ALL_PUNGS"),
    needs=("regular", "triplets2"),
    via=_pungs,
)
def four_pure_shifted_pungs(ctx: ScoringContext) -> int:
    """Four pungs of one suit, each one rank above the last."""
    return _pungs(ctx).get("FOUR_PURE_SHIFTED_PUNGS", 0)
