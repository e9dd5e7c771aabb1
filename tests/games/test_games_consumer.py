"""The table websocket through the real ASGI stack (session cookie, origin check)."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import HandEvent, Room, Table
from games.protocol import parse_move
from games.services import seat_away, table_continue, table_leave, table_quick_match
from games.services.hands import load_hand
from mahjong_site.asgi import application
from tests.games.conftest import make_player
from tests.games.driver import apply_move, play_out
from tests.games.oob import fragments

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def ws(user, table_id, *, origin=b"http://127.0.0.1", cookies="", extra=()):
    headers = [(b"host", b"127.0.0.1"), (b"origin", origin), *extra]
    if user is not None:
        key = await sync_to_async(_cookie)(user)
        headers.append((b"cookie", f"sessionid={key}{cookies}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


async def drain(comm, wait=0.4):
    out = []
    # receive_nothing does not cancel the app on timeout (receive_from does)
    while not await comm.receive_nothing(timeout=wait, interval=0.02):
        out.append(await comm.receive_from(timeout=5))
    return out


async def answer(comm, wait=0.4):
    """The messages answering what was just sent: the first may take a while
    on a loaded machine, the rest follow it within ``wait`` seconds."""
    return [await comm.receive_from(timeout=10), *await drain(comm, wait)]


STALE = "牌局已更新，请按当前状态操作"


def _toast_text(msg: str) -> str:
    match = re.fullmatch(r'<div id="toast"[^>]*>(.*)</div>', msg, re.S)
    assert match, msg
    return match.group(1)


def _seq(frame: str) -> int:
    return int(re.search(r'data-seq="(\d+)"', frame).group(1))


@sync_to_async
def _state(table_id):
    table = Table.objects.select_related("hand").get(pk=table_id)
    return table, load_hand(table.hand, seq=table.seq)


def _room():
    # transactional tests empty the tables, data migration rows included
    return Room.objects.get_or_create(
        name="新手场", defaults={"stake": 10, "min_balance": 200}
    )[0]


@sync_to_async
def _pair():
    room_ = _room()
    a, b = make_player("wa"), make_player("wb")
    table_quick_match(user=a, room=room_)
    t = table_quick_match(user=b, room=room_)
    return a, b, t


async def test_anonymous_and_unseated_and_foreign_origin_are_refused():
    a, b, table = await _pair()
    comm, _, _ = await ws(None, table.pk)
    assert await comm.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4401,
    }
    carol = await sync_to_async(make_player)("wc")
    comm, _, _ = await ws(carol, table.pk)
    assert await comm.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4403,
    }
    _, connected, _ = await ws(a, table.pk, origin=b"http://evil.example")
    assert connected is False


async def test_every_refusal_is_a_toast_and_changes_nothing():
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk)
    cb, ok2, _ = await ws(b, table.pk)
    assert ok and ok2
    first = (await answer(ca))[0]
    assert 'data-testid="my-hand"' in first
    await drain(cb)
    t, hand = await _state(table.pk)
    seq0 = t.seq

    async def refused(comm, text, expect):
        before, _ = await _state(table.pk)
        await comm.send_to(text_data=text)
        msgs = await answer(comm)
        assert len(msgs) == 1 and 'id="toast"' in msgs[0], msgs
        assert _toast_text(msgs[0]) == expect
        after, _ = await _state(table.pk)
        assert after.seq == before.seq

    # developer detail and long input never reach the page; a huge message
    # is not read at all (issue 11 §5.3: capped size)
    junk = "x" * 200_000
    await refused(ca, json.dumps({"action": junk, "seq": seq0}), "无法识别的操作")
    await refused(
        ca,
        json.dumps({"action": "discard", "seq": seq0, "tile": junk}),
        "无法识别的操作",
    )
    await refused(ca, json.dumps({"action": "x" * 300, "seq": seq0}), "未知的操作")
    await refused(
        ca,
        json.dumps({"action": "discard", "seq": seq0, "tile": "x" * 300}),
        "牌名无效",
    )
    await refused(ca, json.dumps({"action": "pung", "seq": seq0}), "现在不能这样操作")

    await refused(ca, "{not json", "无法识别的操作")
    await refused(ca, json.dumps([1, 2]), "无法识别的操作")
    await refused(ca, json.dumps({"action": "fly", "seq": seq0}), "未知的操作")
    await refused(ca, json.dumps({"action": "discard"}), "缺少或无效的序号")
    await refused(ca, json.dumps({"action": "discard", "seq": "x"}), "缺少或无效的序号")
    # a number no frame ever showed (ahead of the hand)
    await refused(
        ca,
        json.dumps({"action": "pre_deal", "seq": seq0 + 5}),
        "序号无效，请按当前状态操作",
    )
    # erren: both seats choose 开始加倍 before the deal
    assert hand.state.phase.value == "pre_deal"
    await ca.send_to(text_data=json.dumps({"action": "pre_deal", "seq": seq0}))
    frames = await drain(ca)
    assert frames and all('id="toast"' not in f or "mj-toast" in f for f in frames)
    # double submit: the same message again is stale and changes nothing
    t, _ = await _state(table.pk)
    await refused(ca, json.dumps({"action": "pre_deal", "seq": seq0}), STALE)
    await drain(cb)
    await cb.send_to(text_data=json.dumps({"action": "pre_deal", "seq": t.seq}))
    await drain(cb)
    await drain(ca)
    t, hand = await _state(table.pk)
    assert hand.state.phase.value == "turn" and hand.state.turn == 0
    tile = str(hand.legal_actions(0)[-2].to_json().get("tile") or "1m")
    discard = next(x for x in hand.legal_actions(0) if x.kind == "discard")
    tile = str(discard.tile)
    # wrong seat: bob may not discard on alice's turn, even naming seat 0
    await refused(
        cb,
        json.dumps({"action": "discard", "seq": t.seq, "tile": tile, "seat": 0}),
        "还没轮到你",
    )
    # stale seq
    await refused(
        ca, json.dumps({"action": "discard", "seq": t.seq - 1, "tile": tile}), STALE
    )
    # illegal tile
    await refused(
        ca,
        json.dumps({"action": "discard", "seq": t.seq, "tile": "9x"}),
        "牌名无效",
    )
    # a good discard reaches both seats as frames with the new seq
    await ca.send_to(
        text_data=json.dumps({"action": "discard", "seq": str(t.seq), "tile": tile})
    )
    # alice gets her (veiled) frame now, bob his turn or claim window
    fa, fb = await drain(ca, wait=0.5), await drain(cb)
    t2, _ = await _state(table.pk)
    assert t2.seq > t.seq
    assert fa and fb
    assert _seq(fb[-1]) == t2.seq
    assert (
        await sync_to_async(
            HandEvent.objects.filter(hand_id=t.hand_id, kind="discard").count
        )()
        == 1
    )
    # the same discard again (double submit) is refused
    await refused(
        ca, json.dumps({"action": "discard", "seq": t.seq, "tile": tile}), STALE
    )
    await ca.disconnect()
    await cb.disconnect()


async def test_auto_toggle_sync_and_reconnect_restores_control():
    a, b, table = await _pair()
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    await drain(ca)
    await drain(cb)
    t, _ = await _state(table.pk)
    await ca.send_to(text_data=json.dumps({"action": "auto", "seq": t.seq}))
    await drain(ca)
    _, hand = await _state(table.pk)
    assert hand.state.auto[0] is True
    t, _ = await _state(table.pk)
    await ca.send_to(
        text_data=json.dumps({"action": "auto", "seq": t.seq, "on": "false"})
    )
    await drain(ca)
    _, hand = await _state(table.pk)
    assert hand.state.auto[0] is False
    await ca.send_to(text_data=json.dumps({"action": "sync"}))
    frames = await drain(ca)
    assert frames and 'data-testid="my-hand"' in frames[-1]
    # bob goes away; after the grace period his seat is in 托管
    await cb.disconnect()
    t, _ = await _state(table.pk)
    assert t.away_since[0] is None and t.away_since[1] is not None
    after_grace = t.away_since[1] + 20
    assert await sync_to_async(seat_away)(
        table_id=table.pk, seat=1, hand_id=t.hand_id, now=after_grace
    )
    _, hand = await _state(table.pk)
    assert hand.state.auto[1] is True
    # reconnecting: a full frame at once and control back
    cb, ok, _ = await ws(b, table.pk)
    assert ok
    frames = await drain(cb)
    assert frames and 'data-testid="my-hand"' in frames[0]
    _, hand = await _state(table.pk)
    assert hand.state.auto[1] is False
    await ca.disconnect()
    await cb.disconnect()


async def test_continue_regroup_and_accept_bot_over_the_socket():
    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=4)
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    first = (await drain(ca))[0]
    assert 'data-testid="settlement"' in first
    await drain(cb)
    await ca.send_to(text_data=json.dumps({"action": "continue"}))
    assert await drain(cb)  # bob sees alice's vote
    t, _ = await _state(table.pk)
    assert t.continue_votes == [0] and t.status == Table.Status.SETTLING
    await cb.send_to(text_data=json.dumps({"action": "regroup"}))
    msgs = await drain(cb)
    assert any('id="redirect"' in m for m in msgs)
    new_id = int(re.search(r'data-url="/table/(\d+)/"', "".join(msgs)).group(1))
    assert new_id != table.pk
    # alice, alone at a new quick table, takes the offered bot
    await ca.send_to(text_data=json.dumps({"action": "regroup"}))
    msgs = await drain(ca)
    a_table = int(re.search(r'data-url="/table/(\d+)/"', "".join(msgs)).group(1))
    assert a_table == new_id  # paired with bob again
    await ca.disconnect()
    await cb.disconnect()
    carol = await sync_to_async(make_player)("wd")
    room_ = await sync_to_async(_room)()
    waiting = await sync_to_async(table_quick_match)(user=carol, room=room_)
    cc, _, _ = await ws(carol, waiting.pk)
    await drain(cc)
    await cc.send_to(text_data=json.dumps({"action": "accept_bot"}))
    frames = await drain(cc)
    t, hand = await _state(waiting.pk)
    assert t.kind == Table.Kind.BOT and t.status == Table.Status.PLAYING
    assert frames and _seq(frames[-1]) == t.seq
    await cc.send_to(text_data=json.dumps({"action": "leave"}))
    msgs = await drain(cc)
    assert "这一盘还没有结束" in msgs[0]
    await cc.disconnect()


def _goto(frames: list[str]) -> str | None:
    """The URL the last frame's closed-table notice sends the browser to."""
    found = re.findall(
        r'data-testid="table-closed"[^>]*? data-goto="([^"]+)"', "".join(frames)
    )
    return found[-1] if found else None


