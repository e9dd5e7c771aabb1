"""Display names: rule sets, fans, the computer opponent, seat winds, and the
words of the claim prompt and of the pre-deal / 加倍 choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from mahjong_site.language import current_language


def ruleset_name(name: Any) -> str:
    """Display name of rule set ``name`` (``erren`` → ``二人麻将``)."""
    from games.rules.rulesets import get as get_ruleset

    try:
        rs = get_ruleset(str(name))
    except (KeyError, ValueError):
        return str(name)
    lang = (current_language() or "zh-hans").lower()
    en = getattr(rs, "en", None)
    return str(en) if lang.startswith("en") and en else str(getattr(rs, "zh", name))


def ruleset_tagline(name: Any) -> str:
    """One line describing rule set ``name`` (games.rulesite.texts.tagline)."""
    from games.rules.rulesets import get as get_ruleset
    from games.rulesite.texts import tagline

    try:
        return tagline(get_ruleset(str(name)))
    except KeyError:
        return ""


def fan_name(fan_id: Any, ruleset: str = "") -> str:
    """Name of fan ``fan_id`` in ``ruleset`` (Chinese, or English; else the id)."""
    from games.rules.rulesets import get as get_ruleset

    if not fan_id:
        return ""
    try:
        fan = get_ruleset(ruleset or "erren").fan(str(fan_id))
    except (KeyError, ValueError):
        return str(fan_id)
    lang = (current_language() or "zh-hans").lower()
    en = getattr(fan, "en", None)
    return str(en) if lang.startswith("en") and en else str(getattr(fan, "zh", fan_id))


BOT_LEVEL_LABELS = {
    "easy": gettext_lazy("简单"),
    "normal": gettext_lazy("普通"),
    "hard": gettext_lazy("困难"),
}
"""Bot level (keys of ``games.engine.bots.LEVELS``) → the name the lobby offers."""


def bot_name(level: str | None) -> str:
    """The computer opponent's display name: ``电脑（普通）`` (``Computer (Normal)``).

    One name everywhere (table plate, records, lobby); an unknown or empty
    level gives plain ``电脑``.
    """
    label = BOT_LEVEL_LABELS.get(level or "")
    if label is None:
        return str(_("电脑"))
    return _("电脑（%(level)s）") % {"level": label}


def bot_name_filter(level: Any) -> str:
    """Template form of :func:`bot_name`."""
    return bot_name(str(level) if level else None)


SEAT_WINDS = {
    "1z": (gettext_lazy("东位"), gettext_lazy("东")),
    "2z": (gettext_lazy("南位"), gettext_lazy("南")),
    "3z": (gettext_lazy("西位"), gettext_lazy("西")),
    "4z": (gettext_lazy("北位"), gettext_lazy("北")),
}
"""Seat wind code → (its seat's name, the one-character mark on the avatar):
``东位``/``East seat`` and ``东``/``E``."""


def seat_wind(code: Any, short: Any = False) -> str:
    """The seat named by its wind: ``"1z"`` → ``东位`` (``East seat``), or with
    ``short`` true ``东`` (``E``).  An unknown code gives ``""``."""
    names = SEAT_WINDS.get(str(code or ""))
    if names is None:
        return ""
    return str(names[1] if short else names[0])


CLAIM_WORDS = {
    "hu": pgettext_lazy("claim", "和"),
    "rob": pgettext_lazy("claim", "抢杠和"),
    "kong": pgettext_lazy("claim", "杠"),
    "pung": pgettext_lazy("claim", "碰"),
    "chi": pgettext_lazy("claim", "吃"),
}
"""A claim's word in the claim prompt (``可以碰``), in the prompt's order."""


def claim_text(actions: Any, phase: Any = None) -> str:
    """The claim prompt naming exactly the claims offered (issue 11 §4).

    ``actions`` is the frame's ``actions`` (games.presenters); ``phase``
    ``claim`` or ``rob``.  Returns e.g. ``可以碰`` when only 碰 is offered,
    ``可以吃、碰`` for both, ``可以抢杠和`` in a rob window; ``""`` when
    nothing but 过 is offered.
    """
    if not isinstance(actions, Mapping):
        return ""
    words = []
    if actions.get("hu"):
        words.append(CLAIM_WORDS["rob" if phase == "rob" else "hu"])
    for key in ("kong", "pung", "chi"):
        if actions.get(key):
            words.append(CLAIM_WORDS[key])
    if not words:
        return ""
    sep = pgettext("claim list separator", "、")
    return _("可以%(claims)s") % {"claims": sep.join(str(w) for w in words)}


def choice_text(actions: Any, phase: Any) -> str:
    """The prompt of the seat's own pre-deal or 加倍 choice, naming exactly
    the choices offered: the turn bar shows it and the screen reader says it
    (``data-say``), one decision for both.

    ``actions`` is the frame's ``actions`` (games.presenters); ``phase``
    ``pre_deal`` (明牌 and/or 开始加倍, as the rule set offers) or
    ``double``.  ``""`` in any other phase.
    """
    if phase == "double":
        return _("是否加倍？")
    if phase != "pre_deal":
        return ""
    pre = actions.get("pre_deal") if isinstance(actions, Mapping) else None
    pre = pre if isinstance(pre, Mapping) else {}
    if pre.get("open") and pre.get("double"):
        return _("开局前：明牌或加倍？")
    if pre.get("open"):
        return _("开局前：明牌吗？")
    return _("开局前：加倍吗？")
