"""The site's URLs plus three that fail on purpose, for the error-page tests."""

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from mahjong_site.urls import urlpatterns as site_urlpatterns


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("test")


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest("test")


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("test")


urlpatterns = [
    path("test-errors/403/", forbidden),
    path("test-errors/400/", bad),
    path("test-errors/500/", broken),
    *site_urlpatterns,
]
