"""Presence (games.presence) in matchmaking, the lobby, 托管 and the frames.

Issue 11 §1 (an absent player was paired for real coins), §4 (what the table
says about the opponent's connection, timed-out turns), §5.8 (stale 托管 /
报听 requests).
"""

import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from games import presence
from games.consumers import BadMessageError, TokenBucket, parse_message
from games.engine.errors import StaleActionError
from games.models import HandEvent, HandRecord, Table
from games.presenters import render_frame, seat_context
from games.protocol import parse_move, refusal_message
from games.selectors import queue_state, waiting_by_room
from games.services import (
    seat_connect,
    seat_disconnect,
    table_act,
    table_play_bot,
    table_quick_match,
    table_timeout,
)
from games.services.hands import load_hand
from tests.games.conftest import make_player

pytestmark = pytest.mark.django_db

T0 = 1_000_000.0


def _open_page(table, seat, socket_id, now):
    """The table page's socket opens (as the consumer does on connect)."""
    presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)
    seat_connect(table_id=table.pk, seat=seat, now=now)


def _close_page(table, seat, socket_id, now):
    presence.socket_gone(table_id=table.pk, seat=seat, socket_id=socket_id)
    seat_disconnect(table_id=table.pk, seat=seat, now=now)


def _coins(*users):
    return [Profile.objects.get(user=u).coins for u in users]


# ------------------------------------------------------------- matchmaking
@pytest.mark.parametrize("closes", [True, False], ids=["closed", "crashed"])
def test_an_absent_queued_player_is_never_paired(alice, bob, room, closes):
    """Issue 11 §1's reproduction: A presses 快速开始 and closes the browser
    (or the browser dies without closing its socket); more than two minutes
    later B presses 快速开始 in the same room.  No hand is dealt."""
    before = _coins(alice, bob)
    a_table = table_quick_match(user=alice, room=room, now=T0)
    assert a_table.status == Table.Status.WAITING
    _open_page(a_table, 0, "a-tab", T0 + 1)
    presence.socket_beat(table_id=a_table.pk, seat=0, socket_id="a-tab", now=T0 + 6)
    if closes:
        _close_page(a_table, 0, "a-tab", T0 + 8)
    # nothing more from A; B arrives 2 min 10 s later
    b_table = table_quick_match(user=bob, room=room, now=T0 + 130)
    assert b_table.pk != a_table.pk
    assert b_table.status == Table.Status.WAITING and b_table.seat1_id is None
    assert not HandRecord.objects.exists()
    assert _coins(alice, bob) == before
    a_table.refresh_from_db()
    # A has left the queue (told so if they open the page again)
    assert a_table.status == Table.Status.CLOSED
    assert a_table.closed_reason == "absent"
    # the lobby counts B only
    assert waiting_by_room(now=T0 + 131) == {room.pk: 1}


def test_a_present_queued_player_is_paired(alice, bob, room):
    a_table = table_quick_match(user=alice, room=room, now=T0)
    _open_page(a_table, 0, "a-tab", T0 + 1)
    for k in range(1, 27):  # the page's heartbeat every 5 s
        presence.socket_beat(
            table_id=a_table.pk, seat=0, socket_id="a-tab", now=T0 + 1 + 5 * k
        )
    b_table = table_quick_match(user=bob, room=room, now=T0 + 130)
    assert b_table.pk == a_table.pk
    assert b_table.status == Table.Status.PLAYING
    assert HandRecord.objects.filter(table=b_table).count() == 1


def test_the_lobby_open_keeps_a_queued_player_present(alice, bob, room):
    a_table = table_quick_match(user=alice, room=room, now=T0)
    presence.lobby_beat(user_id=alice.pk, now=T0 + 120)  # the lobby's poll
    assert waiting_by_room(now=T0 + 130) == {room.pk: 1}
    assert table_quick_match(user=bob, room=room, now=T0 + 130).pk == a_table.pk


