"""Template helpers of the rules site and the calculator."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from mahjong_site.language import current_language

register = template.Library()


def _english() -> bool:
    return (current_language() or "zh-hans").lower().startswith("en")


@register.filter
def name_of(obj: Any) -> str:
    """The display name of anything with ``zh`` and ``en`` (a fan, a rule set)."""
    if _english() and bool(getattr(obj, "en", "")):
        return str(obj.en)
    return str(getattr(obj, "zh", obj))


@register.filter
def other_name(obj: Any) -> str:
    """The name in the other language (shown small beside :func:`name_of`)."""
    if _english():
        return str(getattr(obj, "zh", ""))
    return str(getattr(obj, "en", ""))


@register.simple_tag
def bilingual(obj: Any) -> SafeString:
    """``中文名 <small lang=en>English</small>`` in the page's language order."""
    other = other_name(obj)
    lang = "zh-Hans" if _english() else "en"
    if not other:
        return format_html("{}", name_of(obj))
    return format_html(
        '{} <small class="other-name" lang="{}">{}</small>', name_of(obj), lang, other
    )


@register.filter
def by_name(item: Any) -> str:
    """The excluding fan's name of a calculator ``NotCounted`` item."""
    if _english() and bool(getattr(item, "by_en", "")):
        return str(item.by_en)
    return str(getattr(item, "by_zh", "") or getattr(item, "by_id", ""))


@register.filter
def listing(items: Any, separator: str = "") -> str:
    """Join ``items`` with the language's list separator (``、`` / ``, ``);
    ``separator`` ``"；"`` joins with the translated semicolon."""
    from django.utils.translation import gettext, pgettext

    semicolon = separator == "；"
    sep = gettext("；") if semicolon else pgettext("list separator", "、")
    return sep.join(str(i) for i in items or ())
