"""``jj`` — JJ 二人麻将 (seed 001).

Seed 001: "基于JJ普通麻将规则，只使用条子和风牌，箭牌": 72 tiles (1–9条, winds,
dragons, 8 flowers), "混牌：无混", 加番牌 (+10), and its own fan table — the
大众番种 (八仙过海 天胡 地胡 人胡 天听 二五八将 季花 幺九头 梅兰竹菊 春夏秋冬)
and the standard list with ITS values and 不记 lists (notably 自摸 8,
三风刻 12, 报听 4).  The text stops inside the 2番 list; the rest is
filled from MCR as RULES.md (jj) explains.  Every re-used MCR fan keeps
MCR's 不计 plus the seed's, except where noted.
"""

from __future__ import annotations

from ..fans.mcr import FANS_BY_ID as MCR_FANS
from ..fans.twoplayer import build_table, entry
from ..shanten import Shape
from ..tiles import ALL_TILES, FLOWERS
from .base import Claim, RuleSet, System, Timers

J = "seed 001"
MCR_FILL = "seed 001 text ends here; MCR (seed 003)"

ENTRIES = (
    # -- 大众番种 --------------------------------------------------------------
    entry(
        "ALL_FLOWERS", 88, f"{J} 大众番种: 八仙过海 88 不记番 季花，春夏秋冬梅兰竹菊"
    ),
    entry("HEAVENLY_HAND", 48, f"{J} 大众番种: 天胡 48 不记番 单钓将、边张、砍张"),
    entry("EARTHLY_HAND", 32, f"{J} 大众番种: 地胡 32"),
    entry("HUMAN_HAND", 24, f"{J} 大众番种: 人胡 24"),
    entry("HEAVENLY_READY", 16, f"{J} 大众番种: 天听 16"),
    entry("TWO_FIVE_EIGHT_PAIR", 1, f"{J} 大众番种: 二五八将 1"),
    entry("SEAT_FLOWER", 1, f"{J} 大众番种: 季花 1 不计入起胡番数"),
    entry("TERMINAL_PAIR", 1, f"{J} 大众番种: 幺九头 1"),
    entry("FOUR_PLANTS", 1, f"{J} 大众番种: 梅兰竹菊 1 不计入起胡番数"),
    entry("FOUR_SEASONS", 1, f"{J} 大众番种: 春夏秋冬 1 不计入起胡番数"),
    # 加番: "加番牌的番数为10番 … 结算时额外增加10番" (added at settlement).
    entry("BONUS_TILE", 10, f"{J} 加番: 10番, once per bonus kind held"),
    # -- 标准88番 -----------------------------------------------------------
    entry(
        "BIG_FOUR_WINDS",
        88,
        f"{J} 88: 大四喜 不记番 圈风刻、门风刻、三风刻、碰碰和、幺九刻",
    ),
    entry("BIG_THREE_DRAGONS", 88, f"{J} 88: 大三元 不记番 箭刻、双箭刻"),
    # "不记番：无" is explicit: taken literally (RULES.md, 不计 policy).
    entry("ALL_GREEN", 88, f"{J} 88: 绿一色 不记番：无", excludes=()),
    entry(
        "NINE_GATES",
        88,
        f"{J} 88: 九莲宝灯 不记番 清一色、不求人、门前清、幺九刻",
        "PUNG_OF_TERMINALS_OR_HONORS",
    ),
    entry(
        "FOUR_KONGS",
        88,
        f"{J} 88: 四杠 不记番 双暗杠、双明杠、明杠、暗杠、单钓 (+三杠, MCR)",
    ),
    entry(
        "SEVEN_SHIFTED_PAIRS",
        88,
        f"{J} 88: 连七对 不记番 清一色、不求人、单钓、门清、七对、缺一门、无字",
    ),
    # -- 64 -----------------------------------------------------------------
    entry(
        "LITTLE_FOUR_WINDS",
        64,
        f"{J} 64: 小四喜 不记番 三风刻、幺九刻、缺一门",
    ),
    entry("LITTLE_THREE_DRAGONS", 64, f"{J} 64: 小三元 (箭刻、双箭刻、缺一门)"),
    entry(
        "ALL_HONORS",
        64,
        f"{J} 64: 字一色 不记番 碰碰和、混幺九、全带幺、幺九刻、缺一门",
    ),
    entry(
        "FOUR_CONCEALED_PUNGS",
        64,
        f"{J} 64: 四暗刻 不记番 门前清、碰碰和、三暗刻、双暗刻、不求人",
    ),
    entry(
        "PURE_TERMINAL_CHOWS",
        64,
        f"{J} 64: 一色双龙会 不记番 平和、七对、清一色、一般高、老少副、缺一门、无字",
    ),
    # -- 48 -----------------------------------------------------------------
    entry(
        "QUADRUPLE_CHOW",
        48,
        f"{J} 48: 一色四同顺 不记番 一色三节高、一般高、四归一、一色三同顺、缺一门",
    ),
    entry(
        "FOUR_PURE_SHIFTED_PUNGS",
        48,
        f"{J} 48: 一色四节高 不记番 一色三同顺、一色三节高、碰碰和、缺一门",
    ),
    # -- 32 -----------------------------------------------------------------
    entry("FOUR_PURE_SHIFTED_CHOWS", 32, f"{J} 32: 一色四步高 不记番 一色三步高"),
    entry("THREE_KONGS", 32, f"{J} 32: 三杠 不记番 双明杠、双暗杠、明杠、暗杠"),
    entry(
        "ALL_TERMINALS_AND_HONORS",
        32,
        f"{J} 32: 混幺九 不记番 碰碰和、幺九刻、全带幺",
    ),
    # -- 24 -----------------------------------------------------------------
    entry("SEVEN_PAIRS", 24, f"{J} 24: 七对"),
    entry("FULL_FLUSH", 24, f"{J} 24: 清一色 不记番 无字、缺一门"),
    entry("PURE_TRIPLE_CHOW", 24, f"{J} 24: 一色三同顺 不记番 一色三节高、一般高"),
    entry("PURE_SHIFTED_PUNGS", 24, f"{J} 24: 一色三节高 不记番 一色三同顺"),
    # -- 16 -----------------------------------------------------------------
    entry("PURE_STRAIGHT", 16, f"{J} 16: 清龙 不记番 连6、老少副"),
    entry("PURE_SHIFTED_CHOWS", 16, f"{J} 16: 一色三步高"),
    entry("THREE_CONCEALED_PUNGS", 16, f"{J} 16: 三暗刻 不记番 双暗刻"),
    # -- 12 -----------------------------------------------------------------
    entry("UPPER_FOUR", 12, f"{J} 12: 大于5 不记番 无字"),
    entry("LOWER_FOUR", 12, f"{J} 12: 小于5 不记番 无字"),
    entry("BIG_THREE_WINDS", 12, f"{J} 12: 三风刻 不记番 缺一门"),
    # -- 8 (6种: 推不倒 妙手回春 海底捞月 杠上开花 抢杠胡 自摸) ----------
    entry("REVERSIBLE_TILES", 8, f"{J} 8: 推不倒 245689条、白板"),
    # 自摸 is worth 8 here, so 妙手回春 / 杠上开花 / 不求人 do not drop it: the
    # seed names no such 不记, and dropping an 8 for them would lower the score.
    entry("LAST_TILE_DRAW", 8, f"{J} 8: 妙手回春 (no 不记)", excludes=()),
    entry("LAST_TILE_CLAIM", 8, f"{J} 8: 海底捞月"),
    entry("OUT_WITH_REPLACEMENT_TILE", 8, f"{J} 8: 杠上开花 (no 不记)", excludes=()),
    entry("ROBBING_THE_KONG", 8, f"{J} 8: 抢杠胡 不记番 胡绝张"),
    entry("SELF_DRAWN", 8, f"{J} 8: 自摸 (listed under 8番：6种)"),
    # -- 6 ------------------------------------------------------------------
    entry("ALL_PUNGS", 6, f"{J} 6: 碰碰胡"),
    entry("HALF_FLUSH", 6, f"{J} 6: 混一色 不记番 缺一门"),
    entry("MELDED_HAND", 6, f"{J} 6: 全求人 不记番 单钓"),
    entry("TWO_CONCEALED_KONGS", 6, f"{J} 6: 双暗杠 不记番 双暗刻"),
    entry("TWO_DRAGON_PUNGS", 6, f"{J} 6: 双箭刻 不记番 箭刻"),
    # -- 4 ------------------------------------------------------------------
    entry("OUTSIDE_HAND", 4, f"{J} 4: 全带幺"),
    entry(
        "FULLY_CONCEALED_HAND",
        4,
        f"{J} 4: 不求人 不记番 门前清 (not 自摸, worth 8 here)",
        excludes=("CONCEALED_HAND",),
    ),
    entry("TWO_MELDED_KONGS", 4, f"{J} 4: 双明杠 不记番 明杠"),
    entry("LAST_TILE", 4, f"{J} 4: 胡绝张"),
    entry("READY_HAND", 4, f"{J} 4: 报听 和牌时，已经选择听牌"),
    # -- 2 (9种; the text gives six) -----------------------------------------
    entry("DRAGON_PUNG", 2, f"{J} 2: 箭刻"),
    entry("PREVALENT_WIND", 2, f"{J} 2: 圈风刻"),
    entry("SEAT_WIND", 2, f"{J} 2: 门风刻 不记番 幺九刻"),
    entry("CONCEALED_HAND", 2, f"{J} 2: 门前清"),
    entry("ALL_CHOWS", 2, f"{J} 2: 平胡"),
    entry("TILE_HOG", 2, f"{J} 2: 四归一"),
    entry("TWO_CONCEALED_PUNGS", 2, f"{MCR_FILL} 2番 双暗刻"),
    entry("CONCEALED_KONG", 2, f"{MCR_FILL} 2番 暗杠"),
    entry("ALL_SIMPLES", 2, f"{MCR_FILL} 2番 断幺"),
    # -- 1 (missing from the seed: MCR's that one suit allows) ----------------
    entry("PURE_DOUBLE_CHOW", 1, f"{MCR_FILL} 1番 一般高"),
    entry("SHORT_STRAIGHT", 1, f"{MCR_FILL} 1番 连六"),
    entry("TWO_TERMINAL_CHOWS", 1, f"{MCR_FILL} 1番 老少副"),
    entry("PUNG_OF_TERMINALS_OR_HONORS", 1, f"{MCR_FILL} 1番 幺九刻"),
    entry("MELDED_KONG", 1, f"{MCR_FILL} 1番 明杠"),
    entry("NO_HONORS", 1, f"{MCR_FILL} 1番 无字"),
    entry("EDGE_WAIT", 1, f"{MCR_FILL} 1番 边张"),
    entry("CLOSED_WAIT", 1, f"{MCR_FILL} 1番 坎张"),
    entry("SINGLE_WAIT", 1, f"{MCR_FILL} 1番 单钓将"),
)

