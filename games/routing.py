"""Websocket URL patterns, mounted by ``mahjong_site.asgi``.

Empty until the live-table issue adds the table consumer here.
"""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
