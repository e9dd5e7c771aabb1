"""Live tables across processes: two Daphne processes on the Redis channel
layer, two Celery workers, two clock processes (``manage.py run_clock``),
PostgreSQL (run by .ci/run with DATABASE_URL and REDIS_URL set; deselected
in the embedded default).

The cluster uses its own Redis database (flushed first) so the CI's own
worker, which serves the suite's database, never picks up these jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
import websockets
from django.db import connection
from django.test import Client

from games.models import Due, HandEvent, Room, Table
from games.services import table_quick_match
from games.services.hands import load_hand
from tests.games.conftest import make_player
from tests.games.driver import next_move, unveiled_at
from tests.games.live import Cluster, frame_seq

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CLUSTER_REDIS_DB = 11


def _cluster_redis(db: int = CLUSTER_REDIS_DB) -> str:
    parts = urlsplit(os.environ["REDIS_URL"])
    return urlunsplit(parts._replace(path=f"/{db}"))


def _cluster_env(db: int = CLUSTER_REDIS_DB) -> dict[str, str]:
    """A cluster's environment on Redis database ``db`` (flushed first)."""
    redis_url = _cluster_redis(db)
    redis.Redis.from_url(redis_url).flushdb()
    return {
        "DATABASE_URL": _database_url(),
        "REDIS_URL": redis_url,
        "MAHJONG_CLOCK": "command",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }


def _pre_deal_table(tag: str):
    """A new table of two fresh players, both asked the pre-deal question."""
    a, b = make_player(f"{tag}-a"), make_player(f"{tag}-b")
    table_quick_match(user=a, room=_room())
    table = table_quick_match(user=b, room=_room())
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    assert hand.state.phase.value == "pre_deal" and hand.state.pending == [True, True]
    return a, b, table, hand


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return (
        f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    )


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        env = _cluster_env()
    c = Cluster(env, daphnes=2, workers=2, clocks=2)
    c.start()
    yield c
    c.stop()


def _room():
    return Room.objects.get_or_create(
        name="新手场", defaults={"stake": 10, "min_balance": 200}
    )[0]


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Seat:
    """One player's socket; a reader task records the frames' seq numbers."""

    def __init__(self, sock):
        self.sock = sock
        self.seen = 0
        self.toasts: list[str] = []
        self.frames = 0
        self.changed = asyncio.Event()
        self.task = asyncio.ensure_future(self._read())

    async def _read(self):
        async for msg in self.sock:
            seq = frame_seq(msg)
            if seq is None:
                self.toasts.append(msg)
            else:
                self.frames += 1
                self.seen = max(self.seen, seq)
            self.changed.set()

    async def wait_seq(self, seq: int, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while self.seen < seq:
            self.changed.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"frame seq {seq} not seen (last {self.seen})")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


async def _connect(cluster, i, table_id, cookie):
    sock = await websockets.connect(
        cluster.url(i, f"/ws/table/{table_id}/"),
        additional_headers={"Cookie": f"sessionid={cookie}"},
        origin="http://127.0.0.1",
    )
    return Seat(sock)


def _table_seq(table_id):
    return Table.objects.get(pk=table_id).seq


