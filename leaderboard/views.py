"""Leaderboard pages (排行榜): thin, the selectors do the work."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.selectors import level_scheme_active
from games.rules.rulesets import NAMES as RULESETS

from .periods import PERIODS
from .selectors import BOARDS, board_key_from_query, board_page


def index(request: HttpRequest) -> HttpResponse:
    """Render one board (``?board=&period=&ruleset=&page=``) and the level table.

    An unknown or malformed board, period, rule set or page falls back to
    the default one (points, all time, all rule sets, the first page).
    """
    key = board_key_from_query(
        board=request.GET.get("board"),
        period=request.GET.get("period"),
        ruleset=request.GET.get("ruleset"),
    )
    data = board_page(
        key=key,
        page_number=request.GET.get("page"),
        per_page=settings.MAHJONG_LEADERBOARD_PAGE_SIZE,
        user_id=request.user.pk if request.user.is_authenticated else None,
    )
    scheme = level_scheme_active()
    return render(
        request,
        "leaderboard/index.html",
        {
            "data": data,
            "key": key,
            "page": data.page,
            "boards": BOARDS,
            "periods": PERIODS,
            "rulesets": RULESETS,
            "scheme": scheme,
            "levels": list(scheme.levels.all()) if scheme else [],
            "min_hands": settings.MAHJONG_BOARD_MIN_HANDS,
        },
    )


def player(request: HttpRequest, nickname: str) -> HttpResponse:
    """``/players/<nickname>/``: level, rating, statistics, charts, recent hands."""
    from django.utils.translation import get_language

    from .charts import fan_chart, rating_chart
    from .players import player_page

    data = player_page(nickname=nickname, viewer=request.user)
    english = (get_language() or "").startswith("en")
    charts = {
        "rating": rating_chart(
            ratings=data.rating_history,
            title=_("等级分走势"),
            series=_("等级分"),
            no_data=_("还没有计分的对局"),
        ),
        "fans": fan_chart(
            fans=[(en if english else zh, n) for zh, en, n in data.fans],
            title=_("最常和的番种"),
            series=_("次数"),
            no_data=_("还没有和过牌"),
        ),
    }
    return render(
        request,
        "leaderboard/player.html",
        {"data": data, "profile": data.profile, "charts": charts},
    )