async def test_settlement_countdown_sends_both_idle_players_to_the_lobby():
    from games.services import table_settle_timeout

    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=2)
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    before = await drain(ca)
    await drain(cb)
    assert 'data-testid="settle-countdown"' in before[-1]
    assert _goto(before) is None  # the countdown still runs
    t, _ = await _state(table.pk)
    assert (
        await sync_to_async(table_settle_timeout)(table_id=t.pk, hand_id=t.hand_id)
        is True
    )
    for comm in (ca, cb):
        frames = await drain(comm)
        assert len(frames) == 1
        assert 'data-testid="table-closed"' in frames[0]
        assert _goto(frames) == "/lobby/"
    t, _ = await _state(table.pk)
    assert t.status == Table.Status.CLOSED and t.settle_deadline is not None
    # the job again: nothing closes twice; the page, which holds the closed
    # notice, is sent the status alone (games.presenters.render.Frame.changes)
    assert (
        await sync_to_async(table_settle_timeout)(table_id=t.pk, hand_id=t.hand_id)
        is False
    )
    again = await drain(ca)
    assert [f.id for m in again for f in fragments(m)] == ["mj-status", "toast"]
    await ca.disconnect()
    await cb.disconnect()


async def test_continue_is_shown_to_the_opponent_and_a_timeout_is_said_not_requeued():
    """Issue 11 §4: the other player sees that their opponent chose to
    continue; when the countdown ends without them, the voter is told so and
    offered 分组, not silently put back into matchmaking."""
    from games.services import table_settle_timeout

    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=2)
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    await drain(ca)
    await drain(cb)
    await ca.send_to(text_data=json.dumps({"action": "continue"}))
    alice_frames = await drain(ca)
    bob_frames = await drain(cb)
    assert 'data-testid="continue-waiting"' in alice_frames[-1]
    assert 'data-testid="opponent-continued"' in bob_frames[-1]
    assert 'data-testid="settle-countdown"' in bob_frames[-1]
    # the voter's countdown is the opponent's time: no way out at its end
    alice_timer = re.search(
        r'data-testid="settle-countdown">(.*?)</div>', alice_frames[-1], re.S
    )
    assert alice_timer
    assert "data-lobby-url" not in alice_timer.group(1)
    t, _ = await _state(table.pk)
    assert t.continue_votes == [0]
    assert (
        await sync_to_async(table_settle_timeout)(table_id=t.pk, hand_id=t.hand_id)
        is True
    )
    alice_frames = await drain(ca)
    bob_frames = await drain(cb)
    # alice wanted to play on: told, offered 分组, and not queued anywhere
    assert 'data-testid="opponent-left"' in alice_frames[-1]
    assert 'data-testid="regroup"' in alice_frames[-1]
    assert _goto(alice_frames) is None
    others = await sync_to_async(
        lambda: Table.objects.exclude(pk=table.pk).filter(seat0=a).count()
    )()
    assert others == 0
    # bob did nothing: the lobby
    assert _goto(bob_frames) == "/lobby/"
    await ca.disconnect()
    await cb.disconnect()


