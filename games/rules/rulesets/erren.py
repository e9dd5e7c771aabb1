"""``erren`` — 二人麻将, the site's default rule set (seed 000).

Sources, all in seed 000:

* "二人麻将 - 简介与基本规则": tiles ("注意：二人麻将采用的是 万牌 + 风牌 +
  箭牌 +花牌"), 码牌 (36 a seat, 18 墩), 补花, 行牌 (15 s to discard),
  术语 (荒牌 at the 72nd tile, 庄家不连庄).
* "二人麻将 - 游戏说明": seats 东/西, 10 s to claim, 自摸不加倍, 杠牌不计分 (its "64张"
  belongs to ``erren64``; see RULES.md, contradiction 1).
* "二人麻将 游戏规则介绍 牌型范例及规则结算": **the fan table** (values and 不记 below),
  换牌 (≤5, first free) and 加倍 (开始加倍, 胡加倍 ≤8, 任务加倍).

Every fan keeps MCR's 不计 list and adds the ones the section names (RULES.md,
"不计 policy").  The MCR fans the section leaves out are all impossible with
one suit and honours (RULES.md, erren).
"""

from __future__ import annotations

from ..fans.mcr import FANS_BY_ID as MCR_FANS
from ..fans.twoplayer import build_table, entry
from ..shanten import Shape
from ..tiles import ALL_TILES, FLOWERS
from .base import Claim, RuleSet, System, Timers

T = "seed 000 牌型范例及规则结算"  # the fan table section
L81 = "seed 000 番种 81-list"  # the same seed's MCR-style list, used to fill gaps

