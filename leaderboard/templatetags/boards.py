"""Template helpers of the boards and player pages: labels, values, movement, badges."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

register = template.Library()

BOARD_LABELS = {
    "points": _("实力积分"),
    "coins": _("游戏币"),
    "rating": _("等级分"),
    "winrate": _("胜率"),
    "maxfan": _("最大番"),
}
PERIOD_LABELS = {
    "day": _("今日"),
    "week": _("本周"),
    "month": _("本月"),
    "all": _("总榜"),
}


@register.filter
def board_label(board: str) -> str:
    """``points`` → 实力积分 (translated)."""
    return str(BOARD_LABELS.get(board, board))


@register.filter
def period_label(period: str) -> str:
    """``week`` → 本周 (translated)."""
    return str(PERIOD_LABELS.get(period, period))


@register.simple_tag
def board_url(key: Any, **changes: Any) -> str:
    """The board page URL for ``key`` with some parts changed (page reset)."""
    parts = {"board": key.board, "period": key.period, "ruleset": key.ruleset}
    parts.update({k: v for k, v in changes.items()})
    query = {k: v for k, v in parts.items() if v}
    return "?" + urlencode(query)


@register.filter
def board_value(value: float, board: str) -> str:
    """A board's value as shown: thousands, a rating, a percentage, N 番."""
    if board == "winrate":
        return f"{value * 100:.1f}%"
    if board == "maxfan":
        return str(_("%(n)s 番") % {"n": int(value)})
    return f"{round(value):,}"


@register.simple_tag
def rank_move(row: Any) -> SafeString:
    """▲3 / ▼1 / new / – for a board row (``data-testid="rank-move"``)."""
    if row.new:
        return format_html(
            '<span class="rank-move is-new" data-testid="rank-move"'
            ' data-move="new">{}</span>',
            _("新"),
        )
    if row.move is None:
        return SafeString("")
    if row.move > 0:
        return format_html(
            '<span class="rank-move is-up" data-testid="rank-move" data-move="{}"'
            ' title="{}">▲{}</span>',
            row.move,
            _("比昨天上升"),
            row.move,
        )
    if row.move < 0:
        return format_html(
            '<span class="rank-move is-down" data-testid="rank-move" data-move="{}"'
            ' title="{}">▼{}</span>',
            row.move,
            _("比昨天下降"),
            -row.move,
        )
    return format_html(
        '<span class="rank-move" data-testid="rank-move" data-move="0"'
        ' title="{}">–</span>',
        _("名次不变"),
    )


@register.simple_tag
def level_badge(level: Any, size: int = 20) -> SafeString:
    """The level's own badge (``static/badges/<scheme>/<rank>.svg``) and its name."""
    from accounts.badges import badge_path
    from accounts.data_names import data_name

    if level is None:
        return SafeString("")
    return format_html(
        '<span class="level-chip" data-level="{}"><img class="level-icon" src="{}"'
        ' width="{}" height="{}" alt="">{}</span>',
        level.rank,
        static(badge_path(level)),
        size,
        size,
        data_name(level.name),
    )


@register.filter
def percent(value: Any) -> str:
    """A fraction 0..1 as ``42.5%``."""
    try:
        return f"{float(value) * 100:.1f}%"
    except (TypeError, ValueError):
        return "—"


@register.filter
def player_rate(page: Any, part: str) -> float | None:
    """``data|player_rate:"wins"``: the player's rate of ``part`` per hand."""
    rate: float | None = page.rate(part)
    return rate


@register.filter
def signed_thousands(value: Any) -> str:
    """``+1,200`` / ``-350``."""
    try:
        return f"{int(value):+,}"
    except (TypeError, ValueError):
        return str(value)


@register.filter
def rating_change(seat: Any) -> str:
    """A hand's rating change, ``+12`` / ``-8`` (rounded)."""
    if seat.rating_after is None or seat.rating_before is None:
        return ""
    return f"{round(seat.rating_after - seat.rating_before):+d}"
