"""Two pages of one player at one seat, each on its own Daphne process
(PostgreSQL + Redis, as production; run by .ci/run, deselected in the
embedded default): the page opened last holds the seat in the presence cache
(Redis, every process sees it) and the older page, on the other process, is
told over the Redis channel layer and refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest
import websockets

from games.services.hands import load_hand
from tests.games.live import Cluster
from tests.games.test_games_live_services import (
    _cluster_env,
    _cookie,
    _pre_deal_table,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CLUSTER_REDIS_DB = 12  # not test_games_live_services' 11: clusters never share
ELSEWHERE = "此牌桌已在另一个窗口打开，这个窗口里的操作没有生效"


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        env = _cluster_env(CLUSTER_REDIS_DB)
    c = Cluster(env, daphnes=2, workers=0, clocks=0)
    c.start()
    yield c
    c.stop()


async def _page(cluster, i, table_id, cookie, tab):
    sock = await websockets.connect(
        cluster.url(i, f"/ws/table/{table_id}/?tab={tab}"),
        additional_headers={"Cookie": f"sessionid={cookie}"},
        origin="http://127.0.0.1",
    )
    return sock


async def _read(sock, wait=1.5) -> list[str]:
    out = []
    with contextlib.suppress(TimeoutError):
        while True:
            out.append(await asyncio.wait_for(sock.recv(), wait))
    return out


def _shown(msgs: list[str]) -> bool:
    return any(
        '<div id="mj-elsewhere"' in m and 'data-testid="elsewhere"' in m for m in msgs
    )


def test_the_older_page_on_another_process_is_told_and_refused(cluster):
    a, _b, table, hand = _pre_deal_table("tabs")
    cookie = _cookie(a)

    async def run():
        old = await _page(cluster, 0, table.pk, cookie, "1700000000000-aaaaaaaa")
        await _read(old)
        new = await _page(cluster, 1, table.pk, cookie, "1700000005000-bbbbbbbb")
        opened = await _read(new)
        told = await _read(old)
        move = {"action": "pre_deal", "seq": table.seq, "open_hand": False}
        await old.send(json.dumps({**move, "double": False}))
        refused = await _read(old)
        await new.send(json.dumps({**move, "double": True}))
        await _read(new)
        for sock in (old, new):
            await sock.close()
        return opened, told, refused

    opened, told, refused = asyncio.run(run())
    assert not _shown(opened)
    assert _shown(told), cluster.tail()
    assert any(ELSEWHERE in m for m in refused)
    table.refresh_from_db()
    state = load_hand(table.hand, seq=table.seq).state
    assert state.start_double[0] is True  # the newer page's choice, not the older's
