"""The site's words for rule-set facts (systems, seats, flow, settlement).

Every sentence is filled in from the rule set's data (its systems, factors,
limits, timers, tiles); the wording is ours, through gettext, so the page
is Chinese first with an English translation.  Call these inside a request
(the active language decides the words).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from games.engine.settle import DEFAULT_FACTORS
from games.rules.rulesets.base import Claim, RuleSet, System

SYSTEM_NAMES = {
    System.READY: gettext_noop("报听"),
    System.OPEN_HAND: gettext_noop("明牌"),
    System.START_DOUBLE: gettext_noop("开始加倍"),
    System.DEAL_DOUBLE: gettext_noop("加倍"),
    System.WIN_DOUBLE: gettext_noop("胡加倍"),
    System.TASK_DOUBLE: gettext_noop("任务加倍"),
    System.SWAP: gettext_noop("换牌"),
    System.BONUS_TILE: gettext_noop("加番牌"),
    System.WILD: gettext_noop("财神"),
    System.FLOWERS: gettext_noop("补花"),
}
"""Every system a rule set can switch on, in the order the pages list them."""

CLAIM_NAMES = {
    Claim.CHI: gettext_noop("吃"),
    Claim.PUNG: gettext_noop("碰"),
    Claim.KONG: gettext_noop("杠"),
    Claim.WIN: gettext_noop("和"),
}


@dataclass(frozen=True, slots=True)
class SystemText:
    """One special system as a page shows it: ``key`` (the System value),
    ``name`` and ``text`` in the active language."""

    key: str
    name: str
    text: str


def factor(rs: RuleSet, key: str) -> int:
    """The rule set's factor for ``key`` (as games.engine.settle reads it)."""
    return int(rs.multipliers.get(key, DEFAULT_FACTORS.get(key, 2)))


def _fan_points(rs: RuleSet, fan_id: str) -> int | None:
    for f in rs.fans:
        if f.id == fan_id:
            return f.points
    return None


def system_text(rs: RuleSet, system: System) -> str:
    """Describe ``system`` as ``rs`` has it (its factors and limits)."""
    if system is System.READY:
        pts = _fan_points(rs, "READY_HAND")
        text = _("听牌后可以报听：手牌锁定，系统自动摸牌打牌，能和牌时再询问。")
        if pts:
            text += " " + _("报听后和牌计「报听」%(n)s 番。") % {"n": pts}
        elif "ready_win" in rs.multipliers:
            text += " " + _("报听后和牌为「听牌胡」，倍数 ×%(f)s。") % {
                "f": factor(rs, "ready_win")
            }
        else:
            text += " " + _("本规则的番种表没有报听番，报听不加分。")
        return text
    if system is System.OPEN_HAND:
        return _(
            "发牌前可以选择明牌：对手看得到你的手牌，倍数 ×%(f)s；"
            "两家都明牌则倍数相乘（×%(ff)s）。"
        ) % {"f": factor(rs, "open_hand"), "ff": factor(rs, "open_hand") ** 2}
    if system is System.START_DOUBLE:
        f = factor(rs, "start_double")
        return _(
            "发牌前每人有一次选择本局加倍的机会：底番 ×%(f)s，两家都加倍则 ×%(ff)s。"
        ) % {"f": f, "ff": f * f}
    if system is System.DEAL_DOUBLE:
        return _("发完牌后、庄家出第一张牌前，每人可以选择加倍，倍数 ×%(f)s。") % {
            "f": factor(rs, "deal_double")
        }
    if system is System.WIN_DOUBLE:
        return _(
            "可以放弃本次和牌机会，再次和牌时加倍：加倍 n 次得 (底番 + 2n) × 2ⁿ，"
            "最多 %(n)s 次。"
        ) % {"n": rs.max_win_doubles}
    if system is System.TASK_DOUBLE:
        return _(
            "每盘开始时随机出一个任务（碰牌、番型、杠牌或加倍任务），"
            "和牌者完成任务则另加 底番 × %(f)s。"
        ) % {"f": factor(rs, "task_double")}
    if system is System.SWAP:
        return _("每盘最多换 %(n)s 张牌，第一张免费。") % {"n": rs.max_swaps}
    if system is System.BONUS_TILE:
        pts = _fan_points(rs, "BONUS_TILE") or 0
        return _(
            "开局前随机设定一张加番牌；和牌时手里（吃、碰、杠的牌也算）有这张牌，"
            "结算时另加 %(n)s 番，不计入起和番。"
        ) % {"n": pts}
    if system is System.WILD:
        return _(
            "开局翻出一张牌，这种牌就是财神：和牌时可以代替任何牌。"
            "财神不能打出，也不能用来吃；白板代替财神牌原来的牌面。"
        )
    if system is System.FLOWERS:
        return _("摸到花牌要放在一边，从牌墙补一张；花牌在和牌后才计番，不计入起和番。")
    return ""