def test_presence_expires_after_the_ttl(alice, room):
    ttl = presence.ttl()
    assert ttl <= 15  # issue 11 §1: within ~15 s
    table = table_quick_match(user=alice, room=room, now=T0)
    presence.socket_beat(table_id=table.pk, seat=0, socket_id="s", now=T0)
    assert presence.seat_present(table_id=table.pk, seat=0, now=T0 + ttl - 0.1)
    assert not presence.seat_present(table_id=table.pk, seat=0, now=T0 + ttl)
    # a heartbeat moves the expiry on; a page that stops sending them expires
    assert (
        presence.socket_beat(table_id=table.pk, seat=0, socket_id="s", now=T0 + 5)
        is False
    )
    assert presence.seat_present(table_id=table.pk, seat=0, now=T0 + 5 + ttl - 0.1)
    assert waiting_by_room(now=T0 + 5 + ttl - 1) == {room.pk: 1}
    assert waiting_by_room(now=T0 + 5 + ttl + 1) == {}


def test_slots_are_bounded_and_freed(alice, room):
    table = table_quick_match(user=alice, room=room, now=T0)
    for i in range(presence.SLOTS):
        assert presence.socket_beat(
            table_id=table.pk, seat=1, socket_id=f"s{i}", now=T0
        )
    # every slot is held: one more tab is not registered until one frees
    assert not presence.socket_beat(table_id=table.pk, seat=1, socket_id="x", now=T0)
    presence.socket_gone(table_id=table.pk, seat=1, socket_id="s0")
    assert presence.socket_beat(table_id=table.pk, seat=1, socket_id="x", now=T0 + 1)
    for i in range(1, presence.SLOTS):
        presence.socket_gone(table_id=table.pk, seat=1, socket_id=f"s{i}")
    presence.socket_gone(table_id=table.pk, seat=1, socket_id="x")
    assert not presence.seat_present(table_id=table.pk, seat=1, now=T0 + 1)


def test_lobby_shows_the_queue_with_present_players_only(alice, bob, room):
    carol = make_player("carol")
    table_quick_match(user=bob, room=room)  # present now (pressed 快速开始)
    client = Client()
    client.force_login(alice)
    table_quick_match(user=alice, room=room)  # paired with bob: no longer queued
    table_quick_match(user=carol, room=room)
    client.force_login(carol)
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'data-testid="queue-waiting" data-count="1"' in page
    # carol closes the lobby; after the TTL she is not counted, and the
    # panel (polled by the lobby) says so once she is back
    state = queue_state(user=carol)
    assert state is not None and state.waiting == 1
    later = time.time() + presence.ttl() + 1
    assert waiting_by_room(now=later) == {}
    assert queue_state(user=carol, now=later).waiting == 0


def test_the_queue_panel_sends_a_paired_player_to_the_table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    client = Client()
    client.force_login(alice)
    panel = client.get(reverse("games:lobby_queue"), HTTP_HX_REQUEST="true")
    assert 'data-testid="queue-waiting"' in panel.content.decode()
    table = table_quick_match(user=bob, room=room)
    assert table.status == Table.Status.PLAYING
    went = client.get(reverse("games:lobby_queue"), HTTP_HX_REQUEST="true")
    assert went["HX-Redirect"] == reverse("games:table", args=[table.pk])


# ------------------------------------------------------------- the frames
@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    t = table_quick_match(user=bob, room=room)
    t.refresh_from_db()
    return t


def test_the_opponent_away_notice_counts_down_then_tuoguan_then_back(table, settings):
    from games.services import seat_away

    grace = settings.MAHJONG_DISCONNECT_GRACE
    _open_page(table, 0, "a", T0)
    _open_page(table, 1, "b", T0)
    table.refresh_from_db()
    assert seat_context(table, 0, now=T0)["away"] is None
    _close_page(table, 1, "b", T0 + 2)
    table.refresh_from_db()
    ctx = seat_context(table, 0, now=T0 + 5)
    assert ctx["away"] == {
        "since": int((T0 + 2) * 1000),
        "until": int((T0 + 2 + grace) * 1000),
        "left": int(grace) - 3,
    }
    html = render_frame(table, 0, now=T0 + 5)
    assert 'data-testid="opponent-away"' in html
    assert f"对手断线，{int(grace) - 3} 秒后托管" in html
    assert "托管时能和牌就自动和牌，照常结算。" in html  # seed 000's rule
    # the player who left sees nothing of the kind about their opponent
    assert 'data-testid="opponent-away"' not in render_frame(table, 1, now=T0 + 5)
    presence.socket_beat(table_id=table.pk, seat=0, socket_id="a", now=T0 + 2 + grace)
    assert seat_away(
        table_id=table.pk, seat=1, hand_id=table.hand_id, now=T0 + 2 + grace
    )
    table.refresh_from_db()
    html = render_frame(table, 0, now=T0 + 30)
    assert "对手断线，已由系统托管" in html and "mj-flag--auto" in html
    # back: the notice goes (the page says 对手已回来 on that change)
    _open_page(table, 1, "b2", T0 + 40)
    table.refresh_from_db()
    html = render_frame(table, 0, now=T0 + 40)
    assert 'data-testid="opponent-away"' not in html and 'data-away="0"' in html
    with translation.override("en"):
        table.away_since = [None, T0]
        html = render_frame(table, 0, now=T0 + 1)
    assert "Opponent disconnected" in html


