"""The 81 fans of MCR (国标麻将), one unit each.

Source: seed 003 (国际麻将, 2329游戏中心) 番种的分值与计分 — the clearest of
the three MCR seeds, with its 不计 lists; seeds 002 (两人麻将) and 004 (二人麻将
手游版) give the same table.  Each :class:`Fan` below carries its Chinese and
English names, value, condition and 不计 list (``excludes``).  Where the seed
leaves a 不计 out and MCR's standard text (as implemented by the oracle,
ChineseOfficialMahjongHelper) has it, the fan's ``source`` says so.

Conditions read a :class:`~games.rules.scoring.ScoringContext`.  Fans that
combine several sets (一般高, 三同刻 …) read one shared analysis per
decomposition (:mod:`.mcr_combos`), which applies 套算一次 and 不得相同.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..decompose import GroupKind
from ..scoring import requires
from ..shanten import Shape
from .base import Fan
from .mcr_combos import OCODE, chow_fans, pung_fans

if TYPE_CHECKING:
    from ..scoring import ScoringContext

Condition = Callable[["ScoringContext"], int]

_TABLE: list[Fan] = []

S3 = "seed 003 番种的分值与计分"


def _fan(
    fan_id: str,
    zh: str,
    en: str,
    points: int,
    excludes: Iterable[str] = (),
    *,
    note: str = "",
    minimum: bool = True,
    needs: tuple[str, ...] = (),
    listed: int | None = None,
) -> Callable[[Condition], Condition]:
    """Register the decorated condition as a fan of the MCR table.

    ``needs`` are the context features without which the condition is 0
    (:func:`games.rules.scoring.requires`), so the scorer can skip it.
    ``listed`` is the value seed 003 lists when it differs from ``points``.
    """

    def deco(fn: Condition) -> Condition:
        if needs:
            requires(*needs)(fn)
        src = f"{S3} {listed or points}番 {zh}" + (f"; {note}" if note else "")
        _TABLE.append(
            Fan(fan_id, zh, en, points, fn, frozenset(excludes), minimum, src)
        )
        return fn

    return deco


# ---------------------------------------------------------------------------
# Shared analyses (memoised per decomposition).

_REG = Shape.REGULAR
_TERMINAL_OR_HONOR = tuple(i >= 27 or i % 9 in (0, 8) for i in range(34))
_TERMINAL = tuple(i < 27 and i % 9 in (0, 8) for i in range(34))


def _bits(indices: Iterable[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


# Bit sets over tile indices (bit i = tile i), tested against HandFacts.mask.
_M_TERMINAL = _bits(i for i in range(34) if _TERMINAL[i])
_M_TERMINAL_OR_HONOR = _bits(i for i in range(34) if _TERMINAL_OR_HONOR[i])
_M_HONOR = _bits(range(27, 34))
_M_GREEN = _bits((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 条, 发
_M_REVERSIBLE = _bits((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
_M_EVEN = _bits(i for i in range(27) if i % 9 % 2 == 1)  # 2 4 6 8


# suited ranks r1..r2 in all three suits
def _ranks(lo: int, hi: int) -> int:
    return _bits(s + r - 1 for s in (0, 9, 18) for r in range(lo, hi + 1))


_M_789 = _ranks(7, 9)
_M_456 = _ranks(4, 6)
_M_123 = _ranks(1, 3)
_M_6789 = _ranks(6, 9)
_M_1234 = _ranks(1, 4)


def _chows(ctx: ScoringContext) -> dict[str, int]:
    got: dict[str, int] | None = ctx.cache.get("mcr.chows")
    if got is None:
        got = ctx.cache["mcr.chows"] = _chow_analysis(ctx)
    return got


def _chow_analysis(ctx: ScoringContext) -> dict[str, int]:
    if ctx.shape is not _REG or len(ctx.chows) < 2:
        return {}
    if len(ctx.chows) == 4 and ctx.pair is not None and ctx.pair.rank == 5:
        p = ctx.pair.index
        ps = p // 9
        starts = sorted(g.tile.index for g in ctx.chows)
        ranks = [s % 9 for s in starts]
        suits = [s // 9 for s in starts]
        if all(r in (0, 6) for r in ranks):
            if all(s == ps for s in suits) and ranks.count(0) == 2:
                return {"PURE_TERMINAL_CHOWS": 1}
            others = {0, 1, 2} - {ps}
            if ps not in suits and {
                (s, r) for s, r in zip(suits, ranks, strict=True)
            } == {(s, r) for s in others for r in (0, 6)}:
                return {"THREE_SUITED_TERMINAL_CHOWS": 1}
    mids = tuple(sorted(OCODE[g.tile.index] + 1 for g in ctx.chows))
    return dict(chow_fans(mids))


def _pungs(ctx: ScoringContext) -> dict[str, int]:
    got: dict[str, int] | None = ctx.cache.get("mcr.pungs")
    if got is None:
        got = ctx.cache["mcr.pungs"] = _pung_analysis(ctx)
    return got


def _pung_analysis(ctx: ScoringContext) -> dict[str, int]:
    if ctx.shape is not _REG or len(ctx.triplets) < 2:
        return {}
    return dict(pung_fans(tuple(sorted(OCODE[g.tile.index] for g in ctx.triplets))))


def _only(ctx: ScoringContext, allowed: int) -> bool:
    """True when every tile of the hand is in the bit set ``allowed``."""
    return ctx.hand.mask & ~allowed == 0


def _five_groups(ctx: ScoringContext) -> list[tuple[GroupKind, int]]:
    return [(g.kind, g.tile.index) for g in ctx.groups]


def _has_wind_pung(ctx: ScoringContext, wind: int) -> bool:
    return any(g.tile.index == wind for g in ctx.triplets)


# ---------------------------------------------------------------------------
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
    needs=("regular",),
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
    needs=("seven_pairs",),
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
    needs=("no_honors",),
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
    needs=("regular", "triplets2"),
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
    needs=("regular", "triplets2"),
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
    needs=("honors",),
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
    needs=("regular",),
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
)
def four_pure_shifted_pungs(ctx: ScoringContext) -> int:
    """Four pungs of one suit, each one rank above the last."""
    return _pungs(ctx).get("FOUR_PURE_SHIFTED_PUNGS", 0)


# ---------------------------------------------------------------------------
# 32 番


@_fan(
    "FOUR_PURE_SHIFTED_CHOWS",
    "一色四步高",
    "Four Pure Shifted Chows",
    32,
    ("PURE_SHIFTED_CHOWS",),
    needs=("regular", "chows2"),
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
    needs=("regular",),
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
    needs=("no_honors",),
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
    needs=("no_honors",),
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
    needs=("no_honors",),
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
    needs=("regular",),
)
def all_fives(ctx: ScoringContext) -> int:
    """Every set and the pair contain a suited 5."""
    if ctx.shape is not _REG:
        return 0
    for k, i in _five_groups(ctx):
        if i >= 27:
            return 0
        r = i % 9
        if k is GroupKind.CHOW:
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
    needs=("regular",),
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
)
def lesser_honors_and_knitted_tiles(ctx: ScoringContext) -> int:
    """Fourteen singles from one knitted straight and the honours."""
    return int(ctx.shape is Shape.HONORS_AND_KNITTED)


@_fan("KNITTED_STRAIGHT", "组合龙", "Knitted Straight", 12)
def knitted_straight(ctx: ScoringContext) -> int:
    """147 258 369 in three different suits (with a set and a pair, or in 全不靠)."""
    if ctx.shape is Shape.KNITTED_STRAIGHT:
        return 1
    if ctx.shape is Shape.HONORS_AND_KNITTED:
        return int(sum(1 for i in ctx.hand.kinds if i < 27) == 9)
    return 0


@_fan("UPPER_FOUR", "大于五", "Upper Four", 12, ("NO_HONORS",), needs=("no_honors",))
def upper_four(ctx: ScoringContext) -> int:
    """Only suited 6 7 8 9."""
    return int(_only(ctx, _M_6789))


@_fan("LOWER_FOUR", "小于五", "Lower Four", 12, ("NO_HONORS",), needs=("no_honors",))
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
)
def big_three_winds(ctx: ScoringContext) -> int:
    """Three wind pungs."""
    return _pungs(ctx).get("BIG_THREE_WINDS", 0)


# ---------------------------------------------------------------------------
# 8 番


@_fan("MIXED_STRAIGHT", "花龙", "Mixed Straight", 8, needs=("regular", "chows2"))
def mixed_straight(ctx: ScoringContext) -> int:
    """123, 456 and 789 in three different suits."""
    return _chows(ctx).get("MIXED_STRAIGHT", 0)


@_fan("REVERSIBLE_TILES", "推不倒", "Reversible Tiles", 8, ("ONE_VOIDED_SUIT",))
def reversible_tiles(ctx: ScoringContext) -> int:
    """Only 1234589筒, 245689条 and 白."""
    return int(_only(ctx, _M_REVERSIBLE))


@_fan(
    "MIXED_TRIPLE_CHOW",
    "三色三同顺",
    "Mixed Triple Chow",
    8,
    needs=("regular", "chows2"),
)
def mixed_triple_chow(ctx: ScoringContext) -> int:
    """The same chow in three suits."""
    return _chows(ctx).get("MIXED_TRIPLE_CHOW", 0)


@_fan(
    "MIXED_SHIFTED_PUNGS",
    "三色三节高",
    "Mixed Shifted Pungs",
    8,
    needs=("regular", "triplets2"),
)
def mixed_shifted_pungs(ctx: ScoringContext) -> int:
    """Pungs in three suits, ranks stepping up by one."""
    return _pungs(ctx).get("MIXED_SHIFTED_PUNGS", 0)


@_fan("CHICKEN_HAND", "无番和", "Chicken Hand", 8, needs=("fallback",))
def chicken_hand(ctx: ScoringContext) -> int:
    """No other fan (flowers aside): the scorer's fallback pass."""
    return int(ctx.nothing_else)


