"""Presence: who has the lobby or a table open right now (issue 11 §1, issue 15).

Presence lives in the cache alias ``presence`` (Django's cache framework:
Redis when ``REDIS_URL`` is set, shared by every Daphne process; the
process's memory in the embedded default), never in counters on the table
row, so a process that dies, or a handler that never finishes, cannot leave a
seat "connected": every entry expires ``MAHJONG_PRESENCE_TTL`` seconds after
its last heartbeat.

Two kinds of entries, each holding the epoch second it expires at (checked
against ``now``, so tests can move time; the cache's own timeout is the same
TTL and only collects the garbage):

- a **socket slot** per open table websocket: ``SLOTS`` slots per table seat,
  each claimed atomically (``cache.add``) by one socket and refreshed by its
  heartbeats (the browser sends ``{"action": "ping"}`` every
  ``MAHJONG_PRESENCE_BEAT`` seconds; the server does not refresh on its own,
  so a half-open socket or a sleeping laptop expires too);
- a **lobby mark** per user, refreshed by the lobby page and its polls (and by
  pressing 快速开始), so a player queued with the lobby open counts as present.

A seat is present while one of its slots is live; a queued player while their
waiting table's seat 0 or their lobby mark is.

A third entry says which of a player's pages at one seat acts for it (the
**holder**, :func:`tab_take`): two tabs on one seat are both present, but
only the page opened last (or the one that took it back) may act.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
import weakref
from collections.abc import Iterable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import BaseCache, caches

log = logging.getLogger(__name__)

SLOTS = 4
"""Socket slots per table seat (tabs of one player at one table)."""

ALIAS = "presence"
"""The cache alias (settings.CACHES) presence lives in."""


def _cache() -> BaseCache:
    return caches[ALIAS]


def warm() -> None:
    """Open the presence cache's client now, not at the first presence check.

    The first use imports and connects the cache's client (Redis: about
    0.1 s of CPU); a long-lived process that checks presence now and then
    (``manage.py run_clock``) pays it at its start.  An unreachable cache is
    logged and left to the first check, as before.
    """
    try:
        _cache().get(_lobby_key(0))
    except Exception:
        log.warning("presence cache unreachable", exc_info=True)


def ttl() -> float:
    """Seconds an entry stays live after its last heartbeat (settings)."""
    return float(settings.MAHJONG_PRESENCE_TTL)


def _slot_key(table_id: int, seat: int, slot: int) -> str:
    return f"seat:{table_id}:{seat}:{slot}"


def _lobby_key(user_id: int) -> str:
    return f"lobby:{user_id}"


def _live(value: object, now: float) -> bool:
    """An entry's value: ``[socket_id, expires_at]`` (slot) or ``expires_at``."""
    if isinstance(value, list | tuple) and len(value) == 2:
        value = value[1]
    return isinstance(value, int | float) and float(value) > now


def socket_beat(
    *, table_id: int, seat: int, socket_id: str, now: float | None = None
) -> bool:
    """Register or refresh the socket ``socket_id`` of ``seat`` at ``table_id``.

    Called when the socket opens and at each of its heartbeats.  Keeps the
    slot the socket holds, else claims a free (or expired) one.  Returns True
    when the socket had no live slot before this call (it opened, or it lost
    its slot and came back), False when it only refreshed.  With every slot
    held by other live sockets the socket is not registered (and False is
    returned); its next heartbeat tries again.
    """
    now = time.time() if now is None else now
    keys = [_slot_key(table_id, seat, i) for i in range(SLOTS)]
    return _claim(keys, _cache().get_many(keys), socket_id, now)[1]


