"""Two pages of one player at one seat (tester): the page opened last acts.

Both tabs were live and both could act.  Now the newer page holds the seat
(games.presence.tab_take); the older one is told 此牌桌已在另一个窗口打开
(``#mj-elsewhere``) and its moves and requests are refused with a toast and
not applied, until it takes the seat back (在此窗口继续).
"""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from games import presence
from mahjong_site.asgi import application
from tests.games.test_games_consumer import _cookie, _pair, _seq, _state, drain

pytestmark = pytest.mark.django_db(transaction=True)

ELSEWHERE = "此牌桌已在另一个窗口打开，这个窗口里的操作没有生效"


async def _tab(user, table_id, tab: str | None):
    key = await sync_to_async(_cookie)(user)
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", f"sessionid={key}".encode()),
    ]
    path = f"/ws/table/{table_id}/" + (f"?tab={tab}" if tab else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm, await drain(comm, wait=1.0)


def _notice(msgs: list[str]) -> bool | None:
    """Whether the last #mj-elsewhere fragment shows the notice (None: none)."""
    found = None
    for m in msgs:
        for frag in re.findall(r'<div id="mj-elsewhere"[^>]*>', m):
            found = "hidden" not in frag
    return found


def _pre_deal(seq: int) -> str:
    return json.dumps(
        {"action": "pre_deal", "seq": seq, "open_hand": False, "double": False}
    )


async def test_the_newer_page_acts_and_the_older_is_told_until_it_takes_back():
    a, b, table = await _pair()
    old, first = await _tab(a, table.pk, "1700000000000-aaaaaaaa")
    assert not _notice(first)  # the only page: nothing to say
    seq = _seq(next(m for m in first if "data-seq" in m))
    new, opened = await _tab(a, table.pk, "1700000005000-bbbbbbbb")
    assert not _notice(opened)
    assert _notice(await drain(old)) is True  # the older page is told

    # the older page's move: refused in words, not applied
    await old.send_to(text_data=_pre_deal(seq))
    msgs = await drain(old)
    assert any(ELSEWHERE in m for m in msgs) and _notice(msgs) is True
    _t, hand = await _state(table.pk)
    assert hand.state.pending[0] is True

    # the older page's socket reconnects: it does not take the seat back
    await old.disconnect()
    old, again = await _tab(a, table.pk, "1700000000000-aaaaaaaa")
    assert _notice(again) is True
    assert not _notice(await drain(new))

    # 在此窗口继续: the older page holds it; the newer one is told
    await old.send_to(text_data=json.dumps({"action": "take_back"}))
    msgs = await drain(old)
    assert _notice(msgs) is False
    assert _notice(await drain(new)) is True
    await new.send_to(text_data=_pre_deal(seq))
    assert any(ELSEWHERE in m for m in await drain(new))
    await old.send_to(text_data=_pre_deal(seq))
    await drain(old)
    _t, hand = await _state(table.pk)
    assert hand.state.pending[0] is False  # applied once, from the holder
    # the newer page reconnecting does not take it either; a reload (a page
    # opened now) does
    await new.disconnect()
    new, again = await _tab(a, table.pk, "1700000005000-bbbbbbbb")
    assert _notice(again) is True
    reload, fresh = await _tab(a, table.pk, presence.new_tab())
    assert not _notice(fresh)
    assert _notice(await drain(old)) is True
    for comm in (old, new, reload):
        await comm.disconnect()


async def test_a_socket_without_a_tab_is_not_part_of_the_choice():
    a, b, table = await _pair()
    await _tab(a, table.pk, "1700000000000-aaaaaaaa")
    plain, first = await _tab(a, table.pk, None)
    assert not _notice(first)
    await plain.send_to(text_data=_pre_deal(_seq(first[0])))
    await drain(plain)
    _t, hand = await _state(table.pk)
    assert hand.state.pending[0] is False
    await plain.disconnect()


def test_an_older_pages_request_is_refused(client, alice, bob, room):
    from games.services import table_quick_match

    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    presence.tab_take(table_id=table.pk, seat=0, tab="1700000005000-bbbbbbbb")
    client.force_login(alice)
    url = reverse("games:leave", args=[table.pk])
    headers = {"HX-Request": "true", "X-MJ-Tab": "1700000000000-aaaaaaaa"}
    r = client.post(url, headers=headers)
    assert ELSEWHERE in r.content.decode()
    table.refresh_from_db()
    assert table.status != "closed"
    # the page that holds it reaches the service (which refuses to leave a
    # hand being played, in its own words)
    headers["X-MJ-Tab"] = "1700000005000-bbbbbbbb"
    r = client.post(url, headers=headers)
    assert "这一盘还没有结束" in r.content.decode()


def test_tab_take_orders_pages_by_when_they_were_opened():
    args = {"table_id": 999_001, "seat": 1}
    assert presence.tab_take(**args, tab="1700000005000-bbbbbbbb")
    assert not presence.tab_take(**args, tab="1700000000000-aaaaaaaa")
    assert presence.tab_take(**args, tab="1700000005000-bbbbbbbb")  # reconnect
    assert presence.tab_holds(**args, tab="1700000005000-bbbbbbbb")
    assert not presence.tab_holds(**args, tab="1700000000000-aaaaaaaa")
    assert presence.tab_holds(**args, tab=None)  # not a page of the choice
    assert presence.tab_take(**args, tab="1700000000000-aaaaaaaa", force=True)
    assert not presence.tab_take(**args, tab="1700000005000-bbbbbbbb")
    assert not presence.tab_take(**args, tab="not-a-token")


class _CountingCache:
    """The presence cache, counting the reads of a seat's holder entry."""

    def __init__(self, inner):
        self.inner, self.holder_reads = inner, 0

    def get(self, key, *args, **kwargs):
        if str(key).startswith("holder:"):
            self.holder_reads += 1
        return self.inner.get(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


async def test_a_pages_moves_read_no_holder_from_the_cache(monkeypatch):
    """issue 15: a page's move costs no presence-cache read (4f5b7fd read the
    holder per move); the socket knows from its connect and table.takeover."""
    a, b, table = await _pair()
    old, first = await _tab(a, table.pk, "1700000000000-aaaaaaaa")
    seq = _seq(next(m for m in first if "data-seq" in m))
    new, _opened = await _tab(a, table.pk, "1700000005000-bbbbbbbb")
    await drain(old)
    counting = _CountingCache(presence._cache())
    monkeypatch.setattr(presence, "_cache", lambda: counting)

    await old.send_to(text_data=_pre_deal(seq))  # refused, from what it knows
    assert any(ELSEWHERE in m for m in await drain(old))
    assert counting.holder_reads == 0
    # a stale takeover (an older page's message arriving late) changes nothing
    from channels.layers import get_channel_layer

    from games.services.notify import table_group

    await get_channel_layer().group_send(
        table_group(table.pk),
        {
            "type": "table.takeover",
            "seat": 0,
            "tab": "1700000000000-aaaaaaaa",
            "at": 1700000000000,
        },
    )
    assert not _notice(await drain(new))
    await new.send_to(text_data=_pre_deal(seq))  # the holder's: applied
    await drain(new)
    _t, hand = await _state(table.pk)
    assert hand.state.pending[0] is False
    assert counting.holder_reads == 0
    for comm in (old, new):
        await comm.disconnect()
