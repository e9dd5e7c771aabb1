"""Small charts of the case page (pygal SVG inline, as the player pages)."""

from __future__ import annotations

from collections.abc import Sequence

import pygal
from django.utils.safestring import SafeString

from leaderboard.charts import STYLE, inline_svg


def flow_chart(*, flow: Sequence[int], title: str, no_data: str) -> SafeString:
    """Cumulative net coins to the reported player, hand after hand."""
    chart = pygal.Line(
        style=STYLE,
        js=[],
        disable_xml_declaration=True,
        explicit_size=False,
        width=400,
        height=200,
        show_legend=False,
        show_dots=len(flow) <= 40,
        dots_size=3,
        show_x_labels=False,
        margin=8,
        no_data_text=no_data,
        value_formatter=lambda v: f"{v:+,.0f}",
    )
    chart.add(title, list(flow), stroke_style={"width": 2.5})
    return inline_svg(chart.render(is_unicode=True), testid="flow-chart", title=title)


def timing_chart(
    *,
    groups: Sequence[tuple[str, float | None, float | None, float | None]],
    title: str,
    series: tuple[str, str, str],
    no_data: str,
) -> SafeString:
    """Median decision time per group: reported hands, own baseline, site."""
    chart = pygal.Bar(
        style=STYLE,
        js=[],
        disable_xml_declaration=True,
        explicit_size=False,
        width=400,
        height=220,
        show_legend=True,
        legend_at_bottom=True,
        margin=8,
        no_data_text=no_data,
        value_formatter=lambda v: f"{v:.1f}s",
    )
    chart.x_labels = [g[0] for g in groups]
    for i, name in enumerate(series):
        chart.add(name, [g[i + 1] for g in groups])
    return inline_svg(chart.render(is_unicode=True), testid="timing-chart", title=title)