def _claim(
    keys: list[str],
    held: dict[str, object],
    socket_id: str,
    now: float,
    writes: dict[str, list[Any]] | None = None,
) -> tuple[str | None, bool]:
    """Refresh or claim a slot among ``keys`` (their values ``held``).

    Returns ``(key, back)``: the slot's key (None: every slot is held by
    another live socket) and whether the socket had no live slot before.
    ``writes``: where to leave the ``SET`` of a slot this socket holds or
    takes over from an expired entry, for the caller to write with others
    (else written at once; ``held`` then shows it taken, so another socket
    settled from the same read does not take it too); claiming an empty
    slot is always an atomic ``add`` at once.
    """
    cache = _cache()
    expires = now + ttl()
    timeout = ttl() + 1

    def put(key: str) -> None:
        if writes is None:
            cache.set(key, [socket_id, expires], timeout)
        else:
            writes[key] = held[key] = [socket_id, expires]

    for key in keys:
        value = held.get(key)
        if isinstance(value, list) and value[0] == socket_id and _live(value, now):
            put(key)
            return key, False
    for key in keys:
        value = held.get(key)
        if value is None:
            if cache.add(key, [socket_id, expires], timeout):
                if writes is not None:
                    held[key] = [socket_id, expires]
                return key, True
        elif not _live(value, now):  # expired by the clock, not yet collected
            put(key)
            return key, True
    return None, False


def _expiry(values: Iterable[object], now: float) -> float | None:
    """The latest expiry (epoch s) among live slot ``values``, or None."""
    live = [float(v[1]) for v in values if isinstance(v, list) and _live(v, now)]
    return max(live, default=None)


class SocketPresence:
    """The presence of one open table socket, kept by its heartbeats.

    Remembers what the socket last learnt from the cache, so that a
    heartbeat that changes nothing is one cache write (Redis: one ``SET``):

    - the slot it holds and when that entry expires: while the entry is
      live no other socket can take the slot (slots are claimed only when
      empty or expired), so refreshing it needs no read;
    - when the opponent seat's latest entry expires: until then the
      opponent is present whatever happens (a closed socket's own
      ``disconnect`` marks its seat away), so there is nothing to look at.

    A heartbeat after either moment reads both seats' slots (one read, one
    write, as every heartbeat did before), so an expired entry of this socket (a long
    pause: ``back``) and an opponent whose entries expired without a
    disconnect (a dead process, a sleeping device) are seen at the same
    heartbeat as before.  An entry removed early (a flush or an eviction,
    not its TTL) is written again by the next heartbeat without ``back``;
    the seat's ``seat_away`` job then finds it present and clears a stale
    away mark (games.services.seats.seat_away).
    """

    def __init__(
        self, *, table_id: int, seat: int, socket_id: str, watch: bool = True
    ) -> None:
        """``watch``: look at the opponent seat at all (False: the server's
        bot plays it, which has no presence and is never away)."""
        self.table_id, self.seat, self.socket_id = table_id, seat, socket_id
        self.watch = watch
        self._key: str | None = None  # the slot held (None: none known)
        self._expires = 0.0  # when the entry written to it expires (epoch s)
        # the opponent is present until (epoch s): no look before then
        self._theirs_until = 0.0 if watch else math.inf

    def open(self, *, now: float | None = None) -> bool:
        """Register the socket (it opened): a :meth:`beat` that reads.

        Returns whether it had no live slot (as :func:`socket_beat`).
        """
        return self._look(time.time() if now is None else now)[0]

    def beat(self, *, now: float | None = None) -> tuple[bool, bool | None]:
        """A heartbeat: refresh the socket's slot, look at the opponent if due.

        Returns ``(back, opponent_present)``: ``back`` as :func:`socket_beat`
        returns it; ``opponent_present`` None when there was nothing to look
        at (the opponent's entry seen last is live until after ``now``, or
        the opponent is not watched).
        One cache write when neither is due, else one read of both seats'
        slots (Redis ``MGET``) and one write.
        """
        now = time.time() if now is None else now
        write = self.refresh(now=now)
        if write is not None:
            _cache().set(*write, ttl() + 1)
            return False, None
        return self._look(now)

    def refresh(self, *, now: float | None = None) -> tuple[str, list[Any]] | None:
        """The write of a heartbeat that changes nothing, decided in memory:
        ``(key, value)``, the slot's new entry for the caller to write
        (:meth:`beat` at once, the consumer in a :class:`RefreshBatch`), or
        None when this heartbeat must look (:meth:`beat`)."""
        now = time.time() if now is None else now
        key = self._key
        if key is not None and now < self._expires and now < self._theirs_until:
            self._expires = now + ttl()
            return key, [self.socket_id, now + ttl()]
        return None

    def forget(self) -> None:
        """A refresh was not written: look at the next heartbeat."""
        self._expires = 0.0

    def close(self) -> None:
        """The socket closed: free its slot (best effort, as :func:`socket_gone`).

        One delete while the slot it wrote is live (no other socket can hold
        it then), else :func:`socket_gone`'s read of the seat's slots.
        """
        if self._key is not None and time.time() < self._expires:
            _cache().delete(self._key)
        else:
            socket_gone(
                table_id=self.table_id, seat=self.seat, socket_id=self.socket_id
            )
        self._key, self._expires = None, 0.0

    def _look(self, now: float) -> tuple[bool, bool | None]:
        """Read both seats' slots, refresh or claim this socket's slot, and
        remember when the opponent's latest entry expires."""
        return self._settle(_cache().get_many(self._keys()), now)

    def _keys(self) -> list[str]:
        """Both seats' slot keys: this seat's, then the opponent's."""
        return [
            _slot_key(self.table_id, seat, i)
            for seat in (self.seat, 1 - self.seat)
            for i in range(SLOTS)
        ]

    def _settle(
        self,
        held: dict[str, object],
        now: float,
        writes: dict[str, list[Any]] | None = None,
    ) -> tuple[bool, bool | None]:
        """:meth:`_look` from ``held`` (both seats' slots, read), with the
        slot's write left in ``writes`` if given (:func:`_claim`)."""
        keys = self._keys()
        mine, theirs = keys[:SLOTS], keys[SLOTS:]
        self._key, back = _claim(mine, held, self.socket_id, now, writes)
        self._expires = now + ttl() if self._key is not None else 0.0
        if not self.watch:
            return back, None
        until = _expiry((held.get(k) for k in theirs), now)
        self._theirs_until = until or 0.0
        return back, until is not None


