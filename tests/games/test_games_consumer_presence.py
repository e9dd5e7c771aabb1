"""The table websocket's presence heartbeat and its hostile messages.

Issue 11 §5.3 (a bad message closed the socket with 1011 and disabled 托管
for the seat), §5.8 (``sync`` not rate-limited), §1/§4 (presence by TTL
heartbeats; the opponent's drop and return shown at once).
"""

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async

from games import presence
from tests.games.conftest import make_player
from tests.games.test_games_consumer import (
    _pair,
    _seq,
    _state,
    _toast_text,
    drain,
    ws,
)

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = [
    '{"action": "discard", "seq": 1e999, "tile": "1m"}',
    '{"action": "auto_play", "seq": Infinity}',
    '{"action": "auto_play", "seq": -Infinity}',
    '{"action": "discard", "seq": NaN}',
    "[" * 1000 + "]" * 1000,
    '{"action": "sync", "x": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"action": "discard", "tile": "' + "9" * 1_000_000 + '"}',
    "\x00\x01",
]


async def _open(comm) -> bool:
    """Whether the socket still answers (a ``sync`` gets a whole frame)."""
    await comm.send_to(text_data=json.dumps({"action": "sync"}))
    frames = await drain(comm, wait=1.5)
    return any('data-testid="my-hand"' in f for f in frames)


async def test_malformed_messages_get_a_toast_and_keep_the_socket(settings):
    settings.MAHJONG_SYNC_BURST = 100  # this test syncs after every message
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    cb, ok2, _ = await ws(b, table.pk)
    assert ok and ok2
    await drain(ca, wait=2.0)
    await drain(cb, wait=2.0)
    before, hand = await _state(table.pk)
    for text in HOSTILE:
        await ca.send_to(text_data=text)
        msgs = await drain(ca)
        assert len(msgs) == 1, (text[:40], msgs)
        assert _toast_text(msgs[0]) in ("无法识别的操作", "缺少或无效的序号"), text[:40]
        assert await _open(ca), text[:40]
    await ca.send_to(bytes_data=b"\x00" * 10)
    assert _toast_text((await drain(ca))[0]) == "无法识别的操作"
    after, hand2 = await _state(table.pk)
    assert after.seq == before.seq
    # 托管 still works for the seat: alice leaves, and her disconnect runs
    await ca.disconnect()
    t, _ = await _state(table.pk)
    assert t.away_since[0] is not None
    frames = await drain(cb, wait=1.5)
    assert any('data-testid="opponent-away"' in f for f in frames)
    await cb.disconnect()


