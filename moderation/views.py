"""Pages and posts of moderation for players: 举报 and appeals (thin views).

Each view parses the request, calls one service and renders the answer; the
report form is the one Jinja2 partial ``games/partials/report_form.html``
wherever it appears (htmx swaps the answer in place).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Profile
from games.models import HandRecord, Table

from .services.reports import ReportError, report_file

FORM = "games/partials/report_form.html"


def _form(
    request: HttpRequest,
    *,
    url: str,
    key: str,
    error: str | None = None,
    category: str = "",
    text: str = "",
) -> HttpResponse:
    context = {
        "report_url": url,
        "key": key,
        "error": error,
        "category": category,
        "text": text,
    }
    return render(request, FORM, context)


def _report(
    request: HttpRequest,
    *,
    url: str,
    key: str,
    back: str,
    hand: HandRecord | None = None,
    suspect: Any = None,
) -> HttpResponse:
    category = request.POST.get("category", "")
    text = request.POST.get("text", "")
    try:
        atom = report_file(
            reporter=request.user,  # type: ignore[arg-type]
            category=category,
            text=text,
            hand=hand,
            suspect=suspect,
        )
    except ReportError as exc:
        if getattr(request, "htmx", False):
            return _form(
                request, url=url, key=key, error=str(exc), category=category, text=text
            )
        messages.error(request, str(exc))
        return redirect(back)
    if atom.joined:
        # the truth, not "举报已提交": it joined the earlier report (the rule:
        # one atom per reporter and category of an open case)
        done = _(
            "你已举报过这位玩家，这份举报正在处理中；这次的说明和牌局已补充进去，"
            "不会重复计算。"
        )
    else:
        done = _("举报已提交，我们会在 24 小时内处理，结果以站内信通知。")
    if getattr(request, "htmx", False):
        return render(
            request,
            "moderation/report_done.html",
            {"done": done, "joined": atom.joined},
        )
    if atom.joined:
        messages.info(request, done)
    else:
        messages.success(request, done)
    return redirect(back)


@login_required
@require_POST
def report_hand(request: HttpRequest, hand_id: int) -> HttpResponse:
    """举报 a hand the user played (live or ended): its other player."""
    hand = get_object_or_404(
        HandRecord, Q(seat0=request.user) | Q(seat1=request.user), pk=hand_id
    )
    url = reverse("moderation:report_hand", args=[hand_id])
    back = reverse("games:hand_record", args=[hand_id])
    return _report(request, url=url, key=str(hand_id), back=back, hand=hand)


@login_required
@require_POST
def report_player(request: HttpRequest, nickname: str) -> HttpResponse:
    """举报 a player from their page: their recent hands against the user."""
    profile = get_object_or_404(
        Profile.objects.select_related("user"), nickname=nickname
    )
    url = reverse("moderation:report_player", args=[nickname])
    back = reverse("leaderboard:player", args=[nickname])
    return _report(
        request, url=url, key=f"p{profile.pk}", back=back, suspect=profile.user
    )


@login_required
@require_http_methods(["GET", "POST"])
def report_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """举报 from the table's top bar: the table's current (or last) hand.

    GET answers the form (loaded when the player opens 举报, so the page
    holds no second form while the settlement panel shows its own).
    """
    table = get_object_or_404(
        Table.objects.select_related("hand"),
        Q(seat0=request.user) | Q(seat1=request.user),
        pk=table_id,
    )
    hand = table.hand
    if hand is None or hand.practice:
        return HttpResponse(
            format_html(
                '<p class="muted mj-report-none" role="status">{}</p>',
                _("现在没有可以举报的牌局。"),
            )
        )
    url = reverse("moderation:report_table", args=[table_id])
    if request.method == "GET":
        return _form(request, url=url, key=f"t{table_id}")
    back = reverse("games:table", args=[table_id])
    return _report(request, url=url, key=f"t{table_id}", back=back, hand=hand)


@login_required
@require_POST
def appeal(request: HttpRequest, case_id: int) -> HttpResponse:
    """申诉: the reported player's reply to a decision (from the inbox)."""
    from .services.cases import case_appeal
    from .services.decisions import DecisionError

    try:
        case_appeal(
            case_id=case_id,
            user=request.user,  # type: ignore[arg-type]
            text=request.POST.get("text", ""),
        )
    except DecisionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("申诉已提交，案件会重新审查，结果以站内信通知。"))
    return redirect(reverse("accounts:inbox"))