@_fan(
    "LAST_TILE_DRAW", "妙手回春", "Last Tile Draw", 8, ("SELF_DRAWN",), needs=("flags",)
)
def last_tile_draw(ctx: ScoringContext) -> int:
    """Self-drawn win on the wall's last tile."""
    return int(ctx.hand.last_draw)


@_fan("LAST_TILE_CLAIM", "海底捞月", "Last Tile Claim", 8, needs=("flags",))
def last_tile_claim(ctx: ScoringContext) -> int:
    """Win on the last discard."""
    return int(ctx.hand.last_claim)


@_fan(
    "OUT_WITH_REPLACEMENT_TILE",
    "杠上开花",
    "Out with Replacement Tile",
    8,
    ("SELF_DRAWN",),
    needs=("flags",),
)
def out_with_replacement_tile(ctx: ScoringContext) -> int:
    """Win on a kong's replacement draw (not a flower's)."""
    return int(ctx.hand.replacement)


@_fan(
    "ROBBING_THE_KONG",
    "抢杠和",
    "Robbing the Kong",
    8,
    ("LAST_TILE",),
    needs=("flags",),
)
def robbing_the_kong(ctx: ScoringContext) -> int:
    """Win on the tile another player adds to a melded pung."""
    return int(ctx.hand.robbing)


