"""MCR fans worth 2 and 1 番 (seed 003 番种表)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shanten import Shape
from .mcr_common import (
    _M_TERMINAL_OR_HONOR,
    _REG,
    _TERMINAL,
    _chows,
    _fan,
    _has_wind_pung,
    _pungs,
)
from .mcr_high import nine_gates

_CHOW_SHAPES = (Shape.REGULAR, Shape.KNITTED_STRAIGHT)  # Enum attributes are slow

if TYPE_CHECKING:
    from ..scoring import ScoringContext

# 2 番


@_fan("DRAGON_PUNG", "箭刻", "Dragon Pung", 2, needs=("triplets1", "dragon3"))
def dragon_pung(ctx: ScoringContext) -> int:
    """A pung (or kong) of a dragon; counted per pung."""
    return sum(1 for g in ctx.triplets if g.tile.index >= 31)


@_fan(
    "PREVALENT_WIND", "圈风刻", "Prevalent Wind", 2, needs=("triplets1", "round_wind3")
)
def prevalent_wind(ctx: ScoringContext) -> int:
    """A pung of the round wind."""
    return int(_has_wind_pung(ctx, ctx.situation.round_wind.index))


@_fan("SEAT_WIND", "门风刻", "Seat Wind", 2, needs=("triplets1", "seat_wind3"))
def seat_wind(ctx: ScoringContext) -> int:
    """A pung of one's seat wind."""
    return int(_has_wind_pung(ctx, ctx.situation.seat_wind.index))


@_fan(
    "CONCEALED_HAND",
    "门前清",
    "Concealed Hand",
    2,
    needs=("discard", "no_claims"),
    exact=True,
)
def concealed_hand(ctx: ScoringContext) -> int:
    """No claimed meld, won on a discard."""
    return int(ctx.hand.melded == 0 and not ctx.hand.self_drawn)


@_fan(
    "ALL_CHOWS",
    "平和",
    "All Chows",
    2,
    ("NO_HONORS",),
    needs=("no_triplets", "pair_suited"),
)
def all_chows(ctx: ScoringContext) -> int:
    """Four chows (a 组合龙 counts as chows) and a suited pair."""
    if ctx.shape not in _CHOW_SHAPES or ctx.triplets:
        return 0
    return int(ctx.pair is not None and ctx.pair.is_suited)


@_fan("TILE_HOG", "四归一", "Tile Hog", 2, needs=("hog",))
def tile_hog(ctx: ScoringContext) -> int:
    """Four of a kind not declared as a kong; counted per kind."""
    return ctx.hand.counts.count(4) - ctx.hand.kongs


@_fan(
    "DOUBLE_PUNG",
    "双同刻",
    "Double Pung",
    2,
    needs=("regular", "triplets2"),
    via=_pungs,
)
def double_pung(ctx: ScoringContext) -> int:
    """Two pungs of the same rank in two suits."""
    return _pungs(ctx).get("DOUBLE_PUNG", 0)


@_fan(
    "TWO_CONCEALED_PUNGS",
    "双暗刻",
    "Two Concealed Pungs",
    2,
    needs=("regular", "concealed_pungs2"),
    exact=True,
)
def two_concealed_pungs(ctx: ScoringContext) -> int:
    """Two concealed pungs (concealed kongs count)."""
    return int(ctx.shape is _REG and ctx.concealed_pungs == 2)


@_fan(
    "CONCEALED_KONG", "暗杠", "Concealed Kong", 2, needs=("concealed_kong",), exact=True
)
def concealed_kong(ctx: ScoringContext) -> int:
    """A concealed kong."""
    return int(ctx.hand.concealed_kongs >= 1)


@_fan(
    "ALL_SIMPLES",
    "断幺",
    "All Simples",
    2,
    ("NO_HONORS",),
    needs=("only_simples",),
    exact=True,
)
def all_simples(ctx: ScoringContext) -> int:
    """No terminal or honour."""
    return int(ctx.hand.mask & _M_TERMINAL_OR_HONOR == 0)


# ---------------------------------------------------------------------------
# 1 番


@_fan(
    "PURE_DOUBLE_CHOW",
    "一般高",
    "Pure Double Chow",
    1,
    needs=("regular", "chows2"),
    via=_chows,
)
def pure_double_chow(ctx: ScoringContext) -> int:
    """Two identical chows (套算一次 applies)."""
    return _chows(ctx).get("PURE_DOUBLE_CHOW", 0)


@_fan(
    "MIXED_DOUBLE_CHOW",
    "喜相逢",
    "Mixed Double Chow",
    1,
    needs=("regular", "chows2"),
    via=_chows,
)
def mixed_double_chow(ctx: ScoringContext) -> int:
    """The same chow in two suits (套算一次 applies)."""
    return _chows(ctx).get("MIXED_DOUBLE_CHOW", 0)


@_fan(
    "SHORT_STRAIGHT",
    "连六",
    "Short Straight",
    1,
    needs=("regular", "chows2"),
    via=_chows,
)
def short_straight(ctx: ScoringContext) -> int:
    """Two chows of one suit making six consecutive ranks (套算一次 applies)."""
    return _chows(ctx).get("SHORT_STRAIGHT", 0)


@_fan(
    "TWO_TERMINAL_CHOWS",
    "老少副",
    "Two Terminal Chows",
    1,
    needs=("regular", "chows2"),
    via=_chows,
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
    needs=("triplets1", "terminal_or_wind3"),
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


@_fan("MELDED_KONG", "明杠", "Melded Kong", 1, needs=("melded_kong",), exact=True)
def melded_kong(ctx: ScoringContext) -> int:
    """A melded kong."""
    return int(ctx.hand.melded_kongs >= 1)


@_fan(
    "ONE_VOIDED_SUIT", "缺一门", "One Voided Suit", 1, needs=("two_suits",), exact=True
)
def one_voided_suit(ctx: ScoringContext) -> int:
    """Exactly one of the three suits missing."""
    return int(ctx.hand.suits in (3, 5, 6))


@_fan("NO_HONORS", "无字", "No Honors", 1, needs=("no_honors",), exact=True)
def no_honors(ctx: ScoringContext) -> int:
    """No winds or dragons."""
    return int(not ctx.hand.winds and not ctx.hand.dragons)


@_fan("EDGE_WAIT", "边张", "Edge Wait", 1, needs=("edge_wait",), exact=True)
def edge_wait(ctx: ScoringContext) -> int:
    """Won on 3 of 12 or 7 of 89, the only wait."""
    return int(ctx.wait == "edge")


@_fan("CLOSED_WAIT", "坎张", "Closed Wait", 1, needs=("closed_wait",), exact=True)
def closed_wait(ctx: ScoringContext) -> int:
    """Won on the middle of a chow, the only wait."""
    return int(ctx.wait == "closed")


@_fan("SINGLE_WAIT", "单调将", "Single Wait", 1, needs=("single_wait",), exact=True)
def single_wait(ctx: ScoringContext) -> int:
    """Won on the pair's tile, the only wait."""
    return int(ctx.wait == "single")


@_fan("SELF_DRAWN", "自摸", "Self-Drawn", 1, needs=("self_drawn",), exact=True)
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