async def test_the_settlements_leave_control_closes_the_table_and_tells_the_opponent():
    """离开，回到大厅 in the settlement posts to the table's leave: the table
    closes at once and the opponent reads 对手已离开牌桌 instead of waiting out
    the countdown (fresh tester: it was a plain link to the lobby)."""
    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=2)
    ca, _, _ = await ws(a, table.pk)
    cb, _, _ = await ws(b, table.pk)
    await drain(ca)
    bob_frames = await drain(cb)
    found = re.search(
        r'<form class="mj-leave-form" hx-post="([^"]+)"[^>]*><button type="submit"'
        r'[^>]*data-testid="leave-link"',
        bob_frames[-1],
    )
    assert found and found.group(1) == f"/table/{table.pk}/leave/"

    def post():
        client = Client()
        client.force_login(b)
        return client.post(found.group(1), headers={"HX-Request": "true"})

    response = await sync_to_async(post)()
    assert (response.status_code, response["HX-Redirect"]) == (204, "/lobby/")
    frames = await drain(ca)
    assert 'data-testid="opponent-left"' in frames[-1]
    assert 'data-by="opponent"' in frames[-1] and 'data-reason="left"' in frames[-1]
    t, _ = await _state(table.pk)
    assert (t.status, t.closed_reason, t.closed_seat) == (
        Table.Status.CLOSED,
        "left",
        1,
    )
    await ca.disconnect()
    await cb.disconnect()