# ---------------------------------------------------------------------------
# 6 番


@_fan(
    "TWO_CONCEALED_KONGS",
    "双暗杠",
    "Two Concealed Kongs",
    6,
    ("CONCEALED_KONG", "TWO_CONCEALED_PUNGS"),
    listed=8,
    note="6番 as in seeds 002/004 and MCR (seed 003 lists it under 8番);"
    " 不计暗杠、双暗刻 as in MCR",
    needs=("kongs",),
)
def two_concealed_kongs(ctx: ScoringContext) -> int:
    """Two concealed kongs."""
    return int(ctx.hand.concealed_kongs == 2)


@_fan("ALL_PUNGS", "碰碰和", "All Pungs", 6, needs=("regular",))
def all_pungs(ctx: ScoringContext) -> int:
    """Four pungs (or kongs) and a pair."""
    return int(ctx.shape is _REG and len(ctx.triplets) == 4)


@_fan("HALF_FLUSH", "混一色", "Half Flush", 6, needs=("honors",))
def half_flush(ctx: ScoringContext) -> int:
    """One suit and honours."""
    h = ctx.hand
    return int(h.suits in (1, 2, 4) and (h.winds or h.dragons))


@_fan(
    "MIXED_SHIFTED_CHOWS",
    "三色三步高",
    "Mixed Shifted Chows",
    6,
    needs=("regular", "chows2"),
)
def mixed_shifted_chows(ctx: ScoringContext) -> int:
    """Chows in three suits, stepping up by one."""
    return _chows(ctx).get("MIXED_SHIFTED_CHOWS", 0)


