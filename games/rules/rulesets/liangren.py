"""``liangren`` — 两人麻将 (seed 002).

Seed 002: 136 tiles ("每种牌4张，共136张牌"), no flowers ("二人麻将无花牌"),
财神 wild tiles (scored by :mod:`games.rules.wild_scoring`), 明牌 ×4 per
player, 加倍 ×2, 听牌胡 ×2, 5 % rake, coin cap, and the MCR 81-fan list
(MCR's definitions, :mod:`games.rules.fans.mcr`; RULES.md lists where seed
002's wording differs from seed 003 and what we kept).
"""

from __future__ import annotations

from ..fans.mcr import FANS as MCR_TABLE
from ..fans.mcr import FANS_BY_ID as MCR_FANS
from ..fans.twoplayer import build_table, entry
from ..shanten import ALL_SHAPES
from ..tiles import PLAYING_KINDS
from .base import Claim, RuleSet, System, Timers

S2 = "seed 002 牌型番数"

# "81花牌 起手随机翻出一张为花牌 … （二人麻将无花牌）": no flower fan.
LEFT_OUT = frozenset({"FLOWER_TILES"})

# 双暗杠: seed 002 lists it under 6番 ("53 2个暗杠"); seed 003 under 8番.
REVALUED = {"TWO_CONCEALED_KONGS": 6}

ENTRIES = tuple(
    entry(
        f.id,
        REVALUED.get(f.id, f.points),
        f"{S2}: {REVALUED.get(f.id, f.points)}番 {f.zh} (definition: {f.source})",
    )
    for f in MCR_TABLE
    if f.id not in LEFT_OUT
)

RULESET = RuleSet(
    name="liangren",
    zh="两人麻将",
    en="Two-Person Mahjong (wild tiles)",
    sources=("seed 002",),
    kinds=PLAYING_KINDS,  # 条 万 筒 风 字, 每种牌4张, 共136张牌
    flowers=(),  # 二人麻将无花牌
    min_fan=8,  # seed silent; keeps 无番和 8 → MCR's 8 (seed 003)
    fans=build_table(ENTRIES, MCR_FANS),
    shapes=ALL_SHAPES,  # 基本牌型 + 七对, 十三幺, 全不靠 (and 组合龙 from the table)
    claims=frozenset(Claim),  # 吃 (吃头/吃中/吃尾), 碰, 杠, 和
    systems=frozenset(
        {
            System.WILD,  # 财神: 翻牌就是财神, 白板代替财神牌
            System.OPEN_HAND,  # (四)明牌: 还没发牌时选择明牌, 游戏倍数*4
            System.DEAL_DOUBLE,  # (五)加倍: 发完牌后, 庄家出牌前
            System.READY,  # 听牌胡 ×2 presupposes a 报听 declaration
        }
    ),
    # 计分规则: "倍数：明牌X4加倍X2听牌胡X2"; 明牌 multiplies per player who
    # opened ("若同时有多名玩家选择明牌则倍数相乘").
    multipliers={"open_hand": 4, "deal_double": 2, "ready_win": 2},
    rake_percent=5,  # "系统在该盘游戏结束时自动回收获胜玩家5%游戏币"
    self_drawn_factor=1,  # two seats: one payer; seed gives no self-draw factor
    kong_payments=False,  # seed gives kongs no payment
    timers=Timers(discard=15, claim=10),  # seed silent: the site's 15/10
    notes=(
        "积分 = 总番数 × 倍数; 游戏币 = 总番数 × 房间基数 × 倍数 (计分规则).\n"
        "游戏币胡牌上限: 每盘胡牌上限为游戏币少的玩家的游戏币数量.\n"
        "获胜玩家的游戏币回收 5%.\n"
        "财神: 翻出的牌即财神 (one wild kind per hand); 财神不能打出, 不能用于吃牌;\n"
        "  白板代替财神牌 (白板 plays the wild kind's own face).\n"
        "流局: 抓完前面所有牌. 座位东/西, 庄家: seed silent → MCR (和者坐庄)."
    ),
)