REFRESH_DELAY = 0.5
"""Seconds a process gathers heartbeat refreshes before writing them in one
cache call (:class:`RefreshBatch`): far below the TTL, which tolerates two
lost heartbeats (``MAHJONG_PRESENCE_TTL`` 15 s, a beat every 5 s)."""


Look = tuple[bool, bool | None]
"""What a heartbeat that looks learns (:meth:`SocketPresence.beat`)."""


class RefreshBatch:
    """The heartbeats of one process's sockets (one event loop), handled
    together every :data:`REFRESH_DELAY` seconds at most, in one worker
    thread call: one ``MGET`` of the slots of every socket due a look and
    one ``set_many`` (Redis: a pipelined round trip) of every refresh and
    of the looks' own slots, instead of a thread hand-off and a ``SET`` per
    ping, and a hand-off, an ``MGET`` and a ``SET`` per look (issue 15: 400
    sockets ping every 5 s, more often than moves are made).

    :meth:`add` and :meth:`look` are called on the event loop; a failed
    write is logged and its sockets look at their next heartbeat
    (:meth:`SocketPresence.forget`); a failed look is an error of its
    future.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: dict[str, tuple[SocketPresence, list[Any]]] = {}
        # the sockets due a look, each with when and the future answering it
        self.looks: dict[SocketPresence, tuple[float, asyncio.Future[Look]]] = {}
        self.flushing: asyncio.Task[None] | None = None
        # the batches being written (refreshes, then looks), with the task
        # writing each
        self.writing: list[
            tuple[dict[str, Any], set[SocketPresence], asyncio.Task[Any] | None]
        ] = []

    def add(self, socket: SocketPresence, key: str, value: list[Any]) -> None:
        """Write ``value`` to ``key`` with the next batch (``socket``'s)."""
        self.pending[key] = (socket, value)
        self._schedule()

    def look(self, socket: SocketPresence, now: float) -> asyncio.Future[Look]:
        """Have the next batch look at ``socket``'s table as of ``now``
        (:meth:`SocketPresence.beat`); the future answers what it learnt."""
        if socket in self.looks:
            return self.looks[socket][1]
        future: asyncio.Future[Look] = self.loop.create_future()
        self.looks[socket] = (now, future)
        self._schedule()
        return future

    def _schedule(self) -> None:
        if self.flushing is None:
            self.flushing = self.loop.create_task(self._flush())

    async def withdraw(self, socket: SocketPresence) -> None:
        """``socket`` closes: drop its refresh or look not written yet, and
        wait for one being written, so that freeing its slot comes after (a
        refresh written later would keep a closed socket present for a
        TTL)."""
        for key in [k for k, (owner, _v) in self.pending.items() if owner is socket]:
            del self.pending[key]
        looked = self.looks.pop(socket, None)
        if looked is not None:
            looked[1].cancel()
        if not self.pending and not self.looks and self.flushing is not None:
            self.flushing.cancel()  # still waiting: nothing taken yet
            self.flushing = None
        for batch, lookers, task in list(self.writing):
            if task is not None and (
                socket in lookers or any(o is socket for o, _v in batch.values())
            ):
                await asyncio.shield(task)

    async def _flush(self) -> None:
        await asyncio.sleep(REFRESH_DELAY)
        batch, self.pending, self.flushing = self.pending, {}, None
        looks, self.looks = self.looks, {}
        entry = (batch, set(looks), asyncio.current_task())
        self.writing.append(entry)
        asked = [(socket, now) for socket, (now, _f) in looks.items()]
        try:
            learnt = await sync_to_async(_exchange, thread_sensitive=False)(
                {key: value for key, (_socket, value) in batch.items()}, asked
            )
        except Exception as exc:
            log.exception(
                "presence: %d heartbeats and %d looks failed", len(batch), len(looks)
            )
            for socket, _value in batch.values():
                socket.forget()
            for socket in looks:
                socket.forget()
            for _now, future in looks.values():
                if not future.done():
                    future.set_exception(exc)
        else:
            for (_now, future), answer in zip(looks.values(), learnt, strict=True):
                if not future.done():
                    future.set_result(answer)
        finally:
            self.writing = [w for w in self.writing if w is not entry]


def _exchange(
    entries: dict[str, list[Any]], looks: list[tuple[SocketPresence, float]]
) -> list[Look]:
    """Write ``entries`` (refreshes) and look for each of ``looks``
    (socket, now): one read of all their slots, their slots' writes with
    the refreshes in one ``set_many``.  Returns each look's answer."""
    cache = _cache()
    keys = [key for socket, _now in looks for key in socket._keys()]
    held = cache.get_many(keys) if keys else {}
    writes = dict(entries)
    learnt = [socket._settle(held, now, writes) for socket, now in looks]
    if writes:
        _write_many(writes)
    return learnt


def _write_many(entries: dict[str, list[Any]]) -> None:
    _cache().set_many(entries, ttl() + 1)


# Bound: one batch per event loop, dropped with it.
_BATCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RefreshBatch] = (
    weakref.WeakKeyDictionary()
)


