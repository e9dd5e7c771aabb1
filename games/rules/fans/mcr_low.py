"""MCR fans worth 8, 6 and 4 番 (seed 003 番种表)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..decompose import GroupKind
from .mcr_common import (
    _M_REVERSIBLE,
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

# 8 番


@_fan(
    "MIXED_STRAIGHT",
    "花龙",
    "Mixed Straight",
    8,
    needs=("regular", "chows2"),
    via=_chows,
)
def mixed_straight(ctx: ScoringContext) -> int:
    """123, 456 and 789 in three different suits."""
    return _chows(ctx).get("MIXED_STRAIGHT", 0)


@_fan(
    "REVERSIBLE_TILES",
    "推不倒",
    "Reversible Tiles",
    8,
    ("ONE_VOIDED_SUIT",),
    needs=("only_reversible",),
    exact=True,
)
def reversible_tiles(ctx: ScoringContext) -> int:
    """Only 1234589筒, 245689条 and 白."""
    return int(_only(ctx, _M_REVERSIBLE))


@_fan(
    "MIXED_TRIPLE_CHOW",
    "三色三同顺",
    "Mixed Triple Chow",
    8,
    needs=("regular", "chows2"),
    via=_chows,
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
    via=_pungs,
)
def mixed_shifted_pungs(ctx: ScoringContext) -> int:
    """Pungs in three suits, ranks stepping up by one."""
    return _pungs(ctx).get("MIXED_SHIFTED_PUNGS", 0)


@_fan("CHICKEN_HAND", "无番和", "Chicken Hand", 8, needs=("fallback",))
def chicken_hand(ctx: ScoringContext) -> int:
    """No other fan (flowers aside): the scorer's fallback pass."""
    return int(ctx.nothing_else)


@_fan(
    "LAST_TILE_DRAW",
    "妙手回春",
    "Last Tile Draw",
    8,
    ("SELF_DRAWN",),
    needs=("last_draw",),
    exact=True,
)
def last_tile_draw(ctx: ScoringContext) -> int:
    """Self-drawn win on the wall's last tile."""
    return int(ctx.hand.last_draw)


@_fan(
    "LAST_TILE_CLAIM",
    "海底捞月",
    "Last Tile Claim",
    8,
    needs=("last_claim",),
    exact=True,
)
def last_tile_claim(ctx: ScoringContext) -> int:
    """Win on the last discard."""
    return int(ctx.hand.last_claim)


@_fan(
    "OUT_WITH_REPLACEMENT_TILE",
    "杠上开花",
    "Out with Replacement Tile",
    8,
    ("SELF_DRAWN",),
    needs=("replacement",),
    exact=True,
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
    needs=("robbing",),
    exact=True,
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
    needs=("concealed_kong",),
)
def two_concealed_kongs(ctx: ScoringContext) -> int:
    """Two concealed kongs."""
    return int(ctx.hand.concealed_kongs == 2)


@_fan("ALL_PUNGS", "碰碰和", "All Pungs", 6, needs=("regular", "triplets4"), exact=True)
def all_pungs(ctx: ScoringContext) -> int:
    """Four pungs (or kongs) and a pair."""
    return int(ctx.shape is _REG and len(ctx.triplets) == 4)


@_fan("HALF_FLUSH", "混一色", "Half Flush", 6, needs=("honors", "one_suit"), exact=True)
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
    via=_chows,
)
def mixed_shifted_chows(ctx: ScoringContext) -> int:
    """Chows in three suits, stepping up by one."""
    return _chows(ctx).get("MIXED_SHIFTED_CHOWS", 0)


@_fan("ALL_TYPES", "五门齐", "All Types", 6, needs=("honors", "three_suits"))
def all_types(ctx: ScoringContext) -> int:
    """All three suits, a wind and a dragon."""
    h = ctx.hand
    return int(h.suits == 7 and h.winds and h.dragons)


@_fan(
    "MELDED_HAND",
    "全求人",
    "Melded Hand",
    6,
    ("SINGLE_WAIT",),
    needs=("discard", "melded4"),
    exact=True,
)
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
    via=_pungs,
)
def two_dragon_pungs(ctx: ScoringContext) -> int:
    """Two dragon pungs."""
    return _pungs(ctx).get("TWO_DRAGON_PUNGS", 0)


# ---------------------------------------------------------------------------
# 4 番


@_fan(
    "OUTSIDE_HAND",
    "全带幺",
    "Outside Hand",
    4,
    needs=("regular", "pair_terminal_or_honor"),
)
def outside_hand(ctx: ScoringContext) -> int:
    """Every set and the pair contain a terminal or honour."""
    if ctx.shape is not _REG:
        return 0
    for k, i in _five_groups(ctx):
        if i >= 27:
            continue
        r = i % 9
        if k is _CHOW_KIND:
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
    needs=("self_drawn", "no_claims"),
    exact=True,
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
    needs=("melded_kong",),
)
def two_melded_kongs(ctx: ScoringContext) -> int:
    """Two melded kongs."""
    return int(ctx.hand.melded_kongs == 2)


@_fan("LAST_TILE", "和绝张", "Last Tile", 4, needs=("last_tile",), exact=True)
def last_tile(ctx: ScoringContext) -> int:
    """The winning tile is the last of its kind (the other three shown)."""
    return int(ctx.hand.last_tile)