def systems(rs: RuleSet) -> list[SystemText]:
    """The rule set's special systems, in :data:`SYSTEM_NAMES` order."""
    return [
        SystemText(s.value, _(name), system_text(rs, s))
        for s, name in SYSTEM_NAMES.items()
        if s in rs.systems
    ]


def claims(rs: RuleSet) -> str:
    """The claims on a discard, e.g. ``吃、碰、杠、和``."""
    return _("、").join(_(n) for c, n in CLAIM_NAMES.items() if c in rs.claims)


def multiplier_parts(rs: RuleSet) -> list[str]:
    """The factors that make up 倍数, e.g. ``明牌 ×4（每家）``."""
    out = []
    if System.OPEN_HAND in rs.systems:
        out.append(_("明牌 ×%(f)s（每家）") % {"f": factor(rs, "open_hand")})
    if System.DEAL_DOUBLE in rs.systems:
        out.append(_("加倍 ×%(f)s（每家）") % {"f": factor(rs, "deal_double")})
    if "ready_win" in rs.multipliers:
        out.append(_("听牌胡 ×%(f)s") % {"f": factor(rs, "ready_win")})
    return out


def fan_total_parts(rs: RuleSet) -> list[str]:
    """How 总番数 is made from 底番 when seed 000's doublings apply."""
    out = []
    if System.START_DOUBLE in rs.systems:
        out.append(_("开始加倍：底番 × 2 的加倍家数次方"))
    if System.WIN_DOUBLE in rs.systems:
        out.append(_("胡加倍 n 次：(底番 + 2n) × 2ⁿ"))
    if System.TASK_DOUBLE in rs.systems:
        out.append(_("任务加倍：底番 × %(f)s") % {"f": factor(rs, "task_double")})
    return out


WIND_NAMES = {
    "1z": gettext_noop("东风"),
    "2z": gettext_noop("南风"),
    "3z": gettext_noop("西风"),
    "4z": gettext_noop("北风"),
}
SEAT_NAMES = {
    "1z": gettext_noop("东位"),
    "2z": gettext_noop("南位"),
    "3z": gettext_noop("西位"),
    "4z": gettext_noop("北位"),
}


def situation_labels(inp: object) -> list[str]:
    """The non-default situation of a calculator input, in words
    (``["自摸", "杠上开花", "门风 西"]``)."""
    g = getattr
    out = []
    sd = bool(g(inp, "self_drawn", False))
    out.append(_("自摸") if sd else _("点和"))
    if g(inp, "kong", False):
        out.append(_("杠上开花") if sd else _("抢杠和"))
    if g(inp, "wall_last", False):
        out.append(_("妙手回春") if sd else _("海底捞月"))
    if g(inp, "last_tile", False):
        out.append(_("和绝张"))
    first = g(inp, "first", "")
    if first:
        out.append(
            {"heavenly": _("天胡"), "earthly": _("地胡"), "human": _("人胡")}[first]
        )
    if g(inp, "heavenly_ready", False):
        out.append(_("天听"))
    if g(inp, "ready_first", False):
        out.append(_("报听一发"))
    elif g(inp, "ready", False):
        out.append(_("报听"))
    seat, rnd = g(inp, "seat", "1z"), g(inp, "round", "1z")
    if seat != "1z":
        out.append(_(SEAT_NAMES.get(seat, seat)))
    if rnd != "1z":
        out.append(_("圈风 %(w)s") % {"w": _(WIND_NAMES.get(rnd, rnd))})
    bonus = g(inp, "bonus", "")
    if bonus:
        out.append(_("加番牌 %(t)s") % {"t": _tile_names(bonus)})
    wild = g(inp, "wild", "")
    if wild:
        out.append(_("财神 %(t)s") % {"t": _tile_names(wild)})
    return out


