"""Websocket URL patterns, mounted by ``mahjong_site.asgi``."""

from django.urls import URLPattern, path

from .consumers import TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
