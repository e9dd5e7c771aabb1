"""The table websocket ``ws/table/<id>/``: one consumer per open browser tab.

Thin: authenticate (session, via AuthMiddlewareStack in asgi.py), parse the
JSON, call the services, render this seat's frame.  Every consumer renders
its *own* seat's frame (games.presenters.render_frame) when the table's group
is told that something changed, so no browser receives another seat's view.

Browser → server: ``{"action": kind, "seq": N, ...fields}`` (htmx ws-send).
Server → browser: the frame HTML (hx-swap-oob fragments); a refusal is a
``<div id="toast" hx-swap-oob="true" role="alert">`` fragment and changes
nothing; when the player moves to another table (分组) a
``<div id="redirect" hx-swap-oob="true" data-url="...">`` fragment.
Close codes: 4401 not logged in, 4403 not seated at this table, 4423 the
player is suspended or banned (moderation: refused at connect; a group
``table.kick`` message closes their open sockets, after a toast saying why).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games.engine.errors import ActionError
from mahjong_site.middleware import chosen_language
from mahjong_site.prepared import PreparedQuery

from .models import Table
from .presenters import render_frame, render_toast
from .services import TableError, play
from .services.hands import absorb_events
from .services.notify import table_group

log = logging.getLogger(__name__)

FRAME_TABLE: PreparedQuery[Table] = PreparedQuery(
    lambda pk: (
        Table.objects.select_related("room", "hand", "match")
        .order_by()
        .filter(pk=pk)[:1]
    )
)
"""The table with what a frame shows of it, compiled once (read per event)."""


def _pooled(func: Any) -> Any:
    """Run ``func`` on the event loop's thread pool, not the one sync thread.

    Channels' default runs every consumer's database work of a process on a
    single thread, so one table's queries wait for every other table's; the
    services hold the table's row lock and each hand's own lock
    (games.services.hands.hand_lock), so parallel threads are safe.  SQLite
    (the embedded default, one writer at a time anyway) keeps the single
    thread: its in-memory test database locks whole tables across threads.
    """
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return database_sync_to_async(func, thread_sensitive=sqlite)


def scope_language(scope: dict[str, Any]) -> str:
    """The language to render for a websocket: the player's choice, else Chinese.

    The same rule as the pages (``mahjong_site.middleware.chosen_language``):
    only the language switcher's ``django_language`` cookie counts, never the
    browser's Accept-Language (the site is Chinese first).
    """
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    return chosen_language(str(cookie) if cookie else None)


def _table_url(table_id: int) -> str:
    try:
        return reverse("games:table", args=[table_id])
    except NoReverseMatch:
        return f"/table/{table_id}/"


def _account_refusal(user_id: int, lang: str | None) -> str | None:
    """Why a suspended or banned player may not open a table (moderation)."""
    from moderation.restrictions import account_refusal

    with translation.override(lang):
        return account_refusal(user_id=user_id)


class TableConsumer(AsyncWebsocketConsumer):
    """One seated player's connection to one table."""

    table_id: int
    seat: int | None = None
    lang: str | None = None  # None: the source language (Chinese)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the message's handler, without Channels' per-message hop.

        Channels 4.2+ runs ``close_old_connections`` on the process's one
        sync thread before every handler (``aclose_old_connections``): a
        thread hop per websocket message and per group message, which every
        table of the process queues behind.  The handlers here touch the
        database only through :func:`_pooled` (``database_sync_to_async``),
        which closes stale connections in the thread that uses them, before
        and after.

        Raises:
            ValueError: no handler for the message's type (as Channels).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()  # accept first so the browser sees the code
            await self.close(code=4401)
            return
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.lang = scope_language(self.scope)
        seat = await self._seat_of(user.pk)
        if seat is None:
            await self.accept()
            await self.close(code=4403)
            return
        refusal = await _pooled(_account_refusal)(user.pk, self.lang)
        if refusal:
            await self.accept()
            await self.send(render_toast(refusal))
            await self.close(code=4423)
            return
        self.seat = seat
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self._reveals: set[asyncio.Task[None]] = set()
        # reconnecting hands control back: 托管 off (broadcasts on change)
        await _pooled(play.note_connect)(self.table_id, seat)
        await self.send_frame()

    async def disconnect(self, code: int) -> None:
        if self.seat is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        for task in list(getattr(self, "_reveals", ())):
            task.cancel()
        await _pooled(play.note_disconnect)(self.table_id, self.seat)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        if self.seat is None:
            return
        try:
            payload = json.loads(text_data or "")
        except (TypeError, ValueError):
            await self.send(self._toast("无法识别的操作"))
            return
        user = self.scope["user"]
        try:
            table = await _pooled(play.do_apply_action)(self.table_id, user, payload)
        except (ActionError, TableError) as exc:
            with translation.override(self.lang):
                message = play.refusal_message(exc)
            await self.send(render_toast(message))
            return
        if table.pk != self.table_id:
            url = escape(_table_url(table.pk))
            await self.send(
                f'<div id="redirect" hx-swap-oob="true" data-url="{url}"></div>'
            )
        elif isinstance(payload, dict) and payload.get("action") == "sync":
            await self.send_frame()

    async def table_update(self, event: dict[str, Any]) -> None:
        """Group message: something changed at the table; render my frame.

        The message may carry the events just logged (``hand``, ``events``),
        which bring this process's cached hand up to date before rendering.
        """
        hand_id, events = event.get("hand"), event.get("events")
        await self.send_frame(hand_id if events else None, events)
        reveal = event.get("reveal")
        if reveal and reveal.get("seat") == self.seat:
            delay = max(0.0, float(reveal["at"]) - time.time()) + 0.02
            task = asyncio.ensure_future(self._send_later(delay))
            self._reveals.add(task)
            task.add_done_callback(self._reveals.discard)

    async def table_kick(self, event: dict[str, Any]) -> None:
        """Group message (moderation): close this socket if it is ``user``'s."""
        user = self.scope.get("user")
        if user is None or getattr(user, "pk", None) != event.get("user"):
            return
        message = await _pooled(_account_refusal)(user.pk, self.lang)
        await self.send(render_toast(message or str(event.get("message") or "")))
        await self.close(code=4423)

    async def _send_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.send_frame()

    async def send_frame(
        self, hand_id: int | None = None, events: list[dict[str, Any]] | None = None
    ) -> None:
        html = await self._render(hand_id, events)
        if html is not None:
            await self.send(html)

    async def _seat_of(self, user_id: int) -> int | None:
        return await _pooled(self._seat_of_sync)(user_id)

    def _seat_of_sync(self, user_id: int) -> int | None:
        table = Table.objects.filter(pk=self.table_id).first()
        return None if table is None else table.seat_of(user_id)

    async def _render(
        self, hand_id: int | None = None, events: list[dict[str, Any]] | None = None
    ) -> str | None:
        return await _pooled(self._render_sync)(hand_id, events)

    def _render_sync(
        self, hand_id: int | None = None, events: list[dict[str, Any]] | None = None
    ) -> str | None:
        if hand_id is not None and events:
            absorb_events(hand_id, events)
        table = FRAME_TABLE.first(self.table_id)
        if table is None or self.seat is None:
            return None
        with translation.override(self.lang):  # thread-local: set in this thread
            return render_frame(table, self.seat, user=self.scope["user"])

    def _toast(self, message: str) -> str:
        with translation.override(self.lang):
            return render_toast(gettext(message))
