"""The 优嘻网 二人麻将 fan table (seed 000, first section, 记分规则).

Seed text: "番数类型1番：门前清、自摸、海底捞月、杠上开花、断幺、平和、箭刻、
抢杠和妙手回春2番：混幺九、七对、一气贯通、三色同顺、碰碰和、双箭刻、混一色
3番：三杠子、三同刻、三暗刻、全带幺 7番：清一色、三风刻 20番（役满）：大四喜、
小四喜、大三元、字一色、九莲宝灯、一色双龙抱大车轮（筒）、绿一色（条）、四杠子、
四暗刻、十三幺、清老头、小三元".

The seed names the fans and their values only.  Definitions are MCR's (the
section says "基于国际麻将规则") for every fan the two tables share, with the
exceptions below, and ids are MCR's English names:

* 门前清 (CONCEALED_HAND): no chi, pung or melded kong, won by discard *or*
  self-draw — the usual 门清 reading; MCR's version (discard only) leaves a
  concealed self-draw to 不求人, which this table does not have.
* 全带幺 (OUTSIDE_HAND): every set and the pair hold a terminal or honour *and*
  at least one set is a chow — the usual (Japanese 混全带幺九) reading of a
  yaku table; without a chow the hand is 混幺九 (or 清老头), which the table
  values separately.  MCR's 全带幺 would also score on every 混幺九 hand.
* 一色双龙抱大车轮（筒） (BIG_WHEELS): 大车轮, seven pairs 2p–8p; the "（筒）" tag
  parallels 绿一色（条） as in the Japanese yakuman list the table follows.
* 清老头 is MCR's 清幺九 (ALL_TERMINALS); 一气贯通 is 清龙 (PURE_STRAIGHT); 三色同顺
  is 三色三同顺 (MIXED_TRIPLE_CHOW); 三杠子 THREE_KONGS; 四杠子 FOUR_KONGS.

Non-repeat rules (the seed gives none; RULES.md, youxi): a 役满 replaces
every non-役满 fan, 役满 stack with each other (大四喜 drops 小四喜); otherwise
MCR's 不计 where both fans are in this table (妙手回春 and 杠上开花 drop 自摸,
双箭刻 drops 箭刻, 混幺九 drops 碰碰和, 七对 drops 门前清, 清一色 drops 混一色).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Fan
from .mcr import FANS_BY_ID as MCR_FANS
from .twoplayer import BY_ID as TWO_PLAYER_FANS
from .twoplayer import Entry, entry

if TYPE_CHECKING:
    from ..scoring import ScoringContext

SRC = "seed 000 优嘻网 记分规则"


def _concealed_hand(ctx: ScoringContext) -> int:
    return int(ctx.concealed_hand)


CONCEALED_HAND = Fan(
    "CONCEALED_HAND",
    "门前清",
    "Concealed Hand",
    1,
    _concealed_hand,
    source=f"{SRC}: 1番 门前清 (no chi/pung/明杠, any win; RULES.md)",
)
"""门前清 as youxi reads it: no claimed meld, whichever way the hand is won."""


# Order matters among equal values: the scorer applies a fan's 不计 only to
# fans after it, so 妙手回春 and 杠上开花 come before 自摸.
def _outside_hand(ctx: ScoringContext) -> int:
    if not ctx.chows:
        return 0
    return MCR_FANS["OUTSIDE_HAND"].condition(ctx)


OUTSIDE_HAND = Fan(
    "OUTSIDE_HAND",
    "全带幺",
    "Outside Hand",
    3,
    _outside_hand,
    source=f"{SRC}: 3番 全带幺 (with at least one chow; RULES.md)",
)
"""全带幺 as youxi reads it: terminals/honours in every group, and a chow."""

CATALOGUE: dict[str, Fan] = {
    **MCR_FANS,
    **TWO_PLAYER_FANS,
    "CONCEALED_HAND": CONCEALED_HAND,
    "OUTSIDE_HAND": OUTSIDE_HAND,
}
"""Where youxi's entries are resolved: MCR fans, two-player extras, and the
two fans youxi defines its own way."""

ONE = (
    "LAST_TILE_DRAW",
    "OUT_WITH_REPLACEMENT_TILE",
    "CONCEALED_HAND",
    "SELF_DRAWN",
    "LAST_TILE_CLAIM",
    "ALL_SIMPLES",
    "ALL_CHOWS",
    "DRAGON_PUNG",
    "ROBBING_THE_KONG",
)
TWO = (
    "ALL_TERMINALS_AND_HONORS",
    "SEVEN_PAIRS",
    "PURE_STRAIGHT",
    "MIXED_TRIPLE_CHOW",
    "ALL_PUNGS",
    "TWO_DRAGON_PUNGS",
    "HALF_FLUSH",
)
THREE = ("THREE_KONGS", "TRIPLE_PUNG", "THREE_CONCEALED_PUNGS", "OUTSIDE_HAND")
SEVEN = ("FULL_FLUSH", "BIG_THREE_WINDS")
YAKUMAN = (
    "BIG_FOUR_WINDS",
    "LITTLE_FOUR_WINDS",
    "BIG_THREE_DRAGONS",
    "ALL_HONORS",
    "NINE_GATES",
    "BIG_WHEELS",
    "ALL_GREEN",
    "FOUR_KONGS",
    "FOUR_CONCEALED_PUNGS",
    "THIRTEEN_ORPHANS",
    "ALL_TERMINALS",
    "LITTLE_THREE_DRAGONS",
)
"""The 20-fan 役满, in the seed's order."""

_REGULAR = frozenset(ONE + TWO + THREE + SEVEN)

# Extra 不计 among regular fans (MCR's, where both fans are in the table).
_REGULAR_EXCLUDES: dict[str, frozenset[str]] = {
    "LAST_TILE_DRAW": frozenset({"SELF_DRAWN"}),
    "OUT_WITH_REPLACEMENT_TILE": frozenset({"SELF_DRAWN"}),
    "TWO_DRAGON_PUNGS": frozenset({"DRAGON_PUNG"}),
    "ALL_TERMINALS_AND_HONORS": frozenset({"ALL_PUNGS"}),
    "SEVEN_PAIRS": frozenset({"CONCEALED_HAND"}),
    "FULL_FLUSH": frozenset({"HALF_FLUSH"}),
}


def entries() -> list[Entry]:
    """The table as :class:`Entry` rows (values from the seed, 不计 as above)."""
    rows: list[Entry] = []
    for fid in YAKUMAN:
        excl = _REGULAR | (
            {"LITTLE_FOUR_WINDS"} if fid == "BIG_FOUR_WINDS" else frozenset()
        )
        rows.append(entry(fid, 20, f"{SRC}: 20番（役满）", excludes=excl))
    for value, ids in ((7, SEVEN), (3, THREE), (2, TWO), (1, ONE)):
        for fid in ids:
            rows.append(
                entry(
                    fid,
                    value,
                    f"{SRC}: {value}番",
                    excludes=_REGULAR_EXCLUDES.get(fid, frozenset()),
                )
            )
    return rows


__all__ = [
    "CATALOGUE",
    "CONCEALED_HAND",
    "OUTSIDE_HAND",
    "ONE",
    "SEVEN",
    "THREE",
    "TWO",
    "YAKUMAN",
    "entries",
]
