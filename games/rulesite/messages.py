"""Calculator explanations in people's words (gettext), from :class:`CalcError`."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.display.tiles import tile_name
from games.rules.errors import NotationProblem

from .calculator import CalcError, ErrorCode


def explain(error: CalcError) -> str:
    """One sentence saying what is wrong and how to fix it."""
    c = error.code
    if c is ErrorCode.UNKNOWN_RULESET:
        return _("没有名为「%(name)s」的规则，已改用默认规则。") % {
            "name": error.detail
        }
    if c is ErrorCode.TOO_LONG:
        return _("输入太长（最多 %(n)s 个字符）。") % {"n": error.count}
    if c is ErrorCode.NOTATION:
        structural = _notation_problem(error)
        if structural:
            return structural
        if error.position is not None:
            return _(
                "记法有误：第 %(n)s 个字符看不懂。"
                "牌写作 1-9 加 m（万）p（筒）s（条），"
                "1-7 加 z（东南西北白发中），1-8 加 f（花）。"
            ) % {"n": error.position + 1}
        return _(
            "记法有误。牌写作 1-9 加 m（万）p（筒）s（条），"
            "1-7 加 z（东南西北白发中），1-8 加 f（花）。"
        )
    if c is ErrorCode.BAD_MELD:
        return _(
            "方括号里要是一副牌：吃（如 [123s]）、碰（[777z]）"
            "或杠（[1111m]，暗杠 [1111m]*）。"
        )
    if c is ErrorCode.BAD_FLOWER:
        return _("花牌写在 + 后面（如 +1f5f），+ 后面只能是花牌。")
    if c is ErrorCode.NOT_IN_RULESET:
        return _("这套规则的牌墙里没有%(tile)s。") % {"tile": tile_name(error.tile)}
    if c is ErrorCode.NO_FLOWERS:
        return _("这套规则没有花牌。")
    if c is ErrorCode.DUPLICATE_FLOWER:
        return _("每种花牌只有一张：%(tile)s 重复了。") % {
            "tile": tile_name(error.tile)
        }
    if c is ErrorCode.TOO_MANY_COPIES:
        return _("%(tile)s 有 %(n)s 张，每种牌最多 4 张。") % {
            "tile": tile_name(error.tile),
            "n": error.count,
        }
    if c is ErrorCode.TOO_MANY_MELDS:
        return _("最多 4 副吃碰杠，这里有 %(n)s 副。") % {"n": error.count}
    if c is ErrorCode.WRONG_COUNT:
        lo, hi = error.expected
        return _(
            "手牌张数不对：现在 %(n)s 张。按这些吃碰杠，手里应有 %(lo)s 张（看听牌）"
            "或 %(hi)s 张（算番，最后一张是和张）。"
        ) % {"n": error.count, "lo": lo, "hi": hi}
    if c is ErrorCode.BAD_OPTION:
        return _("牌局情形填得不对：%(detail)s") % {"detail": _option_problem(error)}
    if c is ErrorCode.NOT_A_WIN:
        return _("这手牌没有和：凑不成这套规则允许的牌型。下面是打哪张牌最好。")
    if c is ErrorCode.BELOW_MINIMUM:
        return _(
            "牌型成了，但只有 %(n)s 番，这套规则要 %(min)s 番才能和（花牌等不计入）。"
        ) % {
            "n": error.count,
            "min": error.expected[0] if error.expected else 0,
        }
    if c is ErrorCode.IMPOSSIBLE:
        known = _engine_reason(error.detail)
        if known:
            return _("这种情形不可能出现：%(detail)s") % {"detail": known}
        return _("这种情形不可能出现：%(detail)s") % {"detail": error.detail}
    return error.detail


# The engine refuses impossible situations with InvalidHandError and a
# developer's message (no error code yet: asked for on BOARD.md).  These
# fragments of its messages (games/rules/scoring.py, first_turn.py,
# wild_scoring.py) get a sentence in people's words; any other refusal is
# shown with the engine's own text.  One place, to be replaced by the code.
_ENGINE_REASONS = (
    ("needs a declared kong", gettext_noop("杠上开花要有杠：先加一副明杠或暗杠。")),
    (
        "the robbed tile cannot be held",
        gettext_noop("抢杠和抢的那张牌不能同时在自己的手牌或吃碰杠里。"),
    ),
    (
        "a copy of the winning tile is in the concealed hand",
        gettext_noop("和绝张是这种牌的最后一张：自己手里不能还有同样的牌。"),
    ),
    (
        "only one of heavenly/earthly/human",
        gettext_noop("天胡、地胡、人胡只能选一个。"),
    ),
    ("is a self-drawn win", gettext_noop("天胡、地胡都是自摸，请勾选自摸。")),
    (
        "win on the dealer's first discard",
        gettext_noop("人胡是和庄家打出的第一张牌，不是自摸。"),
    ),
    ("is the dealer's", gettext_noop("天胡是庄家的：门风要选东。")),
    ("is the non-dealer's", gettext_noop("地胡、人胡是闲家的：门风不能选东。")),
    (
        "with a meld is impossible",
        gettext_noop(
            "天胡、地胡、人胡之前不可能有吃、碰、杠（暗杠也不行）：请去掉副露。"
        ),
    ),
    ("not a robbed kong", gettext_noop("人胡是和庄家打出的第一张牌，不是抢杠和。")),
    (
        "before any 报听",
        gettext_noop(
            "天胡在庄家打出任何牌之前，那时还没有报听：请去掉报听、天听和报听一发。"
        ),
    ),
    (
        "needs heavenly_ready",
        gettext_noop("人胡时的报听一发只能来自天听（闲家发完牌就报听）：请勾选天听。"),
    ),
    ("cannot be in a claimed meld", gettext_noop("财神不能打出，也不能吃、碰、明杠。")),
)


def _notation_problem(error: CalcError) -> str:
    """A bracket, '+', '*' or "'" in the wrong place, in words; "" for an
    unreadable character (the caller names its position)."""
    n = (error.position or 0) + 1
    p = error.problem
    if p == NotationProblem.UNCLOSED_BRACKET:
        return _("记法有误：第 %(n)s 个字符的 [ 没有配对的 ]。") % {"n": n}
    if p == NotationProblem.STRAY_CLOSE:
        return _("记法有误：第 %(n)s 个字符的 ] 前面没有 [。") % {"n": n}
    if p == NotationProblem.NESTED_BRACKETS:
        return _("记法有误：第 %(n)s 个字符：方括号不能套方括号。") % {"n": n}
    if p == NotationProblem.EMPTY_MELD:
        return _("记法有误：第 %(n)s 个字符的 [] 里没有牌。") % {"n": n}
    if p == NotationProblem.MELD_AFTER_FLOWERS:
        return _("记法有误：吃碰杠要写在 + 和花牌的前面。")
    if p == NotationProblem.MISPLACED_MARK:
        return _(
            "记法有误：第 %(n)s 个字符：* 紧跟在暗杠的 ] 后面（如 [1111m]*），"
            "' 只用在方括号里。"
        ) % {"n": n}
    if p == NotationProblem.SECOND_PLUS:
        return _("记法有误：第 %(n)s 个字符：只能有一个 +，花牌都写在它后面。") % {
            "n": n
        }
    return ""


def _option_problem(error: CalcError) -> str:
    """What is wrong with a situation field, in words (from its codes)."""
    field = {
        "seat": _("门风"),
        "round": _("圈风"),
        "first": _("天胡/地胡/人胡"),
        "bonus": _("加番牌"),
        "wild": _("财神"),
    }.get(error.field, error.field)
    p = error.problem
    if p == "wind":
        return _("%(field)s要选东、南、西、北之一（1z–4z）。") % {"field": field}
    if p == "first":
        return _("%(field)s只能是天胡、地胡、人胡之一，或不选。") % {"field": field}
    if p == "one_tile":
        return _("%(field)s只能填一张牌。") % {"field": field}
    if p == "not_in_ruleset":
        return _("%(field)s%(tile)s不在这套规则的牌里。") % {
            "field": field,
            "tile": tile_name(error.tile),
        }
    if p == "notation" and error.field in ("seat", "round"):
        # seat=9 in a link is no tile at all: say what the field takes
        return _("%(field)s要选东、南、西、北之一（1z–4z）。") % {"field": field}
    if p == "notation":
        return _(
            "%(field)s的写法看不懂：牌写作 1-9 加 m（万）p（筒）s（条）z（字，1-7）。"
        ) % {"field": field}
    return _("%(field)s填得不对。") % {"field": field}


def _engine_reason(detail: str) -> str:
    for fragment, words in _ENGINE_REASONS:
        if fragment in detail:
            return _(words)
    return ""


def explain_edit(code: str, *, tile: str = "", count: int = 0) -> str:
    """Why a click did not change the hand (``tile`` and ``count``: the
    ``too_many_copies`` click's tile and the copies it would have made)."""
    if code == "too_many_copies":
        return _("这样会有 %(n)s 张%(tile)s：每种牌只有 4 张。手牌没有改变。") % {
            "n": count,
            "tile": tile_name(tile),
        }
    if code == "chi_range":
        return _("吃要从这张牌往上连三张：这张牌不能作吃的第一张。")
    if code == "unreadable":
        return _("先改正上面的记法，再点牌。")
    return _("这一下没看懂，手牌没有改变。")