async def test_an_unexpected_error_is_a_toast_not_a_closed_socket(monkeypatch):
    from games import consumers

    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    await drain(ca, wait=2.0)

    def boom(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(consumers, "table_move", boom)
    await ca.send_to(text_data=json.dumps({"action": "discard", "seq": 1}))
    msgs = await drain(ca)
    assert _toast_text(msgs[0]) == "服务器出错，这次操作没有生效，请再试一次"
    monkeypatch.undo()
    assert await _open(ca)
    await ca.disconnect()


async def test_sync_is_rate_limited_per_socket(settings):
    settings.MAHJONG_SYNC_BURST = 3
    settings.MAHJONG_SYNC_RATE = 0.5
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    await drain(ca, wait=2.0)
    for _ in range(10):
        await ca.send_to(text_data=json.dumps({"action": "sync"}))
    msgs = await drain(ca, wait=1.5)
    frames = [m for m in msgs if 'data-testid="my-hand"' in m]
    toasts = [m for m in msgs if m.startswith('<div id="toast"')]
    assert len(frames) == 3 and len(toasts) == 7
    assert _toast_text(toasts[0]) == "刷新太频繁，请稍后再试"
    # another socket of the same player has its own bucket
    ca2, ok, _ = await ws(a, table.pk)
    await drain(ca2, wait=2.0)
    assert await _open(ca2)
    await ca.disconnect()
    await ca2.disconnect()


@sync_to_async
def _present(table_id, seat, now=None):
    return presence.seat_present(table_id=table_id, seat=seat, now=now)


class _Clock:
    """``time`` for games.presence, the consumers and the seat services,
    ``shift`` seconds ahead of the real one (a socket falling silent for a
    TTL without the test waiting for it)."""

    def __init__(self):
        self.shift = 0.0

    def time(self):
        return time.time() + self.shift

    def monotonic(self):
        return time.monotonic()


@pytest.fixture
def clock(monkeypatch):
    from games import consumers
    from games.services import seats

    fake = _Clock()
    for module in (presence, consumers, seats):
        monkeypatch.setattr(module, "time", fake)
    return fake


async def test_the_heartbeat_keeps_a_socket_present_and_its_absence_expires(
    settings, clock
):
    """Issue 11 §1/§5.3: presence is a TTL entry per socket that only the
    browser's pings keep alive; a socket that falls silent (a sleeping
    device, a dead process, a handler that never finished) is absent after
    the TTL — and the opponent's next heartbeat starts its grace."""
    settings.MAHJONG_PRESENCE_BEAT = 0.3  # pings closer than 0.1 s are ignored
    ttl = presence.ttl()
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    cb, ok2, _ = await ws(b, table.pk)
    await drain(ca, wait=2.0)
    await drain(cb, wait=2.0)
    t0 = time.time()
    assert await _present(table.pk, 0) and await _present(table.pk, 1)
    # without a ping, the entries expire one TTL after the connect
    assert not await _present(table.pk, 1, t0 + ttl + 0.5)
    # a ping moves seat 0's expiry on (never answered), with the process's
    # next batch of heartbeats
    t1 = time.time()
    await ca.send_to(text_data=json.dumps({"action": "ping"}))
    assert await ca.receive_nothing(timeout=presence.REFRESH_DELAY + 0.3)
    assert await _present(table.pk, 0, t1 + ttl - 0.5)
    # both sockets fall silent for a TTL (seat 1's process died, or its
    # device slept: disconnect() never runs); seat 0's next ping finds
    # seat 1 gone
    clock.shift = ttl + 1
    t, _ = await _state(table.pk)
    assert t.away_since in ([], [None, None])
    await ca.send_to(text_data=json.dumps({"action": "ping"}))
    frames = await drain(ca, wait=1.5)
    t, _ = await _state(table.pk)
    assert t.away_since[0] is None and t.away_since[1] is not None
    assert any('data-testid="opponent-away"' in f for f in frames)
    # seat 1's next ping (it was only silent) brings it back at once
    await cb.send_to(text_data=json.dumps({"action": "ping"}))
    await drain(cb, wait=1.5)
    frames = await drain(ca, wait=1.5)
    t, _ = await _state(table.pk)
    assert t.away_since in ([None, None],)
    assert frames and 'data-away="0"' in frames[-1]
    await ca.disconnect()
    await cb.disconnect()


async def _ping_costs(monkeypatch, pings):
    """Send each ``(socket, seq)`` ping in turn, checking no frame answers it;
    return the SQL run meanwhile and the presence-cache methods called."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    calls: list[str] = []
    real = presence._cache()

    class Counted:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(real, name)

    monkeypatch.setattr(presence, "_cache", Counted)
    # one batch for all the pings (games.presence.RefreshBatch)
    monkeypatch.setattr(presence, "REFRESH_DELAY", 0.35 * len(pings) + 0.3)
    # the consumers' queries run on the one sync thread (SQLite): capture there
    queries = CaptureQueriesContext(connection)
    await sync_to_async(queries.__enter__)()
    for sock, seq in pings:
        await sock.send_to(text_data=json.dumps({"action": "ping", "seq": seq}))
        assert await sock.receive_nothing(timeout=0.3)
    assert calls == []  # not written yet
    await asyncio.sleep(presence.REFRESH_DELAY)
    await sync_to_async(queries.__exit__)(None, None, None)
    captured = await sync_to_async(lambda: list(queries.captured_queries))()
    return captured, calls


async def test_pings_that_change_nothing_are_one_cache_write(settings, monkeypatch):
    """Issue 15: pings while both seats are present (each socket's, every
    MAHJONG_PRESENCE_BEAT s) cost no query, no frame rendered or sent,
    nothing to the group, and the process writes them together (Redis: one
    pipelined MSET): each socket's slot is live until a TTL after its ping."""
    settings.MAHJONG_PRESENCE_BEAT = 0.3
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    cb, ok2, _ = await ws(b, table.pk)
    seqs = [_seq((await drain(sock, wait=2.0))[-1]) for sock in (ca, cb)]
    # seat 0 opened before seat 1: its first ping looks, and sees seat 1
    # (with the process's next batch of heartbeats)
    await ca.send_to(text_data=json.dumps({"action": "ping", "seq": seqs[0]}))
    assert await ca.receive_nothing(timeout=presence.REFRESH_DELAY + 0.3)
    before = time.time()
    captured, calls = await _ping_costs(
        monkeypatch, list(zip((ca, cb), seqs, strict=True))
    )
    assert captured == []
    assert calls == ["set_many"]
    for seat in (0, 1):
        held = [
            v
            for v in presence._cache()
            .get_many(
                [presence._slot_key(table.pk, seat, i) for i in range(presence.SLOTS)]
            )
            .values()
            if v
        ]
        assert len(held) == 1 and held[0][1] >= before + presence.ttl()
    assert await ca.receive_nothing(timeout=0.3)
    assert await cb.receive_nothing(timeout=0.3)
    await ca.disconnect()
    await cb.disconnect()


async def test_a_ping_at_a_bot_table_is_one_cache_write_from_the_first(
    settings, monkeypatch
):
    """At a bot table the opponent (the server's bot) has no presence and is
    never away: every ping, the first too, is only a cache write (before,
    each read both seats' slots and the first locked the table to find the
    bot not away)."""
    from games.services import table_play_bot
    from tests.games.test_games_consumer import _room

    settings.MAHJONG_PRESENCE_BEAT = 0.3
    a = await sync_to_async(make_player)("pa")
    table = await sync_to_async(table_play_bot)(user=a, room=await _db(_room))
    ca, ok, _ = await ws(a, table.pk)
    assert ok
    seq = _seq((await drain(ca, wait=2.0))[-1])
    captured, calls = await _ping_costs(monkeypatch, [(ca, seq), (ca, seq)])
    assert captured == []
    assert calls == ["set_many"]
    await ca.disconnect()


async def _db(func):
    return await sync_to_async(func)()


async def test_the_opponent_drop_and_return_reach_the_other_seat_at_once():
    a, b, table = await _pair()
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    await drain(ca, wait=2.0)
    await drain(cb, wait=2.0)
    await cb.disconnect()
    frames = await drain(ca, wait=1.5)
    assert frames and 'data-testid="opponent-away"' in frames[-1]
    assert "秒后托管" in frames[-1] and 'data-away="1"' in frames[-1]
    cb, ok, _ = await ws(b, table.pk)
    assert ok
    frames = await drain(ca, wait=1.5)
    assert frames and 'data-away="0"' in frames[-1]
    assert 'data-testid="opponent-away"' not in frames[-1]
    await ca.disconnect()
    await cb.disconnect()


@sync_to_async
def _queue(user, now=None):
    from games.services import table_quick_match
    from tests.games.test_games_consumer import _room

    return table_quick_match(user=user, room=_room(), now=now)


async def test_issue_11_reproduction_through_the_socket():
    """Issue 11 §1 end to end: A presses 快速开始, their waiting table's page
    opens (a real websocket) and A closes the browser; more than two minutes
    later B presses 快速开始 in the same room: no hand is dealt, no coins
    move, and A's page, if it comes back, says A left the queue."""
    from accounts.models import Profile
    from games.models import HandRecord, Table
    from tests.games.conftest import make_player

    a, b = (
        await sync_to_async(make_player)("qa"),
        await sync_to_async(make_player)("qb"),
    )
    coins = await sync_to_async(
        lambda: sorted(Profile.objects.values_list("coins", flat=True))
    )()
    a_table = await _queue(a)
    ca, ok, _ = await ws(a, a_table.pk)
    assert ok
    frames = await drain(ca, wait=3.0)
    assert 'data-testid="waiting"' in frames[0]
    assert await _present(a_table.pk, 0)
    await ca.disconnect()  # A closes the browser
    assert not await _present(a_table.pk, 0)
    b_table = await _queue(b, time.time() + 130)
    assert b_table.pk != a_table.pk and b_table.status == Table.Status.WAITING
    assert not await sync_to_async(HandRecord.objects.exists)()
    after = await sync_to_async(
        lambda: sorted(Profile.objects.values_list("coins", flat=True))
    )()
    assert after == coins
    ca, ok, _ = await ws(a, a_table.pk)
    frames = await drain(ca, wait=2.0)
    assert (
        'data-testid="queue-left"' in frames[0] and 'data-reason="absent"' in frames[0]
    )
    assert "你离开了页面，已退出排队。" in frames[0]
    await ca.disconnect()
