"""The table websocket ``ws/table/<id>/``: one consumer per open browser tab.

Thin: authenticate (session, via AuthMiddlewareStack in asgi.py), parse the
JSON, call the services, render this seat's frame.  Every consumer sends
its browser its *own* seat's frame (games.presenters.render.seat_frame) when
the table's group is told that something changed, so no browser receives
another seat's view: rendered by itself, or — after the opponent's move — by
the opponent's consumer in the thread that applied the move and carried in the
move's group message, addressed to this seat and language (server side only).

Browser → server: ``{"action": kind, "seq": N, ...fields}`` (htmx ws-send);
``{"action": "ping", "seq": N}`` every ``MAHJONG_PRESENCE_BEAT`` seconds from
static/js/table.js, the presence heartbeat (games.presence), answered only
when ``N`` is not the seq last sent (then with the whole frame).
At most ``MAX_MESSAGE_CHARS`` characters nested ``MAX_MESSAGE_DEPTH`` deep;
anything else, like every refusal, is answered with a toast and the socket
stays open; ``sync`` is rate-limited per socket (:class:`TokenBucket`).
Server → browser: the frame HTML (hx-swap-oob fragments): the whole frame
on connect, on ``sync`` and when the browser's seq (sent with its actions and
pings) is not the one last sent on this socket, else only the fragments that
changed (games.presenters.render.Frame.changes); a refusal is a
``<div id="toast" hx-swap-oob="true" role="alert">`` fragment and changes
nothing; when the player moves to another table (分组) a
``<div id="redirect" hx-swap-oob="true" data-url="...">`` fragment.
Two pages of one player at one seat: the page's socket address carries its
tab token (``?tab=``, games.presence.new_tab); the page opened last holds the
seat (games.presence.tab_take), a ``table.takeover`` group message tells the
other page's sockets (every process: the channel layer), which show
``#mj-elsewhere`` (此牌桌已在另一个窗口打开, with 在此窗口继续: ``take_back``);
their moves and requests are refused with a toast, not applied.
Close codes: 4401 not logged in, 4403 not seated at this table, 4423 the
player is suspended or banned (moderation: refused at connect; a group
``table.kick`` message closes their open sockets, after a toast saying why).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from collections.abc import Mapping
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext_lazy

from games.engine.errors import ActionError
from games.engine.hand import Hand
from mahjong_site.middleware import chosen_language

from . import presence
from .consumer_dispatch import DispatchWithoutConnectionHop
from .models import Table
from .presenters import render_elsewhere, render_toast
from .presenters.context import FrameBasis
from .presenters.render import Frame, seat_frame
from .protocol import TABLE_REQUESTS, parse_move, refusal_message
from .services import TableError, seats
from .services.act import table_move
from .services.hands import fetch_table
from .services.moves import Move
from .services.notify import held_broadcasts, table_group

log = logging.getLogger(__name__)


def frame_table(table_id: int) -> Table | None:
    """The table with what a frame shows of it, in one query: its room, match,
    hand and the hand's snapshot (games.services.hands.load_hand), or None."""
    return fetch_table(table_id)


MAX_MESSAGE_CHARS = 4096
"""Longest browser message read (a form's fields; the biggest is a few hundred)."""

MAX_MESSAGE_DEPTH = 4
"""Deepest nesting of arrays/objects read (the protocol's is 2: ``tiles``)."""

BAD_MESSAGE = gettext_lazy("无法识别的操作")
TOO_FAST = gettext_lazy("刷新太频繁，请稍后再试")
SERVER_ERROR = gettext_lazy("服务器出错，这次操作没有生效，请再试一次")
ELSEWHERE = gettext_lazy("此牌桌已在另一个窗口打开，这个窗口里的操作没有生效")


class ElsewhereError(TableError):
    """This page's seat is held by another page of the player (presence.tab_take)."""


def scope_tab(scope: dict[str, Any]) -> str | None:
    """The page's tab token from the socket address (``?tab=``), or None."""
    from urllib.parse import parse_qs

    raw = scope.get("query_string") or b""
    text = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)
    tabs = parse_qs(text).get("tab") or []
    tab = tabs[0] if tabs else None
    return tab if presence.tab_opened(tab) is not None else None


