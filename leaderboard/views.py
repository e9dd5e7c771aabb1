"""Leaderboard page (排行榜)."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.selectors import level_scheme_active

from .selectors import leaderboard_page


def index(request: HttpRequest) -> HttpResponse:
    """Render players ranked by 实力积分 and the active level table."""
    page, rows = leaderboard_page(
        page_number=request.GET.get("page"),
        per_page=settings.MAHJONG_LEADERBOARD_PAGE_SIZE,
    )
    scheme = level_scheme_active()
    return render(
        request,
        "leaderboard/index.html",
        {
            "page": page,
            "rows": rows,
            "scheme": scheme,
            "levels": list(scheme.levels.all()) if scheme else [],
        },
    )
