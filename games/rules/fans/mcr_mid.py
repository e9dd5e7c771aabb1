"""MCR fans worth 32, 24, 16 and 12 番 (seed 003 番种表)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..decompose import GroupKind
from ..shanten import Shape
from .mcr_common import (
    _M_123,
    _M_456,
    _M_789,
    _M_1234,
    _M_6789,
    _M_EVEN,
    _M_TERMINAL_OR_HONOR,
    _REG,
    _chows,
    _fan,
    _five_groups,
    _only,
    _pungs,
)

_CHOW_KIND = GroupKind.CHOW  # Enum attributes are slow

if TYPE_CHECKING:
    from ..scoring import ScoringContext

# 32 番


@_fan(
    "FOUR_PURE_SHIFTED_CHOWS",
    "一色四步高",
    "Four Pure Shifted Chows",
    32,
    ("PURE_SHIFTED_CHOWS",),
    needs=("regular", "chows2"),
    via=_chows,
)
def four_pure_shifted_chows(ctx: ScoringContext) -> int:
    """Four chows of one suit stepping up by one or by two."""
    return _chows(ctx).get("FOUR_PURE_SHIFTED_CHOWS", 0)


@_fan(
    "THREE_KONGS",
    "三杠",
    "Three Kongs",
    32,
    ("TWO_MELDED_KONGS", "TWO_CONCEALED_KONGS", "MELDED_KONG", "CONCEALED_KONG"),
    needs=("kongs",),
)
def three_kongs(ctx: ScoringContext) -> int:
    """Three kongs, melded or concealed."""
    return int(ctx.hand.kongs == 3)


@_fan(
    "ALL_TERMINALS_AND_HONORS",
    "混幺九",
    "All Terminals and Honors",
    32,
    ("ALL_PUNGS", "OUTSIDE_HAND", "PUNG_OF_TERMINALS_OR_HONORS"),
    needs=("only_terminals_or_honors", "honors"),
)
def all_terminals_and_honors(ctx: ScoringContext) -> int:
    """Only terminals and honours, with both present."""
    h = ctx.hand
    return int(
        _only(ctx, _M_TERMINAL_OR_HONOR) and h.suits != 0 and (h.winds or h.dragons)
    )


# ---------------------------------------------------------------------------
# 24 番


@_fan(
    "SEVEN_PAIRS",
    "七对",
    "Seven Pairs",
    24,
    ("FULLY_CONCEALED_HAND", "CONCEALED_HAND", "SINGLE_WAIT"),
    note="不计门前清 as in MCR (the seed lists 不求人、单钓)",
    needs=("seven_pairs",),
    exact=True,
)
def seven_pairs(ctx: ScoringContext) -> int:
    """Seven pairs (four of a kind counts as two)."""
    return int(ctx.shape is Shape.SEVEN_PAIRS)


@_fan(
    "GREATER_HONORS_AND_KNITTED_TILES",
    "七星不靠",
    "Greater Honors and Knitted Tiles",
    24,
    (
        "LESSER_HONORS_AND_KNITTED_TILES",
        "ALL_TYPES",
        "FULLY_CONCEALED_HAND",
        "CONCEALED_HAND",
        "SINGLE_WAIT",
    ),
    needs=("honors_and_knitted",),
)
def greater_honors_and_knitted_tiles(ctx: ScoringContext) -> int:
    """All seven honours and seven knitted suited tiles, no pair."""
    return int(
        ctx.shape is Shape.HONORS_AND_KNITTED
        and all(ctx.hand.counts[i] for i in range(27, 34))
    )


@_fan(
    "ALL_EVEN_PUNGS",
    "全双刻",
    "All Even Pungs",
    24,
    ("ALL_PUNGS", "ALL_SIMPLES", "NO_HONORS"),
    needs=("regular", "triplets4", "only_even"),
)
def all_even_pungs(ctx: ScoringContext) -> int:
    """Pungs and pair of 2 4 6 8 only."""
    if ctx.shape is not _REG or ctx.chows:
        return 0
    return int(_only(ctx, _M_EVEN))


@_fan(
    "FULL_FLUSH",
    "清一色",
    "Full Flush",
    24,
    ("NO_HONORS",),
    needs=("no_honors", "one_suit"),
    exact=True,
)
def full_flush(ctx: ScoringContext) -> int:
    """One suit only, no honours."""
    h = ctx.hand
    return int(h.suits in (1, 2, 4) and not h.winds and not h.dragons)


@_fan(
    "PURE_TRIPLE_CHOW",
    "一色三同顺",
    "Pure Triple Chow",
    24,
    ("PURE_SHIFTED_PUNGS", "PURE_DOUBLE_CHOW"),
    needs=("regular", "chows2"),
    via=_chows,
)
def pure_triple_chow(ctx: ScoringContext) -> int:
    """Three identical chows."""
    return _chows(ctx).get("PURE_TRIPLE_CHOW", 0)


@_fan(
    "PURE_SHIFTED_PUNGS",
    "一色三节高",
    "Pure Shifted Pungs",
    24,
    ("PURE_TRIPLE_CHOW",),
    needs=("regular", "triplets2"),
    via=_pungs,
)
def pure_shifted_pungs(ctx: ScoringContext) -> int:
    """Three pungs of one suit, each one rank above the last."""
    return _pungs(ctx).get("PURE_SHIFTED_PUNGS", 0)


@_fan(
    "UPPER_TILES",
    "全大",
    "Upper Tiles",
    24,
    ("UPPER_FOUR", "NO_HONORS"),
    needs=("only_789",),
    exact=True,
)
def upper_tiles(ctx: ScoringContext) -> int:
    """Only suited 7 8 9."""
    return int(_only(ctx, _M_789))


@_fan(
    "MIDDLE_TILES",
    "全中",
    "Middle Tiles",
    24,
    ("ALL_SIMPLES", "NO_HONORS"),
    needs=("only_456",),
    exact=True,
)
def middle_tiles(ctx: ScoringContext) -> int:
    """Only suited 4 5 6."""
    return int(_only(ctx, _M_456))


@_fan(
    "LOWER_TILES",
    "全小",
    "Lower Tiles",
    24,
    ("LOWER_FOUR", "NO_HONORS"),
    needs=("only_123",),
    exact=True,
)
def lower_tiles(ctx: ScoringContext) -> int:
    """Only suited 1 2 3."""
    return int(_only(ctx, _M_123))


# ---------------------------------------------------------------------------
# 16 番


@_fan(
    "PURE_STRAIGHT",
    "清龙",
    "Pure Straight",
    16,
    ("SHORT_STRAIGHT", "TWO_TERMINAL_CHOWS"),
    needs=("regular", "chows2"),
    via=_chows,
)
def pure_straight(ctx: ScoringContext) -> int:
    """123 456 789 of one suit."""
    return _chows(ctx).get("PURE_STRAIGHT", 0)


@_fan(
    "THREE_SUITED_TERMINAL_CHOWS",
    "三色双龙会",
    "Three-Suited Terminal Chows",
    16,
    ("ALL_CHOWS", "MIXED_DOUBLE_CHOW", "TWO_TERMINAL_CHOWS", "NO_HONORS"),
    note="不计 list from seed 002 (seed 003's is empty)",
    needs=("regular", "chows2"),
    via=_chows,
)
def three_suited_terminal_chows(ctx: ScoringContext) -> int:
    """123 and 789 in two suits with a pair of 5 of the third."""
    return _chows(ctx).get("THREE_SUITED_TERMINAL_CHOWS", 0)


@_fan(
    "PURE_SHIFTED_CHOWS",
    "一色三步高",
    "Pure Shifted Chows",
    16,
    needs=("regular", "chows2"),
    via=_chows,
)
def pure_shifted_chows(ctx: ScoringContext) -> int:
    """Three chows of one suit stepping up by one or by two."""
    return _chows(ctx).get("PURE_SHIFTED_CHOWS", 0)


@_fan(
    "ALL_FIVES",
    "全带五",
    "All Fives",
    16,
    ("ALL_SIMPLES", "NO_HONORS"),
    needs=("regular", "pair_five", "no_honors"),
)
def all_fives(ctx: ScoringContext) -> int:
    """Every set and the pair contain a suited 5."""
    if ctx.shape is not _REG:
        return 0
    for k, i in _five_groups(ctx):
        if i >= 27:
            return 0
        r = i % 9
        if k is _CHOW_KIND:
            if r not in (2, 3, 4):
                return 0
        elif r != 4:
            return 0
    return 1


@_fan(
    "TRIPLE_PUNG",
    "三同刻",
    "Triple Pung",
    16,
    ("DOUBLE_PUNG",),
    needs=("regular", "triplets2"),
    via=_pungs,
)
def triple_pung(ctx: ScoringContext) -> int:
    """Three pungs of the same rank in the three suits."""
    return _pungs(ctx).get("TRIPLE_PUNG", 0)


@_fan(
    "THREE_CONCEALED_PUNGS",
    "三暗刻",
    "Three Concealed Pungs",
    16,
    ("TWO_CONCEALED_PUNGS",),
    needs=("regular", "concealed_pungs3"),
    exact=True,
)
def three_concealed_pungs(ctx: ScoringContext) -> int:
    """Three concealed pungs (concealed kongs count)."""
    return int(ctx.shape is _REG and ctx.concealed_pungs == 3)


# ---------------------------------------------------------------------------
# 12 番


@_fan(
    "LESSER_HONORS_AND_KNITTED_TILES",
    "全不靠",
    "Lesser Honors and Knitted Tiles",
    12,
    ("ALL_TYPES", "FULLY_CONCEALED_HAND", "CONCEALED_HAND", "SINGLE_WAIT"),
    needs=("honors_and_knitted",),
    exact=True,
)
def lesser_honors_and_knitted_tiles(ctx: ScoringContext) -> int:
    """Fourteen singles from one knitted straight and the honours."""
    return int(ctx.shape is Shape.HONORS_AND_KNITTED)


@_fan("KNITTED_STRAIGHT", "组合龙", "Knitted Straight", 12, needs=("knitted",))
def knitted_straight(ctx: ScoringContext) -> int:
    """147 258 369 in three different suits (with a set and a pair, or in 全不靠)."""
    if ctx.shape is Shape.KNITTED_STRAIGHT:
        return 1
    if ctx.shape is Shape.HONORS_AND_KNITTED:
        return int(sum(1 for i in ctx.hand.kinds if i < 27) == 9)
    return 0


@_fan(
    "UPPER_FOUR",
    "大于五",
    "Upper Four",
    12,
    ("NO_HONORS",),
    needs=("only_6789",),
    exact=True,
)
def upper_four(ctx: ScoringContext) -> int:
    """Only suited 6 7 8 9."""
    return int(_only(ctx, _M_6789))


@_fan(
    "LOWER_FOUR",
    "小于五",
    "Lower Four",
    12,
    ("NO_HONORS",),
    needs=("only_1234",),
    exact=True,
)
def lower_four(ctx: ScoringContext) -> int:
    """Only suited 1 2 3 4."""
    return int(_only(ctx, _M_1234))


@_fan(
    "BIG_THREE_WINDS",
    "三风刻",
    "Big Three Winds",
    12,
    note="不计 its three 幺九刻 (MCR; see 幺九刻)",
    needs=("regular", "triplets2"),
    via=_pungs,
)
def big_three_winds(ctx: ScoringContext) -> int:
    """Three wind pungs."""
    return _pungs(ctx).get("BIG_THREE_WINDS", 0)


# ---------------------------------------------------------------------------
