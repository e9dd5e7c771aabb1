"""Display filters shared by the site's templates."""

import re

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from accounts.formats import thousands

register = template.Library()
register.filter("thousands", thousands)


@register.filter(name="data_name")
def data_name_filter(value: object) -> str:
    """``{{ level.name|data_name }}``: a stored name (level, level scheme,
    room) in the active language; see :func:`accounts.data_names.data_name`."""
    from accounts.data_names import data_name

    return data_name(value)


_SEED_SOURCE = re.compile(r"seed (?P<seed>\d+) · (?P<section>.+)")


@register.filter
def source_citation(value: object) -> SafeString:
    """A level table's stored source ("seed 000 · 二．等级级别称号积分") as a
    citation in the active language: the seed document's section heading is
    quoted as written there, in Chinese and marked so; another source is
    shown as stored, marked Chinese."""
    text = str(value or "")
    match = _SEED_SOURCE.fullmatch(text)
    if match is None:
        return format_html('<span lang="zh-Hans">{}</span>', text)
    return format_html(
        _("出处：seed {seed} 中的「{section}」一节"),
        seed=match["seed"],
        section=format_html('<span lang="zh-Hans">{}</span>', match["section"]),
    )