async def test_the_opponent_leaving_during_the_countdown_is_said():
    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=2)
    ca, _, _ = await ws(a, table.pk)
    await drain(ca)
    await ca.send_to(text_data=json.dumps({"action": "continue"}))
    await drain(ca)
    await sync_to_async(table_leave)(user=b, table_id=table.pk)
    frames = await drain(ca)
    assert 'data-testid="opponent-left"' in frames[-1]
    assert 'data-by="opponent"' in frames[-1] and 'data-reason="left"' in frames[-1]
    assert _goto(frames) is None
    t, _ = await _state(table.pk)
    assert (t.closed_reason, t.closed_seat) == ("left", 1)
    await ca.disconnect()


async def test_a_table_left_early_sends_the_last_browser_to_the_lobby_at_the_end():
    from games.services import table_settle_timeout

    a, b, table = await _pair()
    await sync_to_async(play_out)(table, {0: a, 1: b}, seed=2)
    ca, _, _ = await ws(a, table.pk)
    await drain(ca)
    await sync_to_async(table_leave)(user=b, table_id=table.pk)
    frames = await drain(ca)
    assert 'data-testid="table-closed"' in frames[-1]
    assert _goto(frames) is None  # alice reads the result until the countdown ends
    t, _ = await _state(table.pk)
    assert (
        await sync_to_async(table_settle_timeout)(table_id=t.pk, hand_id=t.hand_id)
        is False
    )
    assert _goto(await drain(ca)) == "/lobby/"
    await ca.disconnect()


