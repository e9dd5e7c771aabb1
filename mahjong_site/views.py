"""Site-wide pages: home and a health check."""

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.shortcuts import render

from accounts.selectors import level_scheme_active

HERO_TILES = ("7z", "6z", "5z", "1z", "2z", "1m", "9m")
"""Tiles shown in the home page's hero: 中 发 白 东 南 一万 九万."""


def home(request: HttpRequest) -> HttpResponse:
    """Render the home page: what the site is, and where to go next."""
    scheme = level_scheme_active()
    levels = list(scheme.levels.all()) if scheme else []
    return render(
        request,
        "home.html",
        {
            "scheme": scheme,
            "levels": levels,
            "starting_coins": settings.MAHJONG_STARTING_COINS,
            "hero_tile_names": HERO_TILES,
        },
    )


def healthz(request: HttpRequest) -> JsonResponse:
    """Answer ``{"ok": true, "db": vendor}`` once the database answers a query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"ok": True, "db": connection.vendor})


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Send ``/favicon.ico`` to our icon (tools/gen_favicon.py), not a 404.

    Browsers ask for it on pages without a ``<link rel="icon">`` (JSON, error
    pages, the hand export) and some ask regardless.
    """
    return HttpResponsePermanentRedirect(staticfiles_storage.url("img/favicon.ico"))
