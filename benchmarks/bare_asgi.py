"""A bare Channels consumer: the stack's own cost, for ``bench_ws.py --server bare``.

The yardstick of issue 15's speed target: the same Daphne processes and the
same channel layer (``settings.CHANNEL_LAYERS``, Redis with ``REDIS_URL``) as
the real table, but no database, no engine and no templates.  Per message a
seat sends, the consumer sends one frame of about 5 KB (``FRAME_BYTES``) to
each of the two seats through the layer's group, as the table does.  The
frame carries ``data-seq`` and, for the seat whose turn it is, one
``ws-send`` form with ``hx-vals`` — what ``bench_ws.choose`` reads — so the
benchmark's clients play it exactly as they play a real table.

Served by ``daphne benchmarks.bare_asgi:application``: websockets at
``/ws/bare/<table>/<seat>/`` and the site's HTTP (for ``/healthz``).
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

import django  # noqa: E402

django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.urls import path  # noqa: E402

#: the size of a frame, bytes (a table frame is about this size)
FRAME_BYTES = 5000
_FILLER = "<span class='t'>1m</span>" * (FRAME_BYTES // 25)


def frame(seq: int, seat: int) -> str:
    """The frame seat ``seat`` receives at ``seq``: a form when it is its turn.

    Seat ``seq % 2`` moves at ``seq``; its move is a discard answering ``seq``.
    """
    form = ""
    if seq % 2 == seat:
        vals = json.dumps({"action": "discard", "tile": "1m", "seq": seq})
        form = f"<form ws-send hx-vals='{vals}'><button>1m</button></form>"
    return (
        f'<div id="table" hx-swap-oob="true" data-seq="{seq}" data-phase="turn">'
        f"{form}{_FILLER}</div>"
    )


class BareTable(AsyncWebsocketConsumer):
    """Two seats of table ``table``; every message becomes a frame to both."""

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.seat = int(kwargs["seat"])
        self.group = f"bare.{kwargs['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(0, self.seat))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        try:
            message = json.loads(text_data or "{}")
            seq = int(message.get("seq", 0))
        except (ValueError, TypeError, AttributeError):
            return
        if message.get("action") == "ping":  # the clients' presence heartbeat
            return
        await self.channel_layer.group_send(
            self.group, {"type": "table.frame", "seq": seq + 1}
        )

    async def table_frame(self, event: dict) -> None:
        await self.send(text_data=frame(event["seq"], self.seat))


application = ProtocolTypeRouter(
    {
        "http": get_asgi_application(),
        "websocket": URLRouter(
            [path("ws/bare/<int:table>/<int:seat>/", BareTable.as_asgi())]
        ),
    }
)