def test_a_timed_out_turn_is_shown_to_both_players(table):
    for _ in range(50):
        table.refresh_from_db()
        hand = load_hand(table.hand, seq=table.seq)
        if hand.state.phase.value == "turn":
            break
        table_timeout(
            table_id=table.pk,
            hand_id=table.hand_id,
            seq=table.seq,
            now=hand.state.deadline + 1,
        )
    else:
        raise AssertionError("no turn")
    turn = hand.state.turn
    assert table_timeout(
        table_id=table.pk,
        hand_id=table.hand_id,
        seq=table.seq,
        now=hand.state.deadline + 1,
    )
    table.refresh_from_db()
    ev = (
        HandEvent.objects.filter(hand=table.hand, kind="discard").order_by("seq").last()
    )
    assert ev.seat == turn
    assert HandEvent.objects.get(hand=table.hand, seq=ev.seq - 1).kind == "timeout"
    tile = ev.payload["tile"]
    for seat in (0, 1):
        ctx = seat_context(table, seat)
        note = ctx["timeout_notice"]
        assert note == {
            "id": f"{table.hand_id}:{ev.seq}",
            "who": "me" if seat == turn else "opponent",
            "tile": tile,
        }
        html = render_frame(table, seat)
        assert 'data-testid="timeout-notice"' in html
        assert "超时，自动打出" in html


def test_a_timed_out_turn_is_shown_at_a_bot_table_though_the_bot_answered(alice, room):
    """The bot discards in the same write as the timed-out discard: the
    seat that timed out still gets its notice (tester's report), until its
    own next discard."""
    table = table_play_bot(user=alice, room=room, level="easy")
    for _ in range(50):
        table.refresh_from_db()
        hand = load_hand(table.hand, seq=table.seq)
        s = hand.state
        if s.phase.value == "turn" and s.turn == 0 and s.pending[0]:
            break
        table_timeout(
            table_id=table.pk,
            hand_id=table.hand_id,
            seq=table.seq,
            now=s.deadline + 1,
        )
    else:
        raise AssertionError("no turn of the person")
    table_timeout(
        table_id=table.pk,
        hand_id=table.hand_id,
        seq=table.seq,
        now=hand.state.deadline + 1,
    )
    table.refresh_from_db()
    discards = list(
        HandEvent.objects.filter(hand=table.hand, kind="discard").order_by("-seq")[:2]
    )
    bots, mine = discards
    assert (bots.seat, mine.seat) == (1, 0) and bots.at == mine.at  # the bot answered
    assert HandEvent.objects.get(hand=table.hand, seq=mine.seq - 1).kind == "timeout"
    note = seat_context(table, 0)["timeout_notice"]
    assert note == {
        "id": f"{table.hand_id}:{mine.seq}",
        "who": "me",
        "tile": mine.payload["tile"],
    }
    assert "你超时，自动打出" in render_frame(table, 0)
    # the person's own next discard ends it
    hand = load_hand(table.hand, seq=table.seq)
    assert hand.state.turn == 0 and hand.state.pending[0]
    tile = str(hand.default_action(0).tile)
    move = parse_move({"action": "discard", "tile": tile, "seq": table.seq})
    table_act(user=alice, table_id=table.pk, move=move)
    table.refresh_from_db()
    assert seat_context(table, 0)["timeout_notice"] is None