async def test_frames_and_toasts_speak_the_players_language():
    """Tester's bug: an English player got Chinese frames from the websocket."""
    a, b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk, cookies="; django_language=en")
    cb, ok2, _ = await ws(b, table.pk)
    assert ok and ok2
    frame_en, frame_zh = (await drain(ca))[0], (await drain(cb))[0]
    assert 'data-testid="my-hand"' in frame_en
    # the pre-deal choice (明牌/加倍 or 不选) in each player's language
    assert "不选" in frame_zh and "不选" not in frame_en
    assert "No thanks" in frame_en
    t, _ = await _state(table.pk)
    await ca.send_to(text_data=json.dumps({"action": "pre_deal", "seq": t.seq - 1}))
    assert _toast_text((await drain(ca))[-1]) == (
        "The table moved on; act on the current state"
    )
    await cb.send_to(text_data=json.dumps({"action": "fly", "seq": t.seq}))
    assert _toast_text((await drain(cb))[-1]) == "未知的操作"
    # no cookie: Chinese first, as on the pages, whatever Accept-Language says
    await ca.disconnect()
    ca, ok, _ = await ws(a, table.pk, extra=[(b"accept-language", b"en-GB,en;q=0.8")])
    assert ok
    assert "不选" in (await drain(ca))[0]
    await ca.disconnect()
    await cb.disconnect()


@sync_to_async
def _to_a_discard(table_id, users):
    """Play (through the services) until a seat must discard; return it."""
    import random

    from tests.games.driver import next_move

    rng = random.Random(table_id)
    for _ in range(50):
        table = Table.objects.select_related("hand").get(pk=table_id)
        hand = load_hand(table.hand, seq=table.seq)
        s = hand.state
        if hand.ended:
            return None
        if s.phase.value == "turn" and s.pending[s.turn]:
            return s.turn
        seat, payload = next_move(table, rng)
        apply_move(table, users[seat], seat, payload)
    return None


async def test_the_veiled_frame_shows_the_claim_prompt_seq_in_both_cases(settings):
    """Issues 6 and 11 §5.2: the discarder's frame under the veil carries the
    seq of the claim prompt right after its discard, whether the opponent
    could claim (the window is really open) or not (the engine passed for it
    at once); nothing more reaches its socket — not even when the opponent
    passes — until the opponent's own move, which shows the real seq."""
    a, b, table = await _pair()
    users = {0: a, 1: b} if table.seat0_id == a.pk else {0: b, 1: a}
    comms = {}
    for seat in (0, 1):
        comms[seat], ok, _ = await ws(users[seat], table.pk)
        assert ok
    seen = set()
    for _ in range(60):
        seat = await _to_a_discard(table.pk, users)
        if seat is None:  # the hand ended: deal the next one (walls are random)
            t, hand = await _state(table.pk)
            if hand is None or not hand.ended:
                break
            for s in (0, 1):
                await sync_to_async(table_continue)(user=users[s], table_id=table.pk)
            for c in comms.values():
                await drain(c, wait=0.1)
            continue
        for c in comms.values():
            await drain(c, wait=0.1)
        t, hand = await _state(table.pk)
        tile = str(
            next(x for x in hand.legal_actions(seat) if x.kind == "discard").tile
        )
        await comms[seat].send_to(
            text_data=json.dumps({"action": "discard", "seq": t.seq, "tile": tile})
        )
        first = await comms[seat].receive_from(timeout=5)
        t2, hand2 = await _state(table.pk)
        discard = await sync_to_async(
            HandEvent.objects.filter(hand_id=t.hand_id, kind="discard").latest
        )("seq")
        if hand2.ended:  # the last tile: no window, 流局 at once, nothing veiled
            assert t2.veil is None
            continue
        veil = t2.veil
        assert veil is not None and veil["seat"] == seat
        claim = t2.seq == discard.seq + 1  # the window is open
        assert _seq(first) == discard.seq + 1 == veil["shown"]
        assert 'data-phase="turn"' in first  # the opponent's turn, claim or not
        opp = 1 - seat
        if claim:
            await comms[opp].send_to(
                text_data=json.dumps({"action": "pass", "seq": t2.seq})
            )
            await drain(comms[opp])
        t3, hand3 = await _state(table.pk)
        if hand3.ended or hand3.state.pending[seat]:
            continue  # the wall ran out, or a locked opponent discarded at once
        assert await drain(comms[seat], wait=0.3) == []  # nothing at the pass
        move = next(x for x in hand3.legal_actions(opp) if x.kind == "discard")
        await comms[opp].send_to(
            text_data=json.dumps(
                {"action": "discard", "seq": t3.seq, "tile": str(move.tile)}
            )
        )
        later = await drain(comms[seat], wait=0.5)
        t4, _ = await _state(table.pk)
        assert later and _seq(later[-1]) == t4.seq  # the real seq once lifted
        await drain(comms[opp], wait=0.1)
        seen.add(claim)
        if seen == {True, False}:
            break
    assert seen == {True, False}
    for c in comms.values():
        await c.disconnect()