RULESET = RuleSet(
    name="jj",
    zh="JJ二人麻将",
    en="JJ Two-Player Mahjong",
    sources=("seed 001",),
    # "使用1-9条牌和风牌，箭牌，花牌。共：72张牌" = 36 条 + 28 字 + 8 花.
    kinds=ALL_TILES[18:27] + ALL_TILES[27:34],
    flowers=FLOWERS,
    # "在有起胡番数限制的比赛中，不计入起胡番数": a minimum exists in some
    # matches, its value is not given — MCR's 8 (RULES.md, jj).
    min_fan=8,
    fans=build_table(ENTRIES, MCR_FANS),
    shapes=frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS}),  # one suit + honours
    claims=frozenset(Claim),  # JJ标准麻将规则: 吃 碰 杠 和
    systems=frozenset(
        {
            System.BONUS_TILE,  # 加番: 游戏开局前随机设定某张麻将牌为加番牌
            System.READY,  # 报听 4: 和牌时，已经选择听牌
            System.FLOWERS,  # 花牌 in the wall (八仙过海 …)
        }
    ),
    multipliers={},
    # site policy from seed 002 (回收获胜玩家5%游戏币); this seed names none
    rake_percent=5,
    self_drawn_factor=1,  # two seats: one payer
    kong_payments=False,  # seed gives kongs no payment
    timers=Timers(discard=15, claim=10),  # seed silent: the site's 15/10
    notes=(
        "混牌: 无混.  加番牌: 开局前随机设定;"
        " 胡牌时手牌(含吃碰杠)有它 +10 番, 每种一次.\n"
        "座位: 庄家东风位, 对门西风位 (门风 PS).  庄家: seed silent → MCR (和者坐庄).\n"
        "季花: 东 春/梅, 西 秋/竹.  起胡 8 番 (花牌类、加番不计入).\n"
        "输赢: seed silent → 房间底分 × 总番 (加番 included), no multipliers."
    ),
)