# ------------------------------------------------------------- §5.8
def test_a_stale_tuoguan_or_ready_is_refused_and_changes_nothing(table, alice):
    table.refresh_from_db()
    seq = table.seq
    events = HandEvent.objects.filter(hand=table.hand).count()
    # the opponent moves on (pre-deal answers); alice's tab is left behind
    hand = load_hand(table.hand, seq=seq)
    table_timeout(
        table_id=table.pk, hand_id=table.hand_id, seq=seq, now=hand.state.deadline + 1
    )
    table.refresh_from_db()
    assert table.seq > seq
    events = HandEvent.objects.filter(hand=table.hand).count()
    for payload in (
        {"action": "auto_play", "seq": seq, "on": True},
        {"action": "auto", "seq": seq},
        {"action": "ready", "seq": seq},
    ):
        with pytest.raises(StaleActionError) as info:
            table_act(user=alice, table_id=table.pk, move=parse_move(payload))
        assert refusal_message(info.value) == (
            "这个托管或报听请求来自旧的画面，没有生效；请按当前状态再操作"
        )
        table.refresh_from_db()
        assert HandEvent.objects.filter(hand=table.hand).count() == events
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is False
    # at the current seq 托管 works as before
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": True}),
    )
    table.refresh_from_db()
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is True


def test_a_cancel_of_tuoguan_from_an_old_screen_is_taken_now(table, alice):
    """Tester: 托管 moves so fast that 取消托管 nearly always carries an old
    number; an explicit "off" is taken at the hand's current seq, while a
    bare toggle from the same old screen is still refused."""
    table.refresh_from_db()
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": True}),
    )
    table.refresh_from_db()
    seq = table.seq
    hand = load_hand(table.hand, seq=seq)
    assert hand.state.auto[0] is True and hand.state.deadline is not None
    table_timeout(
        table_id=table.pk, hand_id=table.hand_id, seq=seq, now=hand.state.deadline + 1
    )
    table.refresh_from_db()
    moved = table.seq
    assert moved > seq  # alice's screen still shows ``seq``
    with pytest.raises(StaleActionError):
        table_act(
            user=alice,
            table_id=table.pk,
            move=parse_move({"action": "auto_play", "seq": seq}),
        )
    table.refresh_from_db()
    assert table.seq == moved
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": seq, "on": False}),
    )
    table.refresh_from_db()
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is False
    off = HandEvent.objects.filter(hand=table.hand, kind="auto_play").order_by("seq")
    assert [e.action["on"] for e in off] == [True, False]
    assert off.last().action["seq"] == moved


def test_token_bucket():
    bucket = TokenBucket(rate=1.0, burst=3)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(100.5) is False
    assert bucket.take(101.0) is True  # one token a second
    assert bucket.take(101.2) is False
    assert [bucket.take(200.0) for _ in range(4)] == [True, True, True, False]


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "discard", "seq": 1e999}',
        '{"action": "discard", "seq": Infinity}',
        '{"action": "discard", "seq": -Infinity}',
        '{"action": "discard", "seq": NaN}',
        "[" * 1000 + "]" * 1000,
        '{"a": ' * 1000 + "1" + "}" * 1000,
        '{"action": "' + "x" * 5000 + '"}',
        "",
        "{",
    ],
    ids=[
        "1e999",
        "inf",
        "-inf",
        "nan",
        "deep-list",
        "deep-dict",
        "huge",
        "empty",
        "cut",
    ],
)
def test_parse_message_refuses_what_used_to_crash(text):
    with pytest.raises(BadMessageError):
        parse_message(text)


def test_parse_message_reads_the_protocol():
    assert parse_message('{"action": "chi", "seq": 3, "tiles": ["3m", "4m"]}') == {
        "action": "chi",
        "seq": 3,
        "tiles": ["3m", "4m"],
    }
    # brackets inside strings do not count as nesting
    assert parse_message('{"action": "[[[[[[[[", "seq": 2.0}') == {
        "action": "[[[[[[[[",
        "seq": 2.0,
    }
    with pytest.raises(BadMessageError):
        parse_message(None, b"\x00")


class _Counted:
    """The presence cache, recording the name of each call made to it."""

    def __init__(self, cache):
        self.cache, self.calls = cache, []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.cache, name)


@pytest.fixture
def counted(monkeypatch):
    cache = _Counted(presence._cache())
    monkeypatch.setattr(presence, "_cache", lambda: cache)
    return cache


