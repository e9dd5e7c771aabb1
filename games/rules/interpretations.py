# ruff: noqa: E501  (prose in two languages, one string per sentence)
"""Where the site chose how to read its sources, in plain words (rules site).

Each entry restates one choice of ``games/rules/RULES.md`` for players, in
Chinese and English, and carries ``quote``: words of RULES.md that the choice
comes from (``tests/rules/test_interpretations.py`` checks that every quote
is still in RULES.md, so a choice rewritten there shows up here).  Data only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Interpretation:
    """One choice: ``key`` (stable id), ``quote`` (from RULES.md), ``zh``, ``en``."""

    key: str
    quote: str
    zh: str
    en: str


_RAKE = Interpretation(
    "rake",
    "Rake 5 % for every rule set.",
    "只有《两人麻将》写明系统回收赢家 5% 游戏币；其他资料没有写，本站对每套规则都收 5%。",
    "Only the Two-Person Mahjong rules name a rake (5 % of the winner's coins); "
    "the others are silent, so the site keeps 5 % under every rule set.",
)
_CAP = Interpretation(
    "cap",
    "Coin cap",
    "每盘输赢以游戏币较少的一方为上限（出自《两人麻将》），每套规则都这样。",
    "A hand never moves more than the poorer player's coins (from the Two-Person "
    "Mahjong rules), under every rule set.",
)
_UNION = Interpretation(
    "exclusions",
    "a re-used MCR fan keeps MCR's 不计 list and adds every fan its own seed names",
    "资料里的「不计」列表常常比国标短。本站把短的列表看作没写全：沿用国标的不计，"
    "再加上这份资料自己列出的。",
    "The sources' lists of fans not counted with a fan are often shorter than MCR's. The site "
    "reads a short list as incomplete: a fan keeps MCR's list plus what its own "
    "source adds.",
)
_MIN8 = Interpretation(
    "minimum",
    "**We take 8.**",
    "资料没有写起和番数，但写了「花牌不计在起和分内」，说明有起和。"
    "唯一给出数字的是国标的 8 番，本站取 8 番。",
    "The source gives no minimum, but says flowers do not count toward it, so "
    "there is one; the only figure any source gives is MCR's 8, which the site uses.",
)

_FIRST_TURN = Interpretation(
    "heavenly_ready",
    "We read it as *before the dealer's first discard*",
    "天听：庄家是打出第一张牌时报听；闲家是「发完牌后便报听」，本站理解为庄家打出第一张牌之前报听。"
    "看到庄家第一张牌之后才报听，只算普通报听。闲家天听后和庄家第一张牌，是人胡加天听，也算报听一发；"
    "天听后第一次摸牌自摸，是地胡加天听。换牌之后和牌不算天胡、地胡。",
    "Heavenly ready: the dealer declares with its first discard; the non-dealer "
    "declares right after the deal, which the site reads as before the dealer's "
    "first discard. Declaring after seeing that discard is an ordinary ready. A "
    "non-dealer who wins on the dealer's first discard after a heavenly ready "
    "scores the human hand, the heavenly ready and ready on the first discard; "
    "winning on its first draw, the earthly hand and the heavenly ready. After a "
    "tile swap there is no heavenly or earthly hand.",
)

INTERPRETATIONS: dict[str, tuple[Interpretation, ...]] = {
    "erren": (
        Interpretation(
            "tiles",
            "Both exist as rule sets: `erren` (72",
            "同一份资料一处说 72 张（万、风、箭、花），另一处说 64 张（没有花牌）。"
            "本站两种都有：这里是 72 张的二人麻将，64 张的是「二人麻将手游版」。",
            "The same document says 72 tiles (characters, winds, dragons, flowers) "
            "in one place and 64 (no flowers) in another. The site has both: this "
            "is the 72-tile game; the 64-tile one is the mobile version.",
        ),
        _MIN8,
        _FIRST_TURN,
        Interpretation(
            "big_three_winds",
            "**大三风 24** (3 wind pungs) is MCR's 三风刻",
            "「大三风」（三副风刻）就是国标的「三风刻」，这里值 24 番。",
            "The section's Big Three Winds (three wind pungs, called by another name there) is MCR's, worth 24 here.",
        ),
        Interpretation(
            "three_kongs",
            "**三杠** has no value in the section",
            "番种表没给三杠的番数，取同一资料 81 番表里的 32 番。",
            "The fan table gives Three Kongs no value; the site takes 32 from "
            "the same document's 81-fan list.",
        ),
        Interpretation(
            "ready_first",
            "**报听一发 4** does score with 报听 4",
            "报听一发和报听一起计：否则报听一发只是把 4 番换成 4 番，毫无意义。",
            "Ready, first discard scores together with Ready; otherwise it would "
            "only replace 4 fan by 4 fan.",
        ),
        Interpretation(
            "flowers",
            "The set fans stack with the per-flower 花牌",
            "花牌每张 1 番；集齐梅兰竹菊或春夏秋冬另加 4 番；一张花都没有计无花牌 4 番。"
            "这些花牌番都不计入起和番。补花后和牌算自摸，不算杠上开花。",
            "Each flower scores 1; a full set of plants or seasons adds 4 more; no "
            "flower at all scores No Flowers (4). None of these count toward the "
            "minimum. A win on a flower's replacement tile is self-drawn, not "
            "Out with Replacement Tile.",
        ),
        Interpretation(
            "self_drawn",
            'Two seats → one payer; we take "自摸不加倍"',
            "计分一节照搬四人麻将「自摸×3方」，游戏说明又说「自摸不加倍」。两人对局只有一个输家，"
            "本站按「自摸不加倍」。",
            "One section copies four-player scoring (self-drawn × 3 payers) while the "
            "game notes say self-drawn wins are not doubled. With one opponent there "
            "is one payer: the site does not double self-drawn wins.",
        ),
        Interpretation(
            "seven_pairs_specials",
            "**四喜七对 48 / 三元七对 48**",
            "四喜七对、三元七对（含四风或三元对子的七对）代替七对计分；两者兼有就是大七星。",
            "Four-winds and three-dragons seven pairs replace Seven Pairs; a hand "
            "with both is Big Seven Stars.",
        ),
        _UNION,
        _RAKE,
    ),
    "mcr": (_UNION, _RAKE, _CAP),
    "erren64": (
        Interpretation(
            "fans",
            "re-uses the `mcr` fans with their values",
            "这份资料的番种表就是国标 81 番，本站沿用国标番值，去掉只有万子和字牌时不可能成的番种。",
            "The document's fan list is MCR's 81; the site uses MCR's values, leaving "
            "out the fans one suit and honours can never make.",
        ),
        Interpretation(
            "turned_tile",
            "describes turned-up tiles that score nothing we can define",
            "第 81 番「花牌：起手随机翻出一张…」没有说番数和作用，本站不计。",
            "The 81st entry (a turned-up 'flower' tile) gives no value or effect; "
            "the site does not score it.",
        ),
        Interpretation(
            "two_concealed_kongs",
            "we use 6 (seed 004)",
            "双暗杠按这份资料计 6 番（另一份资料写 8 番）。",
            "Two Concealed Kongs scores 6 as this document says (another gives 8).",
        ),
        _MIN8,
        _RAKE,
    ),
    "jj": (
        Interpretation(
            "bonus",
            "**Once per bonus kind**",
            "加番牌：手里有这张牌就加 10 番，有几张也只加一次；吃碰杠的牌也算。加番不计入起和番。",
            "Bonus tile: holding it adds 10 fan once, however many copies; melds "
            "count. It does not count toward the minimum.",
        ),
        Interpretation(
            "missing_list",
            "The text stops in the middle of the 2番 list",
            "原文在 2 番列表中途断了，1 番列表整个缺失；缺的番种取国标的。",
            "The document stops in the middle of its 2-fan list and has no 1-fan "
            "list; the missing fans are MCR's.",
        ),
        Interpretation(
            "self_drawn_8",
            "**自摸 8 keeps its value**",
            "这里自摸值 8 番，所以妙手回春、杠上开花、不求人不再「不计自摸」，否则反而少算。",
            "Self-drawn is worth 8 here, so Last Tile Draw, Out with Replacement "
            "Tile and Fully Concealed Hand no longer drop it (they would lower the "
            "score).",
        ),
        Interpretation(
            "all_green",
            "`jj` follows it literally",
            "绿一色原文写「不记番：无」，本站照做：绿一色还可以同时计混一色或清一色。",
            "The document says All Green excludes nothing, and the site follows it: "
            "All Green also scores Half or Full Flush.",
        ),
        Interpretation(
            "seat_flower",
            "one fan per seat flower held",
            "季花：手里有和自己门风同序号的花牌（东：春、梅；西：秋、竹），每张 1 番，不计入起和番。",
            "Seat flower: each flower of your seat's number (East: spring, plum; "
            "West: autumn, bamboo) scores 1, not toward the minimum.",
        ),
        _MIN8,
        _FIRST_TURN,
        _RAKE,
    ),
    "liangren": (
        Interpretation(
            "wild",
            "we keep **one wild kind per hand**",
            "财神：开局翻出的牌定财神，每盘只有一种财神。白板当作财神牌原来的牌面。"
            "有财神的牌按最好的替代方式算番，每种牌总数不超过 4 张。",
            "Wilds: the tile turned up at the start names one wild kind per hand. "
            "White Dragons play the wild kind's own face. A hand with wilds scores "
            "its best reading, never with more than four of a tile.",
        ),
        Interpretation(
            "definitions",
            "Where seed 002's text differs from seed 003 we keep MCR's",
            "这份资料的番种说明和国标有出入时（多半是漏字），按国标的定义。",
            "Where this document's fan texts differ from MCR's (mostly dropped "
            "words), MCR's definitions apply.",
        ),
        Interpretation(
            "multipliers",
            "明牌 ×4 for each player who opened",
            "倍数：明牌每家 ×4（都明牌则相乘），加倍每家 ×2，报听后和牌（听牌胡）×2。",
            "Multipliers: open hand ×4 per player (multiplied when both open), "
            "double ×2 per player, a win after ready ×2.",
        ),
        _MIN8,
        _RAKE,
        _CAP,
    ),
    "youxi": (
        Interpretation(
            "pool",
            "We use **54**",
            "原文说「一家牌池占满」就流局，但没说多少张；本站定为 54 张，约等于牌墙摸完。",
            "The document says a full discard pool ends the hand but gives no size; "
            "the site uses 54, about when the wall runs out.",
        ),
        Interpretation(
            "minimum",
            "Minimum fan **1**",
            "番种表像日本麻将的役，没有无番和，最小 1 番，所以至少要有 1 番才能和。",
            "The table is yaku-style with no chicken hand and a smallest value of 1, "
            "so a win needs at least one fan.",
        ),
        Interpretation(
            "yakuman",
            "a 役满 replaces every non-役满 fan",
            "役满（20 番）代替所有非役满番种，几个役满可以叠加。",
            "A limit hand (20 fan) replaces every other fan; limit hands stack.",
        ),
        Interpretation(
            "wheels",
            "is read as 大车轮",
            "「一色双龙抱大车轮（筒）」按大车轮理解：筒子 22 33 44 55 66 77 88。",
            "The table's 'pure double dragon wheel (dots)' is read as Big Wheels: "
            "22 33 44 55 66 77 88 of dots.",
        ),
        Interpretation(
            "outside",
            "**全带幺** needs at least one chow",
            "全带幺要有顺子；没有顺子的是混幺九或清老头。",
            "Outside Hand needs a chow; without one the hand is All Terminals and "
            "Honours or All Terminals.",
        ),
        Interpretation(
            "ready",
            '报听 "游戏开始后任意时刻都可以选择报听',
            "可以报听（之后自动摸打），但番种表没有报听番，报听不加分。",
            "You may declare ready (then play is automatic), but the table has no "
            "fan for it, so it scores nothing.",
        ),
        _RAKE,
    ),
}
"""Every rule set's choices, in the order its page lists them."""
