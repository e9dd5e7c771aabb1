"""``erren64`` — 二人麻将手游版, 64 tiles (seed 004; seed 000 游戏说明).

Seed 004: "全副牌共有2类,64张 … 万子牌 … 字牌", 吃 碰 杠, 加倍 after the deal, and
the MCR 81-fan list.  Seed 000 游戏说明 ("共64张"): seats 东/西, 10 s to
claim, 自摸不加倍, 杠牌不计分.  Fans are MCR's (:mod:`games.rules.fans.mcr`)
with seed 004's values, minus those one suit and honours cannot make and
花牌 (no flowers); see RULES.md, erren64.
"""

from __future__ import annotations

from ..fans.mcr import FANS as MCR_TABLE
from ..fans.mcr import FANS_BY_ID as MCR_FANS
from ..fans.twoplayer import build_table, entry
from ..shanten import Shape
from ..tiles import ALL_TILES
from .base import Claim, RuleSet, System, Timers

S4 = "seed 004 牌型番数"

IMPOSSIBLE = frozenset(
    {
        "ALL_GREEN",  # needs 条 (only 发 cannot make 14 tiles)
        "THIRTEEN_ORPHANS",  # needs three suits
        "ALL_TERMINALS",  # 1m 9m: 8 tiles
        "GREATER_HONORS_AND_KNITTED_TILES",  # knitted: three suits
        "LESSER_HONORS_AND_KNITTED_TILES",
        "KNITTED_STRAIGHT",
        "THREE_SUITED_TERMINAL_CHOWS",  # mixed-suit fans
        "MIXED_STRAIGHT",
        "MIXED_TRIPLE_CHOW",
        "MIXED_SHIFTED_PUNGS",
        "MIXED_SHIFTED_CHOWS",
        "MIXED_DOUBLE_CHOW",
        "TRIPLE_PUNG",
        "DOUBLE_PUNG",
        "ALL_TYPES",
        "ONE_VOIDED_SUIT",  # exactly one of three suits missing: never
        "REVERSIBLE_TILES",  # no reversible 万; 白 alone is not a hand
        # Five groups from the four even / three end / three middle ranks
        # of one suit, or five groups each holding the one 5: a fifth copy.
        "ALL_EVEN_PUNGS",
        "UPPER_TILES",
        "MIDDLE_TILES",
        "LOWER_TILES",
        "ALL_FIVES",
        # Every hand is 清一色, 混一色 or 字一色 (≥ 6), so 无番和 never applies.
        "CHICKEN_HAND",
        "FLOWER_TILES",  # 64 tiles, no flowers
    }
)
"""MCR fans left out of the 64-tile table, each with the reason."""

# 双暗杠: seed 004 lists it under 6番 ("53 双暗杠 2个暗杠"); seed 003 under 8.
REVALUED = {"TWO_CONCEALED_KONGS": 6}

ENTRIES = tuple(
    entry(
        f.id,
        REVALUED.get(f.id, f.points),
        f"{S4}: {REVALUED.get(f.id, f.points)}番 {f.zh} (definition: {f.source})",
    )
    for f in MCR_TABLE
    if f.id not in IMPOSSIBLE
)

RULESET = RuleSet(
    name="erren64",
    zh="二人麻将手游版",
    en="Two-Player Mahjong (64 tiles)",
    sources=("seed 004", "seed 000 (游戏说明)"),
    # seed 004: 万子牌 36 + 字牌 28 = 64 ("全副牌共有2类,64张").
    kinds=ALL_TILES[0:9] + ALL_TILES[27:34],
    flowers=(),
    min_fan=8,  # seed silent; keeps 无番和 8 → MCR's 8 (seed 003)
    fans=build_table(ENTRIES, MCR_FANS),
    shapes=frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS}),  # one suit + honours
    claims=frozenset(Claim),  # seed 004: 吃、碰、杠; 和 incl. 抢杠和
    # seed 004 (四)加倍: "在发完牌后,庄家出牌前增加一个翻倍选择功能".
    systems=frozenset({System.DEAL_DOUBLE}),
    multipliers={"deal_double": 2},
    # site policy from seed 002 (回收获胜玩家5%游戏币); this seed names none
    rake_percent=5,
    self_drawn_factor=1,  # seed 000 游戏说明 4: 自摸不加倍
    self_drawn_rule=True,
    kong_payments=False,  # seed 000 游戏说明 4: 杠牌不计分
    timers=Timers(discard=15, claim=10),  # seed 000 游戏说明 3: 操作时间为10秒
    notes=(
        "座位: 东、西两家, 东14张, 西13张; 掷骰子决定先出牌的玩家"
        " (seed 000 游戏说明).\n"
        "庄家/圈风: seeds silent → as erren (庄家不连庄, 两手一圈).\n"
        "输赢: 房间底分 × 牌型番数 × 加倍(×2).\n"
        "超时: 系统自动出最右边的一张牌 (seed 000 游戏说明 3).\n"
        "seed 004 '花牌: 起手随机翻出一张…最多4张' is not modelled (no value given)."
    ),
)