def test_two_daphne_processes_one_player_on_each_finish_a_hand(cluster):
    a, b = make_player("la"), make_player("lb")
    table_quick_match(user=a, room=_room())
    table = table_quick_match(user=b, room=_room())
    cookies = {0: _cookie(a), 1: _cookie(b)}

    async def play():
        seats = {
            0: await _connect(cluster, 0, table.pk, cookies[0]),
            1: await _connect(cluster, 1, table.pk, cookies[1]),
        }
        start = await asyncio.to_thread(_table_seq, table.pk)
        for s in seats.values():
            await s.wait_seq(start)
        rng = random.Random(5)
        actions = 0
        for _ in range(2000):
            move = await asyncio.to_thread(next_move, table, rng)
            if move is None:
                break
            seat, payload = move
            # a 加杠's maker acts when the ROB veil lifts, as its browser does
            await asyncio.sleep(max(0.0, unveiled_at(table, seat) - time.time()))
            before = await asyncio.to_thread(_table_seq, table.pk)
            await seats[seat].sock.send(json.dumps(payload))
            await seats[seat].wait_seq(before + 1)
            actions += 1
        # The other process's player sees every move, but not always at once:
        # the claim veil (issue 11 §5.2) holds a discarder's view until the
        # opponent's own next move.  By the settlement both seats, one on each
        # process, have seen the last sequence number.
        final = await asyncio.to_thread(_table_seq, table.pk)
        for s in seats.values():
            await s.wait_seq(final)
        for s in seats.values():
            await s.sock.close()
            s.task.cancel()
        return actions, seats

    actions, seats = asyncio.run(play())
    table.refresh_from_db()
    # A random deal may end quickly (CI once saw a whole hand in 10 actions);
    # what matters is that every action crossed processes (wait_seq above
    # raises otherwise) and the hand ended.
    assert actions >= 1
    assert table.status == Table.Status.SETTLING, cluster.tail()
    assert table.hand.settled and table.hand.seed
    assert not [t for s in seats.values() for t in s.toasts if "牌局已更新" in t]
    assert a.stats.get(ruleset="").hands == 1


def test_timeouts_fire_exactly_once_with_two_clock_processes(cluster):
    a, b, table, hand = _pre_deal_table("t")
    cookies = {0: _cookie(a), 1: _cookie(b)}

    async def run():
        seat_a = await _connect(cluster, 0, table.pk, cookies[0])
        seat_b = await _connect(cluster, 1, table.pk, cookies[1])
        await seat_a.wait_seq(table.seq)
        # alice answers; daphne plans the clock's timeout row of the new seq
        await seat_a.sock.send(json.dumps({"action": "pre_deal", "seq": table.seq}))
        await seat_a.wait_seq(table.seq + 1)
        seq = await asyncio.to_thread(_table_seq, table.pk)
        row = await asyncio.to_thread(Due.objects.get, table=table, kind="timeout")
        assert (row.hand_id, row.seq) == (table.hand_id, seq)
        # three more copies of that row, for both clock processes to race on
        for _ in range(3):
            await asyncio.to_thread(
                Due.objects.create,
                table=table,
                kind="timeout",
                at=row.at,
                hand_id=row.hand_id,
                seq=seq,
            )
        delay = max(0.0, hand.state.deadline - time.time()) + 0.3
        # bob stays silent: his pre-deal choice times out, seen by both players
        await seat_a.wait_seq(seq + 1, timeout=delay + 15)
        await seat_b.wait_seq(seq + 1, timeout=5)
        await asyncio.sleep(1.0)
        for s in (seat_a, seat_b):
            await s.sock.close()
            s.task.cancel()

    asyncio.run(run())
    timeouts = HandEvent.objects.filter(hand=table.hand_id, kind="timeout")
    assert [e.seat for e in timeouts] == [1], cluster.tail()
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    assert hand.state.phase.value == "turn"  # dealt after the timeout
    assert not Due.objects.filter(table=table, seq__lte=hand.seq - 1).exists()


def test_two_clock_processes_time_out_an_abandoned_table_once(cluster):
    """Nobody connects: the two clock processes (racing on every row) apply
    each pre-deal timeout once."""
    _, _, table, hand = _pre_deal_table("sw")
    end = hand.state.deadline + 20
    while time.time() < end:
        if HandEvent.objects.filter(hand=table.hand_id, kind="timeout").count():
            break
        time.sleep(0.3)
    time.sleep(2.5)  # more passes run; the next prompt is 15 s away
    timeouts = HandEvent.objects.filter(hand=table.hand_id, kind="timeout")
    assert sorted(e.seat for e in timeouts) == [0, 1], cluster.tail()
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    assert hand.state.phase.value == "turn"  # dealt after the timeouts