@_fan("ALL_TYPES", "五门齐", "All Types", 6, needs=("honors", "three_suits"))
def all_types(ctx: ScoringContext) -> int:
    """All three suits, a wind and a dragon."""
    h = ctx.hand
    return int(h.suits == 7 and h.winds and h.dragons)


@_fan("MELDED_HAND", "全求人", "Melded Hand", 6, ("SINGLE_WAIT",), needs=("discard",))
def melded_hand(ctx: ScoringContext) -> int:
    """Four claimed melds and a single wait won on a discard."""
    return int(ctx.hand.melded == 4 and not ctx.hand.self_drawn)


@_fan(
    "TWO_DRAGON_PUNGS",
    "双箭刻",
    "Two Dragon Pungs",
    6,
    ("DRAGON_PUNG",),
    needs=("regular", "triplets2"),
)
def two_dragon_pungs(ctx: ScoringContext) -> int:
    """Two dragon pungs."""
    return _pungs(ctx).get("TWO_DRAGON_PUNGS", 0)


# ---------------------------------------------------------------------------
# 4 番


@_fan("OUTSIDE_HAND", "全带幺", "Outside Hand", 4, needs=("regular",))
def outside_hand(ctx: ScoringContext) -> int:
    """Every set and the pair contain a terminal or honour."""
    if ctx.shape is not _REG:
        return 0
    for k, i in _five_groups(ctx):
        if i >= 27:
            continue
        r = i % 9
        if k is GroupKind.CHOW:
            if r not in (0, 6):
                return 0
        elif r not in (0, 8):
            return 0
    return 1


@_fan(
    "FULLY_CONCEALED_HAND",
    "不求人",
    "Fully Concealed Hand",
    4,
    ("SELF_DRAWN", "CONCEALED_HAND"),
    needs=("self_drawn",),
)
def fully_concealed_hand(ctx: ScoringContext) -> int:
    """No claimed meld, self-drawn."""
    return int(ctx.hand.melded == 0 and ctx.hand.self_drawn)


@_fan(
    "TWO_MELDED_KONGS",
    "双明杠",
    "Two Melded Kongs",
    4,
    ("MELDED_KONG",),
    needs=("kongs",),
)
def two_melded_kongs(ctx: ScoringContext) -> int:
    """Two melded kongs."""
    return int(ctx.hand.melded_kongs == 2)


@_fan("LAST_TILE", "和绝张", "Last Tile", 4, needs=("flags",))
def last_tile(ctx: ScoringContext) -> int:
    """The winning tile is the last of its kind (the other three shown)."""
    return int(ctx.hand.last_tile)


# ---------------------------------------------------------------------------
# 2 番


@_fan("DRAGON_PUNG", "箭刻", "Dragon Pung", 2, needs=("triplets1",))
def dragon_pung(ctx: ScoringContext) -> int:
    """A pung (or kong) of a dragon; counted per pung."""
    return sum(1 for g in ctx.triplets if g.tile.index >= 31)