def _tile_names(text: str) -> str:
    from games.display.tiles import tile_name
    from games.rules.tiles import parse_tiles

    try:
        sep = pgettext("list separator", "、")
        return sep.join(tile_name(str(t)) for t in parse_tiles(text))
    except ValueError:
        return text


SOURCE_DOCUMENTS = {
    "seed 000": gettext_noop("《二人麻将》优嘻网游戏规则与百科词条"),
    "seed 001": gettext_noop("JJ《二人麻将》游戏规则"),
    "seed 002": gettext_noop("《两人麻将》游戏规则"),
    "seed 003": gettext_noop("《国际麻将》2329游戏中心"),
    "seed 004": gettext_noop("《二人麻将手游版怎么玩》游戏茶苑 2018"),
}
"""The five source documents (the repository's seeds), by seed id."""

SECTION_NAMES = {
    "游戏说明": gettext_noop("「游戏说明」一节"),
    "优嘻网": gettext_noop("「优嘻网」一节"),
}
"""Sections of a source named by ``RuleSet.sources`` (``seed 000 (游戏说明)``)."""


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source document: ``title`` in the active language and ``section``,
    the part used, as the rule set names it (Chinese, or ``""``)."""

    title: str
    section: str


def sources(rs: RuleSet) -> list[SourceText]:
    """The rule set's source documents by title, with the seed's number."""
    out = []
    for s in rs.sources:
        seed = " ".join(s.split()[:2])
        title = SOURCE_DOCUMENTS.get(seed)
        section = s[len(seed) :].strip().strip("()").replace(" section", "")
        if title is None:
            out.append(SourceText(s, ""))
            continue
        number = seed.split()[1]
        label = _("%(title)s（资料 %(n)s）") % {"title": _(title), "n": number}
        name = SECTION_NAMES.get(section)
        out.append(SourceText(label, _(name) if name else section))
    return out


def dealer_rule(rs: RuleSet) -> str:
    """Who deals the next hand.

    Read from ``RuleSet.dealer_rotation`` when the rule set carries it
    (``"winner"`` / ``"alternate"``, as ``games.engine.hand.next_deal``
    takes); until then the table passes nothing and ``next_deal``'s default,
    the winner deals, applies to every rule set.
    """
    rotation = getattr(rs, "dealer_rotation", "winner")
    if rotation == "alternate":
        return _("无论是否和牌，庄家不连庄：每盘换对方坐庄。")
    return _("第一盘随机定庄；之后和牌的一家坐庄，流局则原庄家继续坐庄。")


def fan_description(rs: RuleSet, fan_id: str) -> tuple[str, str]:
    """``(description, where it comes from)`` of a fan in the active language.

    Chinese pages quote the seed the rule set follows
    (:mod:`games.rules.fan_texts`); English pages give the English
    definition.  The second part names the quoted document, and says so
    when the rule set's own document is silent and MCR's (seed 003) is used.
    """
    from games.rules.fan_texts import SOURCE, description
    from mahjong_site.language import current_language

    found = description(rs.name, fan_id)
    if found is None:
        return "", ""
    english = (current_language() or "zh-hans").lower().startswith("en")
    text = found.en if english and found.en else found.zh
    if found.seed == "site":
        return text, _("本站的说明（原文只有名称）")
    number = found.seed.split()[-1]
    if found.seed != SOURCE.get(rs.name):
        return text, _("原文未说明，按资料 %(n)s（国标）") % {"n": number}
    if english:
        return text, _("按资料 %(n)s 翻译") % {"n": number}
    return text, _("资料 %(n)s 原文") % {"n": number}


@dataclass(frozen=True, slots=True)
class ChoiceText:
    """One of the site's readings of a rule set's source, in the active language."""

    key: str
    text: str


def interpretations(rs: RuleSet) -> list[ChoiceText]:
    """The rule set's choices (games.rules.interpretations, from RULES.md)."""
    from games.rules.interpretations import INTERPRETATIONS
    from mahjong_site.language import current_language

    english = (current_language() or "zh-hans").lower().startswith("en")
    return [
        ChoiceText(i.key, i.en if english else i.zh)
        for i in INTERPRETATIONS.get(rs.name, ())
    ]