def refresh_batch() -> RefreshBatch:
    """The running event loop's :class:`RefreshBatch` (call on the loop)."""
    loop = asyncio.get_running_loop()
    batch = _BATCHES.get(loop)
    if batch is None:
        batch = _BATCHES[loop] = RefreshBatch(loop)
    return batch


def socket_gone(*, table_id: int, seat: int, socket_id: str) -> None:
    """The socket ``socket_id`` closed: free its slot (if it still holds it).

    Best effort: a socket whose handler never runs this simply expires.
    """
    cache = _cache()
    keys = [_slot_key(table_id, seat, i) for i in range(SLOTS)]
    held = cache.get_many(keys)
    for key, value in held.items():
        if isinstance(value, list) and value and value[0] == socket_id:
            cache.delete(key)


def seat_present(*, table_id: int, seat: int, now: float | None = None) -> bool:
    """Whether ``seat`` at ``table_id`` has a live socket (a heartbeat within TTL)."""
    now = time.time() if now is None else now
    keys = [_slot_key(table_id, seat, i) for i in range(SLOTS)]
    return any(_live(v, now) for v in _cache().get_many(keys).values())


def lobby_beat(*, user_id: int, now: float | None = None) -> None:
    """The player ``user_id`` has the lobby open (a page load or a poll)."""
    now = time.time() if now is None else now
    _cache().set(_lobby_key(user_id), now + ttl(), ttl() + 1)