ENTRIES = (
    entry("HEAVENLY_HAND", 48, f"{T}: 天胡 48 不记番 单钓将、边张、砍张"),
    entry("EARTHLY_HAND", 32, f"{T}: 地胡 32"),
    entry("HUMAN_HAND", 24, f"{T}: 人胡 24"),
    entry("HEAVENLY_READY", 32, f"{T}: 天听 32"),
    entry(
        "BIG_FOUR_WINDS",
        88,
        f"{T}: 大四喜 88 不记番 三风刻、碰碰和、幺九刻",
        "BIG_THREE_WINDS",
        "ALL_PUNGS",
        "LITTLE_THREE_WINDS",
    ),
    entry(
        "BIG_THREE_DRAGONS",
        88,
        f"{T}: 大三元 88 不记番 箭刻、双箭刻",
        "DRAGON_PUNG",
        "TWO_DRAGON_PUNGS",
    ),
    entry(
        "NINE_GATES",
        88,
        f"{T}: 九莲宝灯 88 不记番 清一色、不求人、门前清、幺九刻",
        "FULL_FLUSH",
        "FULLY_CONCEALED_HAND",
        "CONCEALED_HAND",
        # 九莲宝灯's pungs can only be its own 1s and 9s: 不记 幺九刻 drops them all.
        "PUNG_OF_TERMINALS_OR_HONORS",
    ),
    entry(
        "FOUR_KONGS",
        88,
        f"{T}: 四杠 88 不记番 三杠、双暗杠、双明杠、明杠、暗杠、单钓",
        "THREE_KONGS",
        "TWO_CONCEALED_KONGS",
        "TWO_MELDED_KONGS",
        "MELDED_KONG",
        "CONCEALED_KONG",
        "SINGLE_WAIT",
    ),
    entry(
        "SEVEN_SHIFTED_PAIRS",
        88,
        f"{T}: 连七对 88 不记番 清一色、不求人、单钓、门清、七对",
        "FULL_FLUSH",
        "FULLY_CONCEALED_HAND",
        "SINGLE_WAIT",
        "CONCEALED_HAND",
        "SEVEN_PAIRS",
    ),
    entry("BIG_SEVEN_STARS", 88, f"{T}: 大七星 88"),
    entry(
        "LITTLE_FOUR_WINDS",
        64,
        f"{T}: 小四喜 64 不记番 三风刻、幺九刻",
        "BIG_THREE_WINDS",
        "LITTLE_THREE_WINDS",
    ),
    entry(
        "LITTLE_THREE_DRAGONS",
        64,
        f"{T}: 小三元 64 (示意图：箭刻、双箭刻 = 不记)",
        "DRAGON_PUNG",
        "TWO_DRAGON_PUNGS",
    ),
    entry(
        "ALL_HONORS",
        64,
        f"{T}: 字一色 64 不记番 碰碰和、混幺九、全带幺、幺九刻",
        "ALL_PUNGS",
        "ALL_TERMINALS_AND_HONORS",
        "OUTSIDE_HAND",
    ),
    entry(
        "FOUR_CONCEALED_PUNGS",
        64,
        f"{T}: 四暗刻 64 不记番 门前清、碰碰和、三暗刻、双暗刻、不求人",
        "CONCEALED_HAND",
        "ALL_PUNGS",
        "THREE_CONCEALED_PUNGS",
        "TWO_CONCEALED_PUNGS",
        "FULLY_CONCEALED_HAND",
    ),
    entry(
        "PURE_TERMINAL_CHOWS",
        64,
        f"{T}: 双龙会 64 不记番 平和、七对、清一色、一般高、老少副",
        "ALL_CHOWS",
        "SEVEN_PAIRS",
        "FULL_FLUSH",
        "PURE_DOUBLE_CHOW",
        "TWO_TERMINAL_CHOWS",
    ),
    entry(
        "QUADRUPLE_CHOW",
        48,
        f"{T}: 四同顺 48 不记番 一色三节高、一般高、四归一、一色三同顺、七对",
        "PURE_SHIFTED_PUNGS",
        "PURE_DOUBLE_CHOW",
        "TILE_HOG",
        "PURE_TRIPLE_CHOW",
        "SEVEN_PAIRS",
    ),
    entry(
        "FOUR_PURE_SHIFTED_PUNGS",
        48,
        f"{T}: 四节高 48 不记番 一色三同顺、一色三节高、碰碰和",
        "PURE_TRIPLE_CHOW",
        "PURE_SHIFTED_PUNGS",
        "ALL_PUNGS",
    ),
    entry("FOUR_WINDS_SEVEN_PAIRS", 48, f"{T}: 四喜七对子 48"),
    entry("THREE_DRAGONS_SEVEN_PAIRS", 48, f"{T}: 三元七对子 48"),
    entry(
        "FOUR_PURE_SHIFTED_CHOWS",
        32,
        f"{T}: 四步高 32 不记番 一色三步高",
        "PURE_SHIFTED_CHOWS",
    ),
    # The section gives 三杠 no value; 32 from the same seed's 81-fan list (= MCR).
    entry(
        "THREE_KONGS",
        32,
        f"{T}: 三杠 (no value) 不记番 双明杠、双暗杠、明杠、暗杠; {L81}: 三杠 32",
        "TWO_MELDED_KONGS",
        "TWO_CONCEALED_KONGS",
        "MELDED_KONG",
        "CONCEALED_KONG",
    ),
    entry(
        "ALL_TERMINALS_AND_HONORS",
        32,
        f"{T}: 混幺九 32 不记番 碰碰和、幺九刻、全带幺",
        "ALL_PUNGS",
        "OUTSIDE_HAND",
    ),
    entry("SEVEN_PAIRS", 24, f"{T}: 七对子 24"),
    entry("FULL_FLUSH", 24, f"{T}: 清一色 24"),
    entry(
        "PURE_TRIPLE_CHOW",
        24,
        f"{T}: 三同顺 24 不记番 一色三节高、一般高",
        "PURE_SHIFTED_PUNGS",
        "PURE_DOUBLE_CHOW",
    ),
    entry(
        "PURE_SHIFTED_PUNGS",
        24,
        f"{T}: 三节高 24 不记番 一色三同顺",
        "PURE_TRIPLE_CHOW",
    ),
    # 大三风 is MCR's 三风刻 (12) re-valued (RULES.md, erren 3).
    entry("BIG_THREE_WINDS", 24, f"{T}: 大三风 24 牌里有3个风刻"),
    entry(
        "PURE_STRAIGHT",
        16,
        f"{T}: 清龙 16 不记番 连6、老少副",
        "SHORT_STRAIGHT",
        "TWO_TERMINAL_CHOWS",
    ),
    entry("PURE_SHIFTED_CHOWS", 16, f"{T}: 三步高 16"),
    entry(
        "THREE_CONCEALED_PUNGS",
        16,
        f"{T}: 三暗刻 16 不记番 双暗刻",
        "TWO_CONCEALED_PUNGS",
    ),
    entry("UPPER_FOUR", 12, f"{T}: 大于五 12"),
    entry("LOWER_FOUR", 12, f"{T}: 小于五 12"),
    # The section drops the name: "自摸牌墙上最后一张牌和牌。不记番： 自摸8番".
    entry("LAST_TILE_DRAW", 8, f"{T}: (妙手回春) 8 不记番 自摸", "SELF_DRAWN"),
    entry("LAST_TILE_CLAIM", 8, f"{T}: 海底捞月 8"),
    entry(
        "OUT_WITH_REPLACEMENT_TILE",
        8,
        f"{T}: 杠上开花 8 不记番 自摸",
        "SELF_DRAWN",
    ),
    entry("ROBBING_THE_KONG", 8, f"{T}: 抢杠胡 8 不记番 胡绝张", "LAST_TILE"),
    entry("LITTLE_THREE_WINDS", 6, f"{T}: 小三风 6 2风刻/风杠+1风对"),
    entry("ALL_PUNGS", 6, f"{T}: 碰碰胡 6"),
    entry("HALF_FLUSH", 6, f"{T}: 混一色 6"),
    entry("MELDED_HAND", 6, f"{T}: 全求人 6 不记番 单钓", "SINGLE_WAIT"),
    entry(
        "TWO_CONCEALED_KONGS",
        6,
        f"{T}: 双暗杠 6 不记番 双暗刻",
        "TWO_CONCEALED_PUNGS",
    ),
    entry("TWO_DRAGON_PUNGS", 6, f"{T}: 双箭刻 6 不记番 箭刻", "DRAGON_PUNG"),
    entry("OUTSIDE_HAND", 4, f"{T}: 全带幺 4"),
    entry(
        "FULLY_CONCEALED_HAND",
        4,
        f"{T}: 不求人 4 不记番 门前清、自摸",
        "CONCEALED_HAND",
        "SELF_DRAWN",
    ),
    entry("TWO_MELDED_KONGS", 4, f"{T}: 双明杠 4 不记番 明杠", "MELDED_KONG"),
    entry("LAST_TILE", 4, f"{T}: 和绝张 4"),
    entry("READY_FIRST_DISCARD", 4, f"{T}: 报听一发 4"),
    entry("NO_FLOWERS", 4, f"{T}: 无花牌 4"),
    entry("READY_HAND", 4, f"{T}: 报听 4"),
    entry("FOUR_PLANTS", 4, f"{T}: 梅兰菊竹 4"),
    entry("FOUR_SEASONS", 4, f"{T}: 春夏秋冬 4"),
    entry("DRAGON_PUNG", 2, f"{T}: 箭刻 2"),
    entry("PREVALENT_WIND", 2, f"{T}: 圈风刻 2 不重复计幺九刻"),
    entry("SEAT_WIND", 2, f"{T}: 门风刻 2"),
    entry("CONCEALED_HAND", 2, f"{T}: 门前清 2"),
    entry("ALL_CHOWS", 2, f"{T}: 平和 2"),
    entry("TILE_HOG", 2, f"{T}: 四归一 2"),
    entry("TWO_CONCEALED_PUNGS", 2, f"{T}: 双暗刻 2"),
    entry("CONCEALED_KONG", 2, f"{T}: 暗杠 2"),
    entry("ALL_SIMPLES", 2, f"{T}: 断幺 2"),
    entry("PURE_DOUBLE_CHOW", 1, f"{T}: 一般高 1"),
    entry("SHORT_STRAIGHT", 1, f"{T}: 连六 1"),
    entry("TWO_TERMINAL_CHOWS", 1, f"{T}: 老少副 1"),
    entry("PUNG_OF_TERMINALS_OR_HONORS", 1, f"{T}: 幺九刻 1"),
    entry("MELDED_KONG", 1, f"{T}: 明杠 1"),
    entry("EDGE_WAIT", 1, f"{T}: 边张 1"),
    entry("CLOSED_WAIT", 1, f"{T}: 坎张 1"),
    entry("SINGLE_WAIT", 1, f"{T}: 钓 1 单张牌作将成和"),
    entry(
        "FLOWER_TILES",
        1,
        f"{T}: 花牌 1 每花计1番。不计在起和分内",
        toward_minimum=False,
    ),
    entry("SELF_DRAWN", 1, f"{T}: 自摸 1"),
    entry("NO_HONORS", 1, f"{T}: 无字 1"),
)