async def test_a_socket_gets_what_changed_and_the_whole_frame_when_behind(settings):
    """Partial frames over the real socket assemble into the whole frame that
    ``sync`` sends; a browser whose seq is not the one last sent (its ping
    says so) is sent the whole frame, a browser up to date nothing."""
    import random

    from games.services import table_act
    from tests.games.driver import next_move
    from tests.games.oob import Page

    # no presence may expire while a loaded machine plays the 20 moves: an
    # opponent whose entry expired is shown as away, a frame the last ping
    # would then rightly get
    settings.MAHJONG_PRESENCE_TTL = 600
    a, b, table = await _pair()
    users = {0: a, 1: b}
    socks = [(await ws(a, table.pk))[0], (await ws(b, table.pk))[0]]
    pages = []
    for comm in socks:
        first = await answer(comm)
        assert len(fragments(first[-1])) == 10  # connect: the whole frame
        pages.append(Page(first[-1]))
    rng = random.Random(3)
    partial = 0
    for _ in range(20):
        move = await sync_to_async(next_move)(table, rng)
        if move is None:
            break
        await sync_to_async(table_act)(
            user=users[move[0]], table_id=table.pk, move=parse_move(move[1])
        )
        for page, comm in zip(pages, socks, strict=True):
            for msg in await drain(comm, 0.3):
                partial += len(fragments(msg)) < 10
                page.swap(msg)
    assert partial >= 6
    seqs = []
    for page, comm in zip(pages, socks, strict=True):
        await comm.send_to(text_data=json.dumps({"action": "sync"}))
        whole = (await answer(comm))[-1]
        assert len(fragments(whole)) == 10
        assert page.view() == Page(whole).view()
        seqs.append(_seq(whole))
    ca = socks[0]
    await ca.send_to(text_data=json.dumps({"action": "ping", "seq": seqs[0]}))
    assert await drain(ca) == []
    await ca.send_to(text_data=json.dumps({"action": "ping", "seq": seqs[0] - 1}))
    again = await answer(ca)
    assert len(again) == 1 and len(fragments(again[0])) == 10
    for comm in socks:
        await comm.disconnect()


async def test_a_new_hands_moves_are_rendered_after_the_movers_own_render():
    """seq restarts with each hand: a seat whose own move rendered hand A at
    seq 40 must still render hand B's deal at seq 3 (the 继续 after a hand
    its own move ended), and only skips hand A's messages up to seq 40."""
    from games.consumers import TableConsumer

    consumer = TableConsumer()
    consumer.seat = 0
    rendered: list[bool] = []

    async def send_frame(*, changed_only: bool = False) -> None:
        rendered.append(changed_only)
        consumer._acted = None

    consumer.send_frame = send_frame  # type: ignore[method-assign]
    move = [{"kind": "discard"}]
    for message, renders in [
        ({"hand": 7, "seq": 40, "events": move}, False),  # its own move's state
        ({"hand": 7, "seq": 39, "events": move}, False),  # an older one
        ({"hand": 8, "seq": 3, "events": move}, True),  # the next hand's deal
    ]:
        consumer._acted = (7, 40)
        rendered.clear()
        await consumer.table_update({"type": "table.update", **message})
        assert rendered == ([True] if renders else []), message
    consumer._acted = (7, 40)
    rendered.clear()
    await consumer.table_update(
        {"type": "table.update", "hand": 7, "seq": 41, "events": move}
    )
    assert rendered == [True]