def waiters_present(
    waiters: Iterable[tuple[int, int]], *, now: float | None = None
) -> set[int]:
    """Which queued players are present, in one cache round trip.

    ``waiters``: ``(table_id, user_id)`` of waiting tables (the player on seat
    0).  Returns the table ids whose player has a live socket at that table or
    a live lobby mark.
    """
    now = time.time() if now is None else now
    pairs = list(waiters)
    keys: list[str] = []
    for table_id, user_id in pairs:
        keys += [_slot_key(table_id, 0, i) for i in range(SLOTS)]
        keys.append(_lobby_key(user_id))
    held = _cache().get_many(keys) if keys else {}
    present = set()
    for table_id, user_id in pairs:
        mine = [_slot_key(table_id, 0, i) for i in range(SLOTS)]
        mine.append(_lobby_key(user_id))
        if any(_live(held.get(k), now) for k in mine):
            present.add(table_id)
    return present


# --- the window that holds a seat ------------------------------------------
#: Seconds the holder of a seat is remembered (longer than any table lasts
#: between two page loads; a forgotten holder is claimed by the next tab).
HOLDER_SECONDS = 24 * 3600

_TAB = re.compile(r"^(\d{10,16})-([0-9a-f]{8,32})$")


def new_tab(*, now: float | None = None) -> str:
    """A fresh page's tab token: ``"<ms>-<hex>"``, the ms it was opened at
    (server clock) and a random part.  The table page puts it in its
    socket's address and its requests' ``X-MJ-Tab`` header."""
    now = time.time() if now is None else now
    return f"{int(now * 1000)}-{secrets.token_hex(4)}"


def tab_opened(tab: str | None) -> int | None:
    """The ms a tab token says its page was opened at; None if not a token."""
    match = _TAB.match(tab or "")
    return int(match.group(1)) if match else None


def _holder_key(table_id: int, seat: int) -> str:
    return f"holder:{table_id}:{seat}"


def tab_take(
    *, table_id: int, seat: int, tab: str, force: bool = False, now: float | None = None
) -> bool:
    """Let the tab ``tab`` hold ``seat`` at ``table_id`` (its actions count).

    Two tabs of one player at one seat: the page opened last holds it, the
    other is told so and its actions are refused (:func:`tab_holds`).  A
    socket of the holder's page that reconnects keeps it; a socket of an
    older page that reconnects does not take it back.  ``force`` (the older
    page's 在此窗口继续) takes it as of ``now``, so the other page's sockets
    no longer take it either until that page is opened again.  In the
    presence cache (Redis in production), so every Daphne process sees one
    holder; two pages opening at the same moment: the last write wins.

    Returns whether ``tab`` holds the seat now (:func:`tab_take_at`).
    """
    return (
        tab_take_at(table_id=table_id, seat=seat, tab=tab, force=force, now=now)
        is not None
    )


def tab_take_at(
    *, table_id: int, seat: int, tab: str, force: bool = False, now: float | None = None
) -> int | None:
    """:func:`tab_take`, returning the ms ``tab`` holds the seat as of (its
    page's opening, or ``now`` with ``force``: the order pages are chosen
    in), or None when it does not hold it.  The table consumer sends it in
    its ``table.takeover`` message, so every socket of the seat follows the
    same order as the cache without reading it (games.consumers)."""
    opened = tab_opened(tab)
    if opened is None:
        return None
    if force:
        opened = max(opened, int((time.time() if now is None else now) * 1000))
    cache = _cache()
    key = _holder_key(table_id, seat)
    held = cache.get(key)
    if (
        not force
        and isinstance(held, list | tuple)
        and len(held) == 2
        and held[0] != tab
        and int(held[1]) > opened
    ):
        return None
    if not (isinstance(held, list | tuple) and list(held) == [tab, opened]):
        cache.set(key, [tab, opened], HOLDER_SECONDS)
    return opened


def tab_holds(*, table_id: int, seat: int, tab: str | None) -> bool:
    """Whether the tab ``tab`` may act for ``seat`` at ``table_id``: it is
    the holder, or no tab holds the seat.  A socket or request without a tab
    token (another client) is not part of the choice and may act.

    One cache read: for the HTTP table requests (no socket).  A table socket
    does not call it per move: it knows from its connect, the
    ``table.takeover`` messages and its take back (games.consumers)."""
    if tab_opened(tab) is None:
        return True
    held = _cache().get(_holder_key(table_id, seat))
    return not (isinstance(held, list | tuple) and len(held) == 2) or held[0] == tab