def test_a_socket_beat_that_changes_nothing_is_one_cache_write(alice, room, counted):
    """A table socket's heartbeat (every MAHJONG_PRESENCE_BEAT = 5 s) is one
    write (Redis: one SET) while its own entry is live and the opponent's
    latest entry, as last read, is live; else one read of both seats'
    slots (MGET) and one write, as every heartbeat was before (issue 15)."""
    table = table_quick_match(user=alice, room=room, now=T0)
    ttl = presence.ttl()
    a = presence.SocketPresence(table_id=table.pk, seat=0, socket_id="a")
    counted.calls.clear()  # 快速开始 marked alice in the lobby
    assert a.open(now=T0) is True
    assert counted.calls == ["get_many", "add"]
    presence.socket_beat(table_id=table.pk, seat=1, socket_id="b", now=T0)
    # seat 0 saw no opponent when it opened: its next beat looks again
    counted.calls.clear()
    assert a.beat(now=T0 + 5) == (False, True)
    assert counted.calls == ["get_many", "set"]
    # the opponent is present until T0 + ttl whatever happens: no look
    for at in (T0 + 8, T0 + 11, T0 + ttl - 1):
        counted.calls.clear()
        assert a.beat(now=at) == (False, None)
        assert counted.calls == ["set"]
    assert presence.seat_present(table_id=table.pk, seat=0, now=T0 + 2 * ttl - 1.1)
    # seat 1 stopped beating at T0: the first beat at or after its expiry
    # looks and sees it gone, as when every beat looked
    counted.calls.clear()
    assert a.beat(now=T0 + ttl) == (False, False)
    assert counted.calls == ["get_many", "set"]
    # and looks at every beat while the opponent is away
    presence.socket_beat(table_id=table.pk, seat=1, socket_id="b", now=T0 + ttl + 1)
    assert a.beat(now=T0 + ttl + 5) == (False, True)
    # a beat after its own entry lapsed (a long pause) reads, and is back
    assert a.beat(now=T0 + 2 * ttl + 10) == (True, False)


def test_a_socket_at_a_bot_table_never_looks_at_the_bot(alice, room, counted):
    table = table_play_bot(user=alice, room=room, now=T0)
    ttl = presence.ttl()
    a = presence.SocketPresence(table_id=table.pk, seat=0, socket_id="a", watch=False)
    counted.calls.clear()
    assert a.open(now=T0) is True
    assert counted.calls == ["get_many", "add"]
    counted.calls.clear()
    for at in (T0 + 5, T0 + 10, T0 + 15, T0 + 20):
        assert a.beat(now=at) == (False, None)
    assert counted.calls == ["set"] * 4
    # its own lapse is still seen: back
    assert a.beat(now=T0 + 20 + ttl) == (True, None)


def test_a_closed_socket_frees_its_slot(alice, room, counted):
    table = table_quick_match(user=alice, room=room, now=T0)
    a = presence.SocketPresence(table_id=table.pk, seat=0, socket_id="a")
    b = presence.SocketPresence(table_id=table.pk, seat=0, socket_id="b")
    a.open()
    b.open()
    counted.calls.clear()
    a.close()  # its entry is live: it knows the slot, one delete
    assert counted.calls == ["delete"]
    assert presence.seat_present(table_id=table.pk, seat=0)
    b.close()
    assert not presence.seat_present(table_id=table.pk, seat=0)
    # a slot lost to its TTL is looked for among the seat's slots first
    c = presence.SocketPresence(table_id=table.pk, seat=1, socket_id="c")
    c.open(now=T0)
    presence.socket_beat(table_id=table.pk, seat=1, socket_id="d", now=T0 + 1)
    c.close()
    assert presence.seat_present(table_id=table.pk, seat=1, now=T0 + 2)
    presence.socket_gone(table_id=table.pk, seat=1, socket_id="d")
    assert not presence.seat_present(table_id=table.pk, seat=1, now=T0 + 2)


def test_warm_opens_the_cache_and_never_raises(monkeypatch, caplog):
    """``manage.py run_clock`` connects the presence cache at its start; an
    unreachable cache is logged there and left to the first check."""
    presence.warm()

    class Down:
        def get(self, key):
            raise ConnectionError("no cache")

    monkeypatch.setattr(presence, "_cache", lambda: Down())
    presence.warm()
    assert "presence cache unreachable" in caplog.text