RULESET = RuleSet(
    name="erren",
    zh="二人麻将",
    en="Two-Player Mahjong",
    sources=("seed 000",),
    # "二人麻将采用的是 万牌 + 风牌 + 箭牌 +花牌":
    # 1–9m, 东南西北, 白发中, 8 flowers = 72.
    kinds=ALL_TILES[0:9] + ALL_TILES[27:34],
    flowers=FLOWERS,
    # Not stated; the section keeps "花牌 … 不计在起和分内", so a 起和 minimum
    # exists — MCR's 8 (seed 003) is the only value any seed gives (RULES.md).
    min_fan=8,
    fans=build_table(ENTRIES, MCR_FANS),
    # One suit + honours: only the regular shape and seven pairs can occur.
    shapes=frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS}),
    claims=frozenset(Claim),  # 行牌: 吃 碰 杠 和 (抢杠胡 in the table)
    systems=frozenset(
        {
            System.READY,  # 报听 (报听后可手动选择是否杠，其他均走听牌流程)
            System.START_DOUBLE,  # 开始加倍: 发牌前 … 选择本局加倍或不加倍
            System.WIN_DOUBLE,  # 胡加倍: 放弃本次胡牌机会 … 最高加倍次数为8
            System.TASK_DOUBLE,  # 任务加倍: 碰牌/番型/杠牌/加倍任务
            System.SWAP,  # 换牌系统: 每局换牌张数上限为5张，第一张换牌免费
            System.FLOWERS,  # 补花 (seed 000 理牌、审牌、补花)
        }
    ),
    multipliers={"start_double": 2, "win_double": 2, "task_double": 2},
    # site policy from seed 002 (回收获胜玩家5%游戏币); this seed names none
    rake_percent=5,
    self_drawn_factor=1,  # 游戏说明 4: 自摸不加倍
    self_drawn_rule=True,
    kong_payments=False,  # 游戏说明 4: 杠牌不计分
    max_win_doubles=8,  # 胡加倍: 目前最高加倍次数为8
    max_swaps=5,  # 换牌: 上限为5张，第一张换牌免费
    full_discard_pool=None,  # 荒牌: 每盘抓完第72张牌 (the wall's end)
    # 行牌规定: 出牌的时限为15秒; 游戏说明 3: 吃、碰、杠、胡操作时间为10秒.
    timers=Timers(discard=15, claim=10),
    notes=(
        "座位: 东、西两家 (游戏说明 2); 庄家为东, 无论是否和牌，庄家不连庄 (术语 五).\n"
        "圈风: 两家各坐一次庄为一圈, 东→南→西→北→东 (圈风刻 说明).\n"
        "荒牌: 抓完第72张牌仍无人和牌 (术语 二十三).\n"
        "结算: 房间底分 × 总番; 总番 = 底番×开始加倍(每家×2, 相乘)"
        " + Σ胡加倍 n 次 (底番+2n)×2^n + 任务加倍×底番 (seed 000 加倍系统 例: 84番).\n"
        "换牌: 每局至多5张, 第一张免费.  起和 8 番 (花牌类不计入; RULES.md)."
    ),
)