class BadMessageError(ValueError):
    """A browser message this consumer does not read (``str`` is the log detail)."""


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting(text: str) -> int:
    """The deepest nesting of JSON arrays/objects in ``text`` (strings skipped)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_JSON_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadMessageError(f"non-finite number {text[:20]!r}")
    return value


def _no_constant(name: str) -> Any:
    raise BadMessageError(f"JSON constant {name}")


def parse_message(text_data: str | None, bytes_data: bytes | None = None) -> Any:
    """Read one browser message: JSON text of at most ``MAX_MESSAGE_CHARS``
    characters, nested at most ``MAX_MESSAGE_DEPTH`` deep, with finite numbers
    only (no ``Infinity``, ``NaN``, ``1e999``).

    Issue 11 §5.3: such messages used to raise past the consumer (socket
    closed with 1011, ``disconnect()`` never ran).  Returns the decoded value.

    Raises:
        BadMessageError: binary, too long, too deep, not JSON, or non-finite.
    """
    if text_data is None:
        raise BadMessageError("binary or empty frame")
    if len(text_data) > MAX_MESSAGE_CHARS:
        raise BadMessageError(f"{len(text_data)} characters")
    if _nesting(text_data) > MAX_MESSAGE_DEPTH:
        raise BadMessageError("nested too deep")
    try:
        return json.loads(text_data, parse_float=_finite, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise BadMessageError(str(exc)[:200]) from None


class TokenBucket:
    """``burst`` requests at once, refilled at ``rate`` per second (per socket).

    Issue 11 §5.8: ``sync`` sent a full frame each time (1,000 in 8 s from
    one socket).  ``take(now)`` (epoch seconds) answers whether one more
    request may go through now, and uses it up if so.
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = max(0.0, float(rate))
        self.burst = max(1, int(burst))
        self.tokens = float(self.burst)
        self.at: float | None = None

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(
                float(self.burst), self.tokens + (now - self.at) * self.rate
            )
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def _pooled(func: Any) -> Any:
    """Run ``func`` on the event loop's thread pool, not the one sync thread.

    Channels' default runs every consumer's database work of a process on a
    single thread, so one table's queries wait for every other table's; the
    services hold the table's row lock and load a hand of their own for each
    request (games.services.hands), so parallel threads are safe.  SQLite
    (the embedded default, one writer at a time anyway) keeps the single
    thread: its in-memory test database locks whole tables across threads.
    """
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return database_sync_to_async(func, thread_sensitive=sqlite)


def _cached(func: Any) -> Any:
    """Run a presence call (games.presence: the cache) on a worker thread.

    Not the process's one sync thread (database work of every table queues
    there); the cache clients are thread-safe.
    """
    return sync_to_async(func, thread_sensitive=False)


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