def test_refreshes_are_written_together_and_a_closed_socket_s_are_dropped(
    monkeypatch, counted
):
    """games.presence.RefreshBatch: the process's heartbeat refreshes go in
    one set_many after REFRESH_DELAY; a socket that closes meanwhile has its
    refresh dropped (written after the slot is freed, it would keep the
    closed socket present for a TTL); a failed write makes its sockets look
    at their next heartbeat."""
    import asyncio

    monkeypatch.setattr(presence, "REFRESH_DELAY", 0.05)
    now = time.time()
    socks = {
        n: presence.SocketPresence(table_id=990, seat=s, socket_id=n)
        for n, s in (("a", 0), ("b", 1), ("c", 1))
    }
    for sock in socks.values():
        sock.open(now=now)
    for sock in socks.values():  # each has seen the opponent seat present
        sock.beat(now=now + 1)

    def slot(name: str) -> list | None:
        s = 0 if name == "a" else 1
        keys = [presence._slot_key(990, s, i) for i in range(presence.SLOTS)]
        return next(
            (v for v in presence._cache().get_many(keys).values() if v[0] == name),
            None,
        )

    async def beats() -> None:
        batch = presence.refresh_batch()
        for sock in socks.values():
            batch.add(sock, *sock.refresh(now=now + 5))
        counted.calls.clear()
        await batch.withdraw(socks["c"])
        await asyncio.to_thread(socks["c"].close)
        assert counted.calls == ["delete"]
        counted.calls.clear()
        await asyncio.sleep(0.2)
        assert counted.calls == ["set_many"]

    asyncio.run(beats())
    assert slot("a")[1] == slot("b")[1] == now + 5 + presence.ttl()
    assert slot("c") is None  # freed, and not written again

    def broken(entries):
        raise ConnectionError("cache down")

    monkeypatch.setattr(presence, "_write_many", broken)

    async def failed() -> None:
        batch = presence.refresh_batch()
        batch.add(socks["a"], *socks["a"].refresh(now=now + 10))
        await asyncio.sleep(0.2)

    asyncio.run(failed())
    assert socks["a"].refresh(now=now + 11) is None  # looks: a read and a write
    assert socks["b"].refresh(now=now + 11) is not None


def test_looks_go_with_the_batch_one_read_and_one_write_for_all(
    alice, bob, room, monkeypatch, counted
):
    """games.presence.RefreshBatch.look: the heartbeats of a process that
    must look (both seats' slots) are answered together with its refreshes:
    one read (Redis MGET) of every looking socket's slots and one set_many
    of the refreshes and the looks' own slots — the same answers as
    SocketPresence.beat, each socket's slot live a TTL after its beat; a
    look of a socket that closes before the batch is dropped."""
    import asyncio

    monkeypatch.setattr(presence, "REFRESH_DELAY", 0.05)
    ttl = presence.ttl()
    t1 = table_quick_match(user=alice, room=room, now=T0)
    t1 = table_quick_match(user=bob, room=room, now=T0)
    a = presence.SocketPresence(table_id=t1.pk, seat=0, socket_id="a")
    b = presence.SocketPresence(table_id=t1.pk, seat=1, socket_id="b")
    c = presence.SocketPresence(table_id=t1.pk + 10**6, seat=0, socket_id="c")
    d = presence.SocketPresence(table_id=t1.pk + 10**6, seat=1, socket_id="d")
    for sock in (a, b, c, d):
        sock.open(now=T0)
    # a saw no opponent when it opened, c none ever: both look; b refreshes
    write = b.refresh(now=T0 + 5)
    assert write is not None and a.refresh(now=T0 + 5) is None

    async def beats() -> list:
        batch = presence.refresh_batch()
        batch.add(b, *write)
        looks = [batch.look(a, T0 + 5), batch.look(c, T0 + 5)]
        gone = batch.look(d, T0 + 5)
        await batch.withdraw(d)
        counted.calls.clear()
        answers = await asyncio.gather(*looks)
        assert gone.cancelled()
        return answers

    assert asyncio.run(beats()) == [(False, True), (False, True)]
    assert counted.calls == ["get_many", "set_many"]
    for sock, seat, table_id in ((a, 0, t1.pk), (b, 1, t1.pk), (c, 0, t1.pk + 10**6)):
        keys = [presence._slot_key(table_id, seat, i) for i in range(presence.SLOTS)]
        held = [v for v in presence._cache().get_many(keys).values() if v]
        assert held == [[sock.socket_id, T0 + 5 + ttl]]
    # what they learnt is remembered as after a beat: refreshes from now on
    assert a.refresh(now=T0 + 8) is not None and c.refresh(now=T0 + 8) is not None
