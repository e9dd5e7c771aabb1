"""``mcr`` — 国标/国际麻将 (Mahjong Competition Rules).

Sources: seed 003 (国际麻将, 2329游戏中心: tiles, 和牌的规定, the 81-fan table
with its 不计 lists), seed 002 (两人麻将: the same table, numbered 1–81) and
seed 004 (二人麻将手游版: the same table).
"""

from __future__ import annotations

from ..fans.mcr import FANS
from ..shanten import Shape
from ..tiles import FLOWERS, PLAYING_KINDS
from .base import Claim, RuleSet, System

RULESET = RuleSet(
    name="mcr",
    zh="国标麻将",
    en="Mahjong Competition Rules",
    sources=("seed 003", "seed 002", "seed 004"),
    # seed 003 游戏牌数: 万 筒 条 36 each, 字牌 28, 花牌 8 (144 tiles).
    kinds=PLAYING_KINDS,
    flowers=FLOWERS,
    # seed 003 无番和 8 and 花牌 "不计在起和分内": the 8-fan minimum, flowers
    # not counted toward it (MCR's 8番起和).
    min_fan=8,
    fans=FANS,
    # seed 003 和牌的基本牌型 / 特殊牌型 (七对, 十三幺, 全不靠) and 组合龙.
    shapes=frozenset(Shape),
    # seed 003 名词术语 吃牌, 碰牌, 杠.
    claims=frozenset(Claim),
    # seed 003 名词术语 18) 补花.
    systems=frozenset({System.FLOWERS}),
    notes=(
        "国标麻将的 81 番 (seed 003). 双暗杠 is 6 番 as in seeds 002 and 004"
        " (numbered 53, inside their 6番 block) and MCR; seed 003 puts it in"
        " its 8番 block — a contradiction between seeds, resolved for the"
        " majority and the standard (and the oracle). Where seed"
        " 003 omits a 不计 that MCR has (七对 不计门前清; 四杠 不计碰碰和; 十三幺"
        " 不计混幺九; 双暗杠 不计暗杠、双暗刻; 三色双龙会's list from seed 002),"
        " MCR's rule is used; each fan's source says so."
    ),
)
