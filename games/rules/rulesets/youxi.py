"""``youxi`` — 优嘻网 二人麻将 (seed 000, first section "《优嘻网》二人麻将").

The section's rules: 136 tiles ("筒（万条）各36张风字28张 … 共136张"), 庄家 14 / 闲家
13, 吃 碰 杠 (明杠, 加杠, 暗杠), dealer = last winner (流局: the dealer stays),
报听 at any time with auto-play, 流局 when one seat's discard pool is full,
and the yaku-style fan table of :mod:`games.rules.fans.youxi`.
"""

from __future__ import annotations

from ..fans.twoplayer import build_table
from ..fans.youxi import CATALOGUE, entries
from ..shanten import ALL_SHAPES
from ..tiles import PLAYING_KINDS
from .base import Claim, RuleSet, System, Timers

RULESET = RuleSet(
    name="youxi",
    zh="优嘻网二人麻将",
    en="Youxi Two-Player Mahjong",
    sources=("seed 000 (优嘻网 section)",),
    kinds=PLAYING_KINDS,  # 用牌: 筒万条各36张, 风字28张, 共136张
    flowers=(),  # no flowers in 用牌
    # The table is yaku-style (no 无番和, smallest value 1): a hand needs at
    # least one fan.  The seed states no minimum (RULES.md, youxi).
    min_fan=1,
    fans=build_table(entries(), CATALOGUE),
    # 十三幺 is in the table; MCR's other shapes (七对 too) are allowed, but no
    # fan of this table rewards 全不靠/组合龙 — they win only with another fan.
    shapes=ALL_SHAPES,
    claims=frozenset(Claim),  # 吃碰杠 "可以任意吃碰杠牌"; 和
    systems=frozenset({System.READY}),  # 报听: 游戏开始后任意时刻都可以选择报听
    multipliers={},
    # site policy from seed 002 (回收获胜玩家5%游戏币); this seed names none
    rake_percent=5,
    self_drawn_factor=1,  # two seats: one payer
    kong_payments=False,  # the section gives kongs no payment
    # "有一家牌池占满后无人和牌，则为流局" — size not given; 54 = half of the
    # 109 undealt tiles, so a full pool matches an exhausted wall (RULES.md).
    full_discard_pool=54,
    timers=Timers(discard=15, claim=10),  # section silent: the site's 15/10
    notes=(
        "庄家: 第一局随机; 谁和牌下盘当庄家, 流局则上盘的庄家继续当庄家.\n"
        "报听: 任意时刻, 之后自动摸打, 有人放炮时询问是否和牌 (no fan for it).\n"
        "流局: 一家牌池满 54 张 (our size; seed gives none) 后无人和牌, 重新发牌.\n"
        "役满 20 番 replace every other fan and stack with each other.\n"
        "输赢: seed silent → 房间底分 × 总番, no multipliers; "
        "the site-wide 5 % rake of seed 002."
    ),
)
