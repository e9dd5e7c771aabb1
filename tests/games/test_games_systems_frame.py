"""Each rule set's special systems as a seat's frame shows them (issue 11 §2).

Real tables through the services: liangren's 明牌 and 加倍 multiply (×4 each,
products when both choose), erren's 开始加倍 makes the settlement header and
the panel's 总番数 agree, youxi counts its pools, and the seat notes of the
multipliers are said from the viewer's side.
"""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.models import Room, Table
from games.presenters import render_frame, seat_context
from games.presenters.settlement import seat_notes, total_fan
from games.protocol import parse_move
from games.services import table_act, table_continue, table_quick_match
from tests.browser.test_frame_templates import parse
from tests.games.conftest import seed_rooms
from tests.games.driver import apply_move, next_move

pytestmark = pytest.mark.django_db


def _pair(alice, bob, room_name: str) -> Table:
    seed_rooms()
    room = Room.objects.get(name=room_name)
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    table.refresh_from_db()
    assert table.status == "playing"
    return table


def _act(table: Table, user, **payload) -> None:
    table.refresh_from_db()
    table_act(
        user=user, table_id=table.pk, move=parse_move({"seq": table.seq, **payload})
    )


def test_liangren_open_hands_and_doubles_multiply_live(alice, bob):
    table = _pair(alice, bob, "两人新手场")
    users = {0: table.seat0, 1: table.seat1}
    ctx = seat_context(table, 0)
    assert ctx["actions"]["pre_deal"] == {"open": True, "double": False}
    assert ctx["stakes"]["multiplier"] == 1 and ctx["stakes"]["ready_win"] == 2
    _act(table, users[0], action="pre_deal", open_hand=True, double=False)
    table.refresh_from_db()
    # the other seat is told the first one opened, and what both would make
    with translation.override("zh-hans"):
        html = parse(render_frame(table, 1))
    note = html.find_all(data_testid="predeal-note")[0].all_text()
    assert "×4" in note and "×16" in note and "对手已选择明牌" in note
    _act(table, users[1], action="pre_deal", open_hand=True, double=False)
    table.refresh_from_db()
    assert table.hand is not None
    ctx = seat_context(table, 0)
    assert ctx["phase"] == "double"
    assert ctx["stakes"]["multiplier"] == 16
    assert {(p["key"], p["who"]) for p in ctx["stakes"]["parts"]} == {
        ("open_hand", "me"),
        ("open_hand", "opponent"),
    }
    # both hands are open now: each seat sees the other's tiles
    assert ctx["opponent"]["tiles"] is not None
    _act(table, users[0], action="double", double=True)
    _act(table, users[1], action="double", double=False)
    table.refresh_from_db()
    for seat in (0, 1):
        assert seat_context(table, seat)["stakes"]["multiplier"] == 32
    with translation.override("zh-hans"):
        html = parse(render_frame(table, 1))
    [mult] = html.find_all(data_testid="multiplier")
    assert mult.attrs["data-value"] == "32"
    # 财神 by the wall, with 白板 standing in for its face (unless it is 白板)
    [wild] = html.find_all(data_testid="wild-tile")
    standin = wild.find_all(data_testid="wild-standin")
    assert bool(standin) == (seat_context(table, 1)["indicators"]["wild"] != "5z")


def test_erren64_double_after_the_deal_has_a_live_multiplier(alice, bob):
    table = _pair(alice, bob, "手游新手场")
    ctx = seat_context(table, 0)
    assert ctx["phase"] == "double" and ctx["actions"]["double"]
    assert ctx["stakes"]["multiplier"] == 1 and ctx["stakes"]["ready_win"] is None
    _act(table, table.seat0, action="double", double=True)
    table.refresh_from_db()
    assert seat_context(table, 1)["stakes"]["multiplier"] == 2
    with translation.override("zh-hans"):
        html = parse(render_frame(table, 1))
    assert "对手已选择加倍" in html.find_all(data_testid="double-note")[0].all_text()


def test_erren_header_and_panel_show_the_same_total_after_start_doubles(alice, bob):
    table = _pair(alice, bob, "新手场")
    users = {0: table.seat0, 1: table.seat1}
    rng = random.Random(5)
    for _hand in range(12):
        for seat in (0, 1):
            _act(table, users[seat], action="pre_deal", open_hand=False, double=True)
        while (move := next_move(table, rng)) is not None:
            seat, payload = move
            payload["seq"] = table.seq
            apply_move(table, users[seat], seat, payload)
        table.refresh_from_db()
        ctx = seat_context(table, 0)
        st = ctx["settlement"]
        if st["result"] == "win":
            break
        for seat in (0, 1):
            table_continue(user=users[seat], table_id=table.pk)
        table.refresh_from_db()
    else:
        pytest.fail("no win in twelve hands")
    # both doubled: 开始加倍's share is four times the fans' sum; 总番数 adds
    # the shares (胡加倍 and 任务 too, when they happened)
    lines = {line["key"]: line["value"] for line in st["lines"]}
    assert lines["start_double"] == 4 * st["fan_total"]
    assert st["total_fan"] == lines["fan"] >= 4 * st["fan_total"] > st["fan_total"]
    with translation.override("zh-hans"):
        html = parse(render_frame(table, 0))
    header = html.find_all(data_testid="header-fan")[0].all_text().strip()
    total = html.find_all(data_testid="total-fan")[0].all_text().strip()
    assert header == f"{total} 番" == f"{st['total_fan']} 番"


def test_youxi_shows_its_pools_against_the_limit(alice, bob):
    table = _pair(alice, bob, "优嘻新手场")
    ctx = seat_context(table, 0)
    assert ctx["pool"] == {"limit": 54, "me": 0, "opponent": 0}
    assert seat_context(table, 0)["stakes"] is None
    seed_rooms()
    mcr = _pair_other(Room.objects.get(name="国标新手场"))
    assert seat_context(mcr, 0)["pool"] is None


def _pair_other(room: Room) -> Table:
    from tests.games.conftest import make_player

    a, b = make_player("carol"), make_player("dave")
    table_quick_match(user=a, room=room)
    return table_quick_match(user=b, room=room)


def test_total_fan_and_seat_notes():
    lines = [
        {"key": "base_fan", "value": 17},
        {"key": "start_double", "value": 34},
        {"key": "fan", "value": 34},
        {"key": "open_hand_0", "value": 4, "note_code": "seat_0"},
        {"key": "open_hand_1", "value": 4, "note_code": "seat_1"},
    ]
    assert total_fan({"lines": lines}, {"fan_total": 17}) == 34
    assert total_fan({}, {"fan_total": 17}) == 17
    notes = [x.get("note_code") for x in seat_notes(lines, 1)]
    assert notes == [None, None, None, "theirs", "mine"]