class TableConsumer(DispatchWithoutConnectionHop, AsyncWebsocketConsumer):
    """One seated player's connection to one table (every database call through
    :func:`_pooled`, so dispatch skips Channels' connection hop:
    games.consumer_dispatch)."""

    table_id: int
    seat: int | None = None
    lang: str | None = None  # None: the source language (Chinese)
    _sent: Mapping[str, str] | None = None  # the fragments last sent, by name
    _sent_shells: Mapping[str, str] | None = None  # their Frame.shells
    _sent_seq: int | None = None  # the seq of the frame last sent
    _presence: presence.SocketPresence | None = None  # from connect on
    # (hand id, seq) of the state this seat's own move rendered (_move_sync),
    # until the next render: the group messages of that hand's moves up to
    # it need none.  seq restarts with each hand, so the hand is part of it.
    _acted: tuple[int | None, int] | None = None
    # (hand id, seq) of the state of the frame last rendered for this socket
    # (a frame carried in a group message is used only for a later state)
    _shown: tuple[int | None, int] | None = None
    tab: str | None = None  # the page's tab token (None: not in the choice)
    # whether this page holds the seat, and the ms of the holder it knows of
    # (presence.tab_take_at): set at connect, by table.takeover and take_back,
    # so that a move needs no cache read (_check_holder)
    _holds: bool = True
    _holder_at: int = 0

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()  # accept first so the browser sees the code
            await self.close(code=4401)
            return
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.lang = scope_language(self.scope)
        seat, watch = await self._seat_of(user.pk)
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
        self._syncs = TokenBucket(
            settings.MAHJONG_SYNC_RATE, settings.MAHJONG_SYNC_BURST
        )
        self._beat_at = 0.0
        self._opponent_seen: bool | None = None
        # present from now on (games.presence, a TTL entry per socket that
        # only this socket's heartbeats keep alive); then reconnecting hands
        # control back: away cleared, 托管 off (broadcast on change)
        self._presence = presence.SocketPresence(
            table_id=self.table_id, seat=seat, socket_id=self.channel_name, watch=watch
        )
        await _cached(self._presence.open)()
        await _pooled(seats.seat_connect)(table_id=self.table_id, seat=seat)
        self.tab = scope_tab(self.scope)
        if self.tab is not None:
            at = await _cached(presence.tab_take_at)(
                table_id=self.table_id, seat=seat, tab=self.tab
            )
            # refused: a newer page holds it (as of a later ms than this one)
            self._holds = at is not None
            self._holder_at = at or presence.tab_opened(self.tab) or 0
            if at is not None:  # a newer page: the older one's sockets stop acting
                await self._announce_holder(at)
        await self.send_frame()
        if not self._holds:
            await self.send(self._elsewhere(True))

    async def disconnect(self, code: int) -> None:
        if self.seat is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        for task in list(getattr(self, "_reveals", ())):
            task.cancel()
        # best effort: if this never runs, the presence entry expires anyway
        if self._presence is not None:
            await presence.refresh_batch().withdraw(self._presence)
            await _cached(self._presence.close)()
        await _pooled(seats.seat_disconnect)(table_id=self.table_id, seat=self.seat)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        """One browser message: never lets an error close the socket.

        A malformed message (too long, too deep, not JSON, non-finite
        numbers) and any refusal get a toast; an unexpected error is logged
        and answered with a toast too (issue 11 §5.3).
        """
        if self.seat is None:
            return
        try:
            await self._receive(text_data, bytes_data)
        except Exception:
            log.exception("table %s seat %s: message failed", self.table_id, self.seat)
            await self.send(self._toast(SERVER_ERROR))

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        try:
            payload = parse_message(text_data, bytes_data)
        except BadMessageError as exc:
            log.info("table %s: unreadable message (%s)", self.table_id, exc)
            await self.send(self._toast(BAD_MESSAGE))
            return
        kind = payload.get("action") if isinstance(payload, dict) else None
        behind = self._behind(payload)
        if kind == "ping":
            await self.heartbeat()
            if behind:
                await self.send_frame()
            return
        if kind == "sync" and not self._syncs.take(time.monotonic()):
            await self.send(self._toast(TOO_FAST))
            return
        user = self.scope["user"]
        try:
            if kind == "sync":  # seated (checked at connect): the whole frame
                self._sent = None  # the browser asks for everything again
                await self.send_frame()
                return
            if kind == "take_back":
                await self._take_back()
                return
            request = TABLE_REQUESTS.get(kind) if isinstance(kind, str) else None
            if request is not None:
                table = await _pooled(self._request_sync)(request, user)
            else:
                move = parse_move(payload)
                loop = asyncio.get_running_loop()
                table, rendered = await _pooled(self._move_sync)(user, move, loop)
                if rendered is not None:  # as table_update would: if changed
                    self._acted = self._shown = rendered[1]
                    await self._deliver(rendered[0], changed_only=True)
        except ElsewhereError:
            await self.send(self._toast(ELSEWHERE) + self._elsewhere(True))
            return
        except (ActionError, TableError) as exc:
            with translation.override(self.lang):
                message = refusal_message(exc)
            await self.send(render_toast(message))
            return
        if table.pk != self.table_id:
            url = escape(_table_url(table.pk))
            await self.send(
                f'<div id="redirect" hx-swap-oob="true" data-url="{url}"></div>'
            )

    def _check_holder(self) -> None:
        """Refuse when another page of the player holds this seat, from what
        this socket knows (``_holds``): no cache read per move (issue 15).

        What it knows comes from its connect (presence.tab_take_at), the
        ``table.takeover`` messages (every process) and its take back.  A
        message is handled after the move before it ends (one consumer
        handles one message at a time), so a move of the older page sent
        before the newer page's takeover reached this socket is applied: a
        move of the same player, at a moment the older page still showed
        the table as its own; the newer page receives the result like any
        move.  Before, the window was the same, up to the cache write
        instead of the message's arrival (a few ms more).  A socket that
        missed a message (the channel layer drops it when this socket's
        queue is full) learns the holder again when it reconnects.

        Raises:
            ElsewhereError: this page does not hold the seat.
        """
        if not self._holds:
            raise ElsewhereError(str(ELSEWHERE))

    def _request_sync(self, request: Any, user: Any) -> Table:
        """A table request (继续, 分组 …) of the page that holds the seat."""
        self._check_holder()
        return request(user=user, table_id=self.table_id)

    async def _take_back(self) -> None:
        """在此窗口继续: this page holds the seat again; the other is told."""
        if self.tab is None or self.seat is None:
            return
        at = await _cached(presence.tab_take_at)(
            table_id=self.table_id, seat=self.seat, tab=self.tab, force=True
        )
        self._holds, self._holder_at = True, at or self._holder_at
        await self._announce_holder(self._holder_at)
        self._sent = None
        await self.send_frame()

    async def _announce_holder(self, at: int) -> None:
        """Tell every socket of the table (every process) that this page
        holds the seat as of ``at`` ms (presence.tab_take_at)."""
        await self.channel_layer.group_send(
            self.group,
            {"type": "table.takeover", "seat": self.seat, "tab": self.tab, "at": at},
        )

    async def table_takeover(self, event: dict[str, Any]) -> None:
        """Group message: a page took this seat (:func:`presence.tab_take_at`);
        this socket remembers whether it holds it, and the notice over this
        page is shown, or hidden if it is this page.

        Followed only when it is as new as the holder this socket knows
        (``at``: the order tab_take_at chooses pages in), so two pages that
        open at once, whose messages may arrive in either order, leave every
        socket agreeing on the later one.  (The cache itself keeps the last
        write then, which may be the other: only the HTTP table requests,
        which read it, would follow that one, until a page takes the seat
        again.)
        """
        if event.get("seat") != self.seat or self.tab is None:
            return
        at = event.get("at")
        if not isinstance(at, int) or at < self._holder_at:
            return
        self._holder_at, self._holds = at, event.get("tab") == self.tab
        await self.send(self._elsewhere(not self._holds))

    def _elsewhere(self, shown: bool) -> str:
        with translation.override(self.lang):
            return render_elsewhere(shown)

    async def heartbeat(self) -> None:
        """The browser's ``ping`` (every ``MAHJONG_PRESENCE_BEAT`` s): keep this
        socket present, and notice an opponent whose presence expired without
        a disconnect (a dead process, a sleeping device): their grace starts.

        Pings closer together than a third of the beat are ignored (no reply).
        A ping that changes nothing is no query, render or group message,
        and its cache write goes with the process's other pings'
        (games.presence.RefreshBatch); so does the read of a ping that must
        look at both seats, answered to :meth:`_looked` in a task of its own.
        """
        now = time.time()
        if now - self._beat_at < settings.MAHJONG_PRESENCE_BEAT / 3:
            return
        self._beat_at = now
        assert self.seat is not None
        assert self._presence is not None
        write = self._presence.refresh(now=now)
        batch = presence.refresh_batch()
        if write is not None:  # nothing to look at: written with others
            batch.add(self._presence, *write)
            return
        if self._presence in batch.looks:  # a look already waits for the batch
            return
        # looked at with the process's other heartbeats; answered meanwhile,
        # so this socket's next message does not wait for the batch
        task = asyncio.ensure_future(self._looked(batch.look(self._presence, now)))
        self._reveals.add(task)
        task.add_done_callback(self._reveals.discard)

    async def _looked(self, look: asyncio.Future[presence.Look]) -> None:
        """Act on what a heartbeat's look learnt (:meth:`heartbeat`): this
        socket back after its entry expired, the opponent gone or here."""
        assert self.seat is not None
        try:
            back, here = await look
        except asyncio.CancelledError:  # the socket closed meanwhile
            return
        except Exception:
            log.exception("table %s seat %s: presence look", self.table_id, self.seat)
            return
        if back:  # its entry had expired (a long pause): here again
            await _pooled(seats.seat_connect)(table_id=self.table_id, seat=self.seat)
        if here is None:  # the opponent is present until later: not looked at
            return
        other = 1 - self.seat
        if not here and self._opponent_seen is not False:
            await _pooled(seats.seat_disconnect)(table_id=self.table_id, seat=other)
        self._opponent_seen = here

    async def table_update(self, event: dict[str, Any]) -> None:
        """Group message: something changed at the table; render my frame.

        A message that carries the events just logged (``events``) is a
        move: the frame is sent only if it changed (:meth:`send_frame`), and
        not rendered at all when this seat's own move already rendered that
        state or a later one (:meth:`_move_sync`) and nothing was rendered
        since, nor when the message carries this seat's frame of a later
        state than the one last rendered here (:meth:`_carried`).
        """
        seq = event.get("seq")
        acted = self._acted
        if not (
            event.get("events")
            and isinstance(seq, int)
            and acted is not None
            and event.get("hand") == acted[0]
            and seq <= acted[1]
        ):
            frame = self._carried(event)
            if frame is None:
                await self.send_frame(changed_only=bool(event.get("events")))
            else:
                self._acted = None
                self._shown = (event.get("hand"), int(event["seq"]))
                await self._deliver(frame, changed_only=True)
        reveal = event.get("reveal")
        if reveal and reveal.get("seat") == self.seat:
            delay = max(0.0, float(reveal["at"]) - time.time()) + 0.02
            task = asyncio.ensure_future(self._send_later(delay))
            self._reveals.add(task)
            task.add_done_callback(self._reveals.discard)

    def _carried(self, event: dict[str, Any]) -> Frame | None:
        """The frame of this seat that a move's group message carries
        (rendered by the mover's consumer, :meth:`_move_sync`), if it is in
        this socket's language and of a later state of the hand than the
        frame last rendered here; else None (render it here: a message
        overtaken by a later one must not send an older frame)."""
        carried = event.get("frame")
        if not isinstance(carried, dict):
            return None
        hand, seq, shown = event.get("hand"), event.get("seq"), self._shown
        if (
            carried.get("seat") != self.seat
            or carried.get("lang") != self.lang
            or not isinstance(seq, int)
            or shown is None
            or shown[0] != hand
            or shown[1] >= seq
        ):
            return None
        return Frame.from_wire(carried)

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
        await self.send_frame(changed_only=True)

    def _behind(self, payload: Any) -> bool:
        """Whether the browser says it holds another seq than the one last
        sent on this socket (``seq`` of an action or a ping); if so, the
        next frame sent is whole.  A message without a seq says nothing."""
        seq = payload.get("seq") if isinstance(payload, dict) else None
        if not isinstance(seq, int) or isinstance(seq, bool):
            return False
        if self._sent_seq is None or seq == self._sent_seq:
            return False
        self._sent = None
        return True

    async def send_frame(self, *, changed_only: bool = False) -> None:
        """Render this seat's frame and send what the browser lacks of it.

        The whole frame when nothing was sent on this socket yet or the
        browser is behind (:meth:`_behind`), after connecting and on
        ``sync``; otherwise only the fragments that changed since the last
        frame sent (games.presenters.render.Frame.changes).
        ``changed_only`` (group updates for moves): send nothing when the
        frame is the one last sent but for its render time (``data-now``).
        A move this seat cannot see — the opponent's pass behind the claim
        veil (games.services.veil) — must not reach its browser even as a
        message: when it arrives would tell whether a claim was possible
        (issue 11 §5.2).  Connecting and ``sync`` always send.
        """
        rendered = await _pooled(self._render_state)()
        self._acted = None
        if rendered is not None:
            self._shown = rendered[1]
            await self._deliver(rendered[0], changed_only=changed_only)

    async def _deliver(self, frame: Frame, *, changed_only: bool) -> None:
        """Send what the browser lacks of ``frame`` (:meth:`send_frame`)."""
        if self._sent is None:
            html: str | None = frame.html()
        else:
            html = frame.changes(
                self._sent, always=not changed_only, sent_shells=self._sent_shells
            )
        if html is None:
            return
        self._sent, self._sent_seq = frame.parts, frame.seq
        self._sent_shells = frame.shells
        await self.send(html)

    async def _seat_of(self, user_id: int) -> tuple[int | None, bool]:
        return await _pooled(self._seat_of_sync)(user_id)

    def _seat_of_sync(self, user_id: int) -> tuple[int | None, bool]:
        """``user_id``'s seat (None: not seated) and whether its opponent's
        presence is to be watched: not at a bot table, whose opponent is
        the server's bot for good (a table becomes a bot table, never the
        other way)."""
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None, False
        seat = table.seat_of(user_id)
        return seat, seat is not None and table.is_human(1 - seat)

    def _render_state(self) -> tuple[Frame, tuple[int | None, int]] | None:
        """This seat's frame of the table as it is now, and the table's
        (hand id, seq) in that state (a veiled frame shows an older one), or
        None."""
        table = frame_table(self.table_id)
        if table is None or self.seat is None:
            return None
        with translation.override(self.lang):  # thread-local: set in this thread
            frame = seat_frame(table, self.seat, user=self.scope["user"])
        return frame, (table.hand_id, table.seq)

    def _move_sync(
        self, user: Any, move: Move, loop: asyncio.AbstractEventLoop | None = None
    ) -> tuple[Table, tuple[Frame, tuple[int | None, int]] | None]:
        """Apply this seat's ``move`` (games.services.act.table_move), then
        render this seat's frame of the state it left, in the same worker
        thread: one thread hand-off per move instead of two, and the mover's
        frame no longer waits for the move's group message to come back from
        the channel layer.  The frame is rendered after the commit from the
        table and hand the move stored (no query, no snapshot decoded), and
        with what it shares with the opponent's (its basis), but
        for a move that ended the hand: settling wrote rows those objects do
        not hold, so that frame is rendered as :meth:`send_frame` does.  If
        the render fails the move stands and the group message renders as
        before (None).  Before that message is sent, the opponent's frame is
        rendered here too and put in it (:meth:`_carry_opponent_frame`);
        ``loop`` (this consumer's) sends it, so this thread renders the
        mover's frame meanwhile (games.services.notify.held_broadcasts).

        Raises:
            ActionError, TableError: the move is refused (table_move);
                ElsewhereError: another page of the player holds the seat.
        """
        self._check_holder()
        with held_broadcasts(loop) as held:  # sent as the block ends
            table, hand = table_move(user=user, table_id=self.table_id, move=move)
            basis = self._carry_opponent_frame(table, hand, held)
        try:
            if hand.ended or self.seat is None:
                return table, self._render_state()
            with translation.override(self.lang):
                frame = seat_frame(table, self.seat, user=user, hand=hand, basis=basis)
            return table, (frame, (table.hand_id, table.seq))
        except Exception:
            log.exception(
                "table %s seat %s: frame after move", self.table_id, self.seat
            )
            return table, None

    def _carry_opponent_frame(
        self, table: Table, hand: Hand, held: list[dict[str, Any]]
    ) -> FrameBasis | None:
        """Render the opponent's frame of the state this seat's move left and
        put it in the move's group message (``held``, not sent yet), so the
        opponent's consumer sends it without a thread hand-off, a query or a
        render of its own (:meth:`_carried`).

        Rendered in this socket's language (the opponent's consumer renders
        its own when its language differs); not for a move that ended the
        hand (settling wrote rows ``table`` and ``hand`` do not hold) nor
        for the server's bot, which has no socket.  A failed render is
        logged and the message goes without it.  Returns what the frames of
        this state share (games.presenters.context.FrameBasis), for the
        mover's frame, or None.
        """
        if self.seat is None or hand.ended or not table.is_human(1 - self.seat):
            return None
        message = next(
            (
                m
                for m in held
                if m.get("type") == "table.update"
                and m.get("table") == table.pk
                and m.get("hand") == table.hand_id
                and m.get("seq") == table.seq
            ),
            None,
        )
        if message is None:
            return None
        other = 1 - self.seat
        try:
            with translation.override(self.lang):
                basis = FrameBasis(table)
                frame = seat_frame(table, other, hand=hand, basis=basis)
        except Exception:
            log.exception("table %s seat %s: frame after move", table.pk, other)
            return None
        # each subpart's HTML once (Frame.wire): the message is ~a third smaller
        message["frame"] = {"seat": other, "lang": self.lang, **frame.wire()}
        return basis

    def _toast(self, message: Any) -> str:
        """A toast of ``message`` (a lazy translation) in the player's language."""
        with translation.override(self.lang):
            return render_toast(str(message))