def system_brief(rs: RuleSet, system: System) -> str:
    """A few words on ``system`` in ``rs`` for the comparison table
    (``""`` when the rule set does not have it)."""
    if system not in rs.systems:
        return ""
    if system is System.READY:
        pts = _fan_points(rs, "READY_HAND")
        if pts:
            return _("报听 %(n)s 番") % {"n": pts}
        if "ready_win" in rs.multipliers:
            return _("听牌胡 ×%(f)s") % {"f": factor(rs, "ready_win")}
        return _("有，不加分")
    if system in (System.OPEN_HAND, System.START_DOUBLE, System.DEAL_DOUBLE):
        key = {
            System.OPEN_HAND: "open_hand",
            System.START_DOUBLE: "start_double",
            System.DEAL_DOUBLE: "deal_double",
        }[system]
        return _("每家 ×%(f)s") % {"f": factor(rs, key)}
    if system is System.WIN_DOUBLE:
        return _("最多 %(n)s 次") % {"n": rs.max_win_doubles}
    if system is System.TASK_DOUBLE:
        return _("另加 底番 × %(f)s") % {"f": factor(rs, "task_double")}
    if system is System.SWAP:
        return _("最多 %(n)s 张，第一张免费") % {"n": rs.max_swaps}
    if system is System.BONUS_TILE:
        return _("另加 %(n)s 番") % {"n": _fan_points(rs, "BONUS_TILE") or 0}
    if system is System.WILD:
        return _("一种财神，白板代替")
    return _("%(n)s 张花牌") % {"n": len(rs.flowers)}


def tagline(rs: RuleSet) -> str:
    """One line on what makes ``rs`` its own game (the lobby's group headers).

    Numbers come from the rule set's data (tiles, minimum, factors); the
    words are ours.  ``""`` for a rule set without a line.
    """
    n = rs.wall_size
    if rs.name == "erren":
        return _(
            "%(n)s 张：万子、字牌和花牌。开始加倍、胡加倍、任务和换牌，番数翻得快。"
        ) % {"n": n}
    if rs.name == "mcr":
        return _("国标麻将：%(n)s 张牌、%(k)s 种番，%(m)s 番起和，比的是牌型。") % {
            "n": n,
            "k": len(rs.fans),
            "m": rs.min_fan,
        }
    if rs.name == "erren64":
        return _("%(n)s 张：只有万子和字牌。看过手牌后可以加倍（×%(d)s）。") % {
            "n": n,
            "d": factor(rs, "deal_double"),
        }
    if rs.name == "jj":
        return _(
            "%(n)s 张：条子、字牌和花牌。每盘一张加番牌，和牌时带着它另加 %(b)s 番。"
        ) % {"n": n, "b": _fan_points(rs, "BONUS_TILE") or 0}
    if rs.name == "liangren":
        return _(
            "%(n)s 张，翻牌定财神（白板代替）。明牌 ×%(o)s、加倍 ×%(d)s、"
            "听牌胡 ×%(r)s。"
        ) % {
            "n": n,
            "o": factor(rs, "open_hand"),
            "d": factor(rs, "deal_double"),
            "r": factor(rs, "ready_win"),
        }
    if rs.name == "youxi":
        return _(
            "%(n)s 张，役种式番表，%(m)s 番起和。随时可以报听；一家牌池满即流局。"
        ) % {"n": n, "m": rs.min_fan}
    return ""