@_fan("PREVALENT_WIND", "圈风刻", "Prevalent Wind", 2, needs=("triplets1",))
def prevalent_wind(ctx: ScoringContext) -> int:
    """A pung of the round wind."""
    return int(_has_wind_pung(ctx, ctx.situation.round_wind.index))


@_fan("SEAT_WIND", "门风刻", "Seat Wind", 2, needs=("triplets1",))
def seat_wind(ctx: ScoringContext) -> int:
    """A pung of one's seat wind."""
    return int(_has_wind_pung(ctx, ctx.situation.seat_wind.index))


@_fan("CONCEALED_HAND", "门前清", "Concealed Hand", 2, needs=("discard",))
def concealed_hand(ctx: ScoringContext) -> int:
    """No claimed meld, won on a discard."""
    return int(ctx.hand.melded == 0 and not ctx.hand.self_drawn)


@_fan("ALL_CHOWS", "平和", "All Chows", 2, ("NO_HONORS",))
def all_chows(ctx: ScoringContext) -> int:
    """Four chows (a 组合龙 counts as chows) and a suited pair."""
    if ctx.shape not in (_REG, Shape.KNITTED_STRAIGHT) or ctx.triplets:
        return 0
    return int(ctx.pair is not None and ctx.pair.is_suited)


@_fan("TILE_HOG", "四归一", "Tile Hog", 2, needs=("hog",))
def tile_hog(ctx: ScoringContext) -> int:
    """Four of a kind not declared as a kong; counted per kind."""
    return ctx.hand.counts.count(4) - ctx.hand.kongs


@_fan("DOUBLE_PUNG", "双同刻", "Double Pung", 2, needs=("regular", "triplets2"))
def double_pung(ctx: ScoringContext) -> int:
    """Two pungs of the same rank in two suits."""
    return _pungs(ctx).get("DOUBLE_PUNG", 0)


@_fan("TWO_CONCEALED_PUNGS", "双暗刻", "Two Concealed Pungs", 2, needs=("regular",))
def two_concealed_pungs(ctx: ScoringContext) -> int:
    """Two concealed pungs (concealed kongs count)."""
    return int(ctx.shape is _REG and ctx.concealed_pungs == 2)


@_fan("CONCEALED_KONG", "暗杠", "Concealed Kong", 2, needs=("kongs",))
def concealed_kong(ctx: ScoringContext) -> int:
    """A concealed kong."""
    return int(ctx.hand.concealed_kongs >= 1)


@_fan("ALL_SIMPLES", "断幺", "All Simples", 2, ("NO_HONORS",), needs=("no_honors",))
def all_simples(ctx: ScoringContext) -> int:
    """No terminal or honour."""
    return int(ctx.hand.mask & _M_TERMINAL_OR_HONOR == 0)


# ---------------------------------------------------------------------------
# 1 番


@_fan("PURE_DOUBLE_CHOW", "一般高", "Pure Double Chow", 1, needs=("regular", "chows2"))
def pure_double_chow(ctx: ScoringContext) -> int:
    """Two identical chows (套算一次 applies)."""
    return _chows(ctx).get("PURE_DOUBLE_CHOW", 0)


@_fan(
    "MIXED_DOUBLE_CHOW", "喜相逢", "Mixed Double Chow", 1, needs=("regular", "chows2")
)
def mixed_double_chow(ctx: ScoringContext) -> int:
    """The same chow in two suits (套算一次 applies)."""
    return _chows(ctx).get("MIXED_DOUBLE_CHOW", 0)


@_fan("SHORT_STRAIGHT", "连六", "Short Straight", 1, needs=("regular", "chows2"))
def short_straight(ctx: ScoringContext) -> int:
    """Two chows of one suit making six consecutive ranks (套算一次 applies)."""
    return _chows(ctx).get("SHORT_STRAIGHT", 0)


