"""Server-rendered SVG charts of the player pages (pygal, no script, no CDN).

pygal renders the SVG; :func:`_inline` strips what a page must not carry
(pygal's inline ``<script>`` config and comments with addresses), so the
chart is plain inline SVG that scales with its box (``viewBox`` only) and
reads the same on a phone.  Labels arrive translated by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygal
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

FELT = "#17463a"
GOLD = "#d4a93c"
INK = "#2b2b2b"

_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground=INK,
    foreground_strong=INK,
    foreground_subtle="#d9d2bf",
    opacity=".85",
    opacity_hover="1",
    colors=(FELT, GOLD),
    font_family="system-ui, 'PingFang SC', 'Noto Sans CJK SC', sans-serif",
    label_font_size=17,
    major_label_font_size=17,
    value_font_size=16,
    tooltip_font_size=16,
)

_EMPTY_STYLE = Style(**{**_STYLE.to_dict(), "no_data_font_size": 18})
"""A chart without data says so in a line of body text, not pygal's 64 px."""
EMPTY_HEIGHT = 80
"""Height of a chart without data (viewBox units, 400 wide)."""
_EMPTY_AXES = {
    "show_x_labels": False,
    "show_y_labels": False,
    "show_x_guides": False,
    "show_y_guides": False,
}
"""Without data pygal still draws its axes: labels piled up in the 80-unit
box and dashed guides through the "no data" line.  Only the line is kept."""


def _hide_axes(chart: pygal.graph.graph.Graph) -> None:
    for option, value in _EMPTY_AXES.items():
        setattr(chart, option, value)


_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _inline(svg: str, *, testid: str, title: str) -> SafeString:
    svg = _COMMENT.sub("", _SCRIPT.sub("", svg))
    svg = svg.replace(
        "<svg ",
        f'<svg data-testid="{testid}" role="img" aria-label="{_escape(title)}" ',
        1,
    )
    return mark_safe(svg)  # noqa: S308 - built from our numbers and escaped labels


def inline_svg(svg: str, *, testid: str, title: str) -> SafeString:
    """A pygal SVG as inline markup (no script, no comments), with its
    ``data-testid`` and accessible name; other apps' charts use it too."""
    return _inline(svg, testid=testid, title=title)


STYLE = _STYLE
"""The site's chart style (felt green and gold), for other apps' charts."""


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def rating_chart(
    *, ratings: Sequence[float], title: str, series: str, no_data: str
) -> SafeString:
    """A line of the rating after each rated hand (oldest first).

    ``ratings`` are μ values; ``title`` is the chart's accessible name,
    ``series`` the line's name, ``no_data`` the text shown without hands.
    Returns inline ``<svg data-testid="rating-chart">``.
    """
    chart = pygal.Line(
        style=_STYLE if ratings else _EMPTY_STYLE,
        js=[],
        disable_xml_declaration=True,
        explicit_size=False,
        width=400,
        height=240 if ratings else EMPTY_HEIGHT,
        show_legend=False,
        show_dots=len(ratings) <= 40,
        dots_size=3,
        fill=False,
        show_x_labels=False,
        show_y_guides=True,
        margin=8,
        no_data_text=no_data,
        value_formatter=lambda v: f"{v:.0f}",
        truncate_label=-1,
    )
    chart.add(series, [round(r, 1) for r in ratings], stroke_style={"width": 2.5})
    if not ratings:
        _hide_axes(chart)
    return _inline(chart.render(is_unicode=True), testid="rating-chart", title=title)


_BAR_STYLE = Style(**{**_STYLE.to_dict(), "value_colors": ("#ffffff",)})
"""Bar values are printed inside the felt-green bars: white, not ink."""
_WIDE_EXTRA = 9
"""Extra label-column width per CJK character (viewBox units) beyond what
pygal reserves for a character at ``label_font_size`` 17."""
_LABEL_CHARS = 18
"""Longer fan names (English) are cut to this many characters with "…"."""


def _wide(text: str) -> int:
    """How many characters of ``text`` are CJK (drawn about 1 em wide)."""
    return sum(1 for ch in text if ord(ch) >= 0x2E80)


def _short(name: str) -> str:
    return name if len(name) <= _LABEL_CHARS else name[: _LABEL_CHARS - 1] + "…"


def count_ticks(top: int) -> list[int]:
    """Whole-number ticks from 0 for an axis of counts up to ``top``.

    At most six ticks, a step of 1, 2 or 5 times a power of ten, the last
    tick at or above ``top`` (``count_ticks(3)`` → ``[0, 1, 2, 3]``,
    ``count_ticks(37)`` → ``[0, 10, 20, 30, 40]``).  A count axis has no
    fractions (pygal's own ticks went 0, 0.2, 0.4 … for counts up to 3).
    """
    top = max(1, int(top))
    scale = 1
    while True:
        for mult in (1, 2, 5):
            step = mult * scale
            if top <= step * 5:
                last = -(-top // step) * step
                return list(range(0, last + 1, step))
        scale *= 10


def fan_chart(
    *, fans: Sequence[tuple[str, int]], title: str, series: str, no_data: str
) -> SafeString:
    """Horizontal bars of the most frequent fans of a player's wins.

    ``fans`` are ``(name, count)``, most frequent first.  Returns inline
    ``<svg data-testid="fan-chart">``.
    """
    shown = list(fans)[::-1]  # pygal draws the first bar at the bottom
    names = [_short(name) for name, _n in shown]
    chart = pygal.HorizontalBar(
        style=_BAR_STYLE if shown else _EMPTY_STYLE,
        js=[],
        disable_xml_declaration=True,
        explicit_size=False,
        width=400,
        height=max(140, 34 * len(shown) + 44) if shown else EMPTY_HEIGHT,
        show_legend=False,
        print_values=True,
        margin=8,
        # pygal sizes the label column for Latin letters; a CJK character
        # is about twice as wide, so the names' first characters were cut
        margin_left=8 + _WIDE_EXTRA * max((_wide(n) for n in names), default=0),
        no_data_text=no_data,
        truncate_label=-1,
        show_x_guides=False,
        show_y_guides=False,
    )
    chart.x_labels = names
    chart.y_labels = count_ticks(max((n for _name, n in shown), default=0))
    chart.add(series, [n for _name, n in shown])
    if not shown:
        _hide_axes(chart)
    return _inline(chart.render(is_unicode=True), testid="fan-chart", title=title)