async def test_a_carried_frame_is_sent_only_to_its_seat_language_and_a_later_state():
    """A move's group message may carry one seat's frame (rendered by the
    mover's consumer); a socket sends it instead of rendering only when it is
    its own seat's, in its language, and of a later state of the same hand
    than the frame it last rendered — a message overtaken by a later one must
    not send an older frame."""
    from games.consumers import TableConsumer
    from games.presenters.render import FRAME_PARTS

    consumer = TableConsumer()
    consumer.seat, consumer.lang = 1, "en"
    rendered: list[bool] = []
    sent: list[str] = []

    async def send_frame(*, changed_only: bool = False) -> None:
        rendered.append(changed_only)

    async def send(text_data: str) -> None:
        sent.append(text_data)

    consumer.send_frame = send_frame  # type: ignore[method-assign]
    consumer.send = send  # type: ignore[method-assign]
    parts = {name: f'<div id="{name}">41</div>' for name in FRAME_PARTS}
    frame = {"seat": 1, "lang": "en", "seq": 41, "parts": parts}
    move = [{"kind": "discard"}]
    for carried, shown, uses in [
        (frame, (7, 40), True),
        ({**frame, "seat": 0}, (7, 40), False),  # the other seat's
        ({**frame, "lang": None}, (7, 40), False),  # another language
        (frame, (7, 41), False),  # that state was rendered here already
        (frame, (7, 42), False),  # a later one was: the message is late
        (frame, (6, 40), False),  # the last frame was of another hand
        (frame, None, False),  # nothing rendered here yet
    ]:
        consumer._shown, consumer._sent = shown, None
        rendered.clear()
        sent.clear()
        await consumer.table_update(
            {
                "type": "table.update",
                "hand": 7,
                "seq": 41,
                "events": move,
                "frame": carried,
            }
        )
        assert rendered == ([] if uses else [True]), (carried, shown)
        assert len(sent) == uses
        if uses:
            assert sent[0] == "\n".join(parts[name] for name in FRAME_PARTS)
            assert consumer._shown == (7, 41)


async def test_the_opponents_frame_comes_with_the_move_and_assembles(
    settings, monkeypatch
):
    """A move sent over a socket carries the opponent's frame in its group
    message (rendered in the mover's thread); the opponent's socket sends it
    without rendering, and both pages still assemble into the whole frame
    that ``sync`` sends."""
    import asyncio
    import random
    import time

    from games.consumers import TableConsumer
    from tests.games.driver import next_move, unveiled_at
    from tests.games.oob import Page

    settings.MAHJONG_PRESENCE_TTL = 600  # no presence expires meanwhile
    used: list[bool] = []
    carried = TableConsumer._carried

    def spy(self, event):
        frame = carried(self, event)
        used.append(frame is not None)
        return frame

    monkeypatch.setattr(TableConsumer, "_carried", spy)
    a, b, table = await _pair()
    users = {0: a, 1: b} if table.seat0_id == a.pk else {0: b, 1: a}
    socks, pages = {}, {}
    for seat in (0, 1):
        socks[seat] = (await ws(users[seat], table.pk))[0]
        pages[seat] = Page((await answer(socks[seat]))[-1])
    rng = random.Random(5)
    moves = 0
    for _ in range(20):
        move = await sync_to_async(next_move)(table, rng)
        if move is None:
            break
        seat, payload = move
        await asyncio.sleep(max(0.0, unveiled_at(table, seat) - time.time()))
        await socks[seat].send_to(text_data=json.dumps(payload))
        for s in (seat, 1 - seat):
            for msg in await drain(socks[s], 0.3):
                pages[s].swap(msg)
        moves += 1
    assert moves >= 10
    assert sum(used) >= moves // 2, used
    for seat in (0, 1):
        for msg in await drain(socks[seat], 0.3):
            pages[seat].swap(msg)
        await socks[seat].send_to(text_data=json.dumps({"action": "sync"}))
        whole = (await answer(socks[seat]))[-1]
        assert len(fragments(whole)) == 10
        assert pages[seat].view() == Page(whole).view()
    for comm in socks.values():
        await comm.disconnect()


async def test_a_moves_held_messages_are_sent_in_order_by_the_consumers_loop():
    """The messages a move's worker thread holds
    (games.services.notify.held_broadcasts) are sent in order by a task of
    the consumer's event loop; the thread does not wait for the layer."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.services.notify import held_broadcasts, notify_table, table_group

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table_group(990), channel)
    loop = asyncio.get_running_loop()

    def move() -> list[int | None]:
        with held_broadcasts(loop) as held:
            notify_table(990, hand_id=1, events=[{"kind": "discard"}], seq=5)
            notify_table(990)
        return [m.get("seq") for m in held]

    assert await sync_to_async(move, thread_sensitive=False)() == [5, None]
    got = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(2)]
    assert [(m["table"], m.get("seq")) for m in got] == [(990, 5), (990, None)]
    await layer.group_discard(table_group(990), channel)