@_fan(
    "TWO_TERMINAL_CHOWS", "老少副", "Two Terminal Chows", 1, needs=("regular", "chows2")
)
def two_terminal_chows(ctx: ScoringContext) -> int:
    """123 and 789 of one suit (套算一次 applies)."""
    return _chows(ctx).get("TWO_TERMINAL_CHOWS", 0)


@_fan(
    "PUNG_OF_TERMINALS_OR_HONORS",
    "幺九刻",
    "Pung of Terminals or Honors",
    1,
    note="a wind pung scored as 圈风刻/门风刻 or inside 三风刻 is not counted"
    " again (不重复); 九莲宝灯 takes one",
    needs=("triplets1",),
)
def pung_of_terminals_or_honors(ctx: ScoringContext) -> int:
    """A pung (or kong) of 1s, 9s or a wind; counted per pung."""
    n = 0
    winds: list[int] = []
    for g in ctx.triplets:
        i = g.tile.index
        if _TERMINAL[i]:
            n += 1
        elif 27 <= i < 31:
            n += 1
            winds.append(i)
    if not n:
        return 0
    if _pungs(ctx).get("BIG_THREE_WINDS", 0):
        n -= 3
    else:
        rw = ctx.situation.round_wind.index
        sw = ctx.situation.seat_wind.index
        if rw in winds:
            n -= 1
        if sw != rw and sw in winds:
            n -= 1
    if n and nine_gates(ctx):
        n -= 1
    return max(n, 0)


@_fan("MELDED_KONG", "明杠", "Melded Kong", 1, needs=("kongs",))
def melded_kong(ctx: ScoringContext) -> int:
    """A melded kong."""
    return int(ctx.hand.melded_kongs >= 1)


@_fan("ONE_VOIDED_SUIT", "缺一门", "One Voided Suit", 1, needs=("two_suits",))
def one_voided_suit(ctx: ScoringContext) -> int:
    """Exactly one of the three suits missing."""
    return int(ctx.hand.suits in (3, 5, 6))


@_fan("NO_HONORS", "无字", "No Honors", 1, needs=("no_honors",))
def no_honors(ctx: ScoringContext) -> int:
    """No winds or dragons."""
    return int(not ctx.hand.winds and not ctx.hand.dragons)


@_fan("EDGE_WAIT", "边张", "Edge Wait", 1, needs=("wait",))
def edge_wait(ctx: ScoringContext) -> int:
    """Won on 3 of 12 or 7 of 89, the only wait."""
    return int(ctx.wait == "edge")


@_fan("CLOSED_WAIT", "坎张", "Closed Wait", 1, needs=("wait",))
def closed_wait(ctx: ScoringContext) -> int:
    """Won on the middle of a chow, the only wait."""
    return int(ctx.wait == "closed")


@_fan("SINGLE_WAIT", "单钓将", "Single Wait", 1, needs=("wait",))
def single_wait(ctx: ScoringContext) -> int:
    """Won on the pair's tile, the only wait."""
    return int(ctx.wait == "single")


@_fan("SELF_DRAWN", "自摸", "Self-Drawn", 1, needs=("self_drawn",))
def self_drawn(ctx: ScoringContext) -> int:
    """Won on a tile one drew."""
    return int(ctx.hand.self_drawn)


@_fan(
    "FLOWER_TILES",
    "花牌",
    "Flower Tiles",
    1,
    minimum=False,
    note="每花计一分, 不计在起和分内",
    needs=("flowers",),
)
def flower_tiles(ctx: ScoringContext) -> int:
    """One fan per flower; never toward the 8-fan minimum."""
    return len(ctx.situation.flowers)


FANS: tuple[Fan, ...] = tuple(sorted(_TABLE, key=lambda f: -f.points))
"""The 81 MCR fans, highest value first (stable within a value)."""

assert len(FANS) == 81, len(FANS)

FANS_BY_ID: dict[str, Fan] = {f.id: f for f in FANS}
"""The MCR fans by id, for rule sets that re-use or re-value them."""
