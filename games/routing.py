"""Websocket URL patterns, mounted by ``mahjong_site.asgi``."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import URLPattern, path, re_path

from .consumers import TableConsumer


class RefuseConsumer(AsyncWebsocketConsumer):
    """Refuse the handshake of a websocket path no route serves.

    Without it Channels' URLRouter raises ``ValueError: No route found`` (an
    HTTP 500 and a traceback in the log for a mistyped or probing client);
    closing before accepting makes Daphne answer 403, logged as a WSREJECT.
    """

    async def connect(self) -> None:
        await self.close()


websocket_urlpatterns: list[URLPattern] = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    # last: every other path is refused cleanly
    re_path(r"", RefuseConsumer.as_asgi()),
]
