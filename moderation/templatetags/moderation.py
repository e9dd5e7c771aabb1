"""Template tags of moderation: the 举报 form on Django pages, my reports.

``{% load moderation %}``.  The form is the Jinja2 partial the live table
uses (``games/partials/report_form.html``), inserted here so it exists once.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ..selectors import my_reports
from ..services.reports import player_report_refusal

register = template.Library()


def _details(*, url: str, key: str, summary_testid: str = "report") -> SafeString:
    form = engines["jinja2"].get_template("games/partials/report_form.html")
    html = form.render(
        {"report_url": url, "key": key, "error": None, "category": "", "text": ""}
    )
    return SafeString(
        f'<details class="mj-report page-report" id="mj-report-{key}">'
        f'<summary data-testid="{summary_testid}">{_("举报")}</summary>{html}'
        "</details>"
    )


@register.simple_tag(takes_context=True)
def hand_report_form(context: Any, hand: Any) -> SafeString:
    """The 举报 details of a hand page (record, replay) for one of its players.

    Empty for other viewers (staff) and practice hands.
    """
    user = context.get("user") or getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated or hand.practice:
        return SafeString("")
    if hand.seat_of(user.pk) is None:
        return SafeString("")
    url = reverse("moderation:report_hand", args=[hand.pk])
    return _details(url=url, key=str(hand.pk))


@register.simple_tag(takes_context=True)
def player_report_form(context: Any, profile: Any) -> SafeString:
    """The 举报 details of a player page, for a signed-in other person.

    Empty on one's own page; where the report service would refuse (a bot,
    a player never met: ``player_report_refusal``) its reason as a short
    note in place of the form, so nobody opens a form only to be refused.
    """
    user = context.get("user") or getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated or profile.user_id == user.pk:
        return SafeString("")
    refusal = player_report_refusal(reporter_id=user.pk, suspect=profile.user)
    if refusal is not None:
        return format_html(
            '<p class="muted mj-report-none page-report" role="note"'
            ' data-testid="report-refused">{}</p>',
            refusal,
        )
    url = reverse("moderation:report_player", args=[profile.nickname])
    return _details(url=url, key=f"p{profile.pk}")


@register.inclusion_tag("moderation/my_reports.html", takes_context=True)
def my_reports_list(context: Any) -> dict[str, Any]:
    """The signed-in player's reports and their status (profile page)."""
    user = context.get("user")
    return {"reports": my_reports(user=user) if user else []}
