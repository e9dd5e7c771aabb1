"""Lobby, access checks, the hand record, reports and the admin pages."""

import pytest
from django.http import Http404
from django.urls import reverse
from django.utils import translation

from games.models import HandRecord, Room, Table
from games.presenters import seat_context
from games.selectors import access_hand_record, access_table, hand_log, lobby_rooms
from games.services import table_play_bot, table_quick_match
from tests.games.conftest import make_player, seed_rooms
from tests.games.driver import play_out

pytestmark = pytest.mark.django_db


def test_rooms_come_from_the_data_migration():
    seed_rooms()  # idempotent: get_or_create
    seed_rooms()
    rooms = {r.name: (r.stake, r.min_balance, r.ruleset) for r in Room.objects.all()}
    assert rooms == {
        "新手场": (10, 200, "erren"),
        "初级场": (100, 2_000, "erren"),
        "高级场": (1000, 20_000, "erren"),
        "国标新手场": (10, 200, "mcr"),
        "国标高级场": (100, 2_000, "mcr"),
        "手游新手场": (10, 400, "erren64"),
        "手游高级场": (100, 4_000, "erren64"),
        "JJ新手场": (10, 400, "jj"),
        "JJ高级场": (100, 4_000, "jj"),
        "两人新手场": (5, 500, "liangren"),
        "两人高级场": (50, 5_000, "liangren"),
        "优嘻新手场": (20, 200, "youxi"),
        "优嘻高级场": (200, 2_000, "youxi"),
    }


def test_lobby_groups_rooms_by_rule_set_in_rule_set_order():
    from games.rules.rulesets import NAMES
    from games.selectors import lobby_groups

    seed_rooms()
    groups = lobby_groups()
    assert [g.ruleset for g in groups] == list(NAMES)
    for g in groups:
        assert g.rooms and all(r.room.ruleset == g.ruleset for r in g.rooms)
    erren = groups[0]
    assert [r.room.name for r in erren.rooms] == ["新手场", "初级场", "高级场"]
    # a rule set without an open room is left out
    Room.objects.filter(ruleset="youxi").update(active=False)
    assert "youxi" not in [g.ruleset for g in lobby_groups()]


def test_lobby_counts_waiting_players_and_tables_playing(alice, bob, room):
    carol = make_player("carol")
    table_quick_match(user=alice, room=room)
    table_quick_match(user=bob, room=room)  # paired: one table playing
    table_quick_match(user=carol, room=room)  # waiting
    by_name = {r.room.name: r for r in lobby_rooms()}
    assert (by_name["新手场"].waiting, by_name["新手场"].playing) == (1, 1)
    assert (by_name["高级场"].waiting, by_name["高级场"].playing) == (0, 0)
    Room.objects.filter(name="高级场").update(active=False)
    erren = [r.room.name for r in lobby_rooms() if r.room.ruleset == "erren"]
    assert erren == ["新手场", "初级场"]


def test_access_table_only_for_seated_players(alice, bob, room):
    table = table_quick_match(user=alice, room=room)
    assert access_table(user=alice, table_id=table.pk) == (table, 0)
    with pytest.raises(Http404):
        access_table(user=bob, table_id=table.pk)
    with pytest.raises(Http404):
        access_table(user=alice, table_id=999_999)


def test_hand_record_for_players_and_staff_after_the_end(alice, bob, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    record = HandRecord.objects.get(pk=table.hand_id)
    with pytest.raises(Http404):  # still being played: no peeking
        access_hand_record(user=alice, hand_id=record.pk)
    play_out(table, {0: alice}, seed=1)
    assert access_hand_record(user=alice, hand_id=record.pk) == record
    record.refresh_from_db()
    with pytest.raises(Http404):
        access_hand_record(user=bob, hand_id=record.pk)
    staff = make_player("mod")
    staff.is_staff = True
    staff.save()
    assert access_hand_record(user=staff, hand_id=record.pk) == record
    log = hand_log(record)
    assert log[0]["kind"] == "hand_started" and log[-1]["kind"] == "hand_ended"
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    # both hands open after the end, the seed revealed and matching
    assert log[-1]["data"]["seed"] == record.seed == record.secret_seed
    deals = [e for e in log if e["kind"] == "deal"]
    assert all("tiles" in e["data"] for e in deals)


def test_hand_record_final_hands_show_each_seats_flowers(alice, room, client):
    """The replay's last step shows each seat's flowers set aside, as the
    settlement does."""
    import re

    from games.engine.view import render_view
    from games.record import record_context
    from games.services.hands import load_hand

    for seed in range(30):  # a hand where flowers were drawn
        table = table_play_bot(user=alice, room=room, level="easy")
        play_out(table, {0: alice}, seed=seed)
        record = HandRecord.objects.get(pk=table.hand_id)
        table.refresh_from_db()
        hand = load_hand(record, seq=table.seq)
        view = render_view(hand, 0)
        engine = [view["me"]["flowers"], view["opponent"]["flowers"]]
        if engine[0] or engine[1]:
            break
    else:  # pragma: no cover - the rule set has 8 flowers
        pytest.fail("no flowers in 30 hands")
    ctx = record_context(record)
    # the same flowers per seat (the record lists them in the order drawn)
    assert [sorted(h["flowers"]) for h in ctx["hands"]] == [sorted(f) for f in engine]
    client.force_login(alice)
    with translation.override("zh-hans"):
        url = reverse("games:hand_record", args=[record.pk]) + "?step=100000"
        page = client.get(url).content.decode()
    board = page[page.index('id="rp-board"') : page.index('class="rp-panel')]
    seats = re.split(r'data-testid="replay-seat" data-seat="(\d)"', board)[1:]
    assert [seats[0], seats[2]] == ["1", "0"]  # the viewer at the bottom
    for seat, block in ((int(seats[0]), seats[1]), (int(seats[2]), seats[3])):
        shown = re.findall(
            r'data-testid="replay-flowers".*?((?:<img[^>]*>)+)</div>', block, re.S
        )
        flowers = engine[0] if seat == 0 else engine[1]
        if flowers:
            srcs = re.findall(r"tiles/(\w+)\.svg", shown[0])
            assert sorted(srcs) == sorted(flowers)
        else:
            assert shown == []


def test_seat_context_of_a_waiting_table_offers_a_bot_after_the_wait(
    alice, room, settings
):
    settings.MAHJONG_BOT_OFFER_AFTER = 20
    table = table_quick_match(user=alice, room=room)
    created = table.created.timestamp()
    ctx = seat_context(table, 0, now=created + 5)
    assert ctx["phase"] == "waiting" and ctx["bot_offer"] is False
    assert ctx["players"]["opponent"]["nickname"] == "空座位"
    assert seat_context(table, 0, now=created + 21)["bot_offer"] is True


def test_seat_context_keys_during_a_bot_hand(alice, room):
    table = table_play_bot(user=alice, room=room, level="hard")
    ctx = seat_context(table, 0)
    assert ctx["table"]["practice"] is True
    assert ctx["players"]["opponent"]["nickname"] == "电脑（困难）"
    with translation.override("en"):
        ctx = seat_context(table, 0)
    assert ctx["players"]["opponent"]["nickname"] == "Computer (Hard)"
    assert ctx["players"]["me"]["balance"] == 10_000
    assert ctx["seq"] == table.seq
    assert set(ctx["actions"]) >= {"discard", "chi", "pung", "kong", "hu", "pass"}
    if ctx["phase"] == "turn" and ctx["my_turn"]:
        assert ctx["deadline"]["seat"] == "me" and ctx["deadline"]["seconds"] == 15


def test_admin_pages_list_every_model(admin_client, alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    for model in ("room", "table", "match", "handrecord", "handevent", "handseat"):
        url = reverse(f"admin:games_{model}_changelist")
        assert admin_client.get(url).status_code == 200, model
    url = reverse("admin:games_handrecord_change", args=[table.hand_id])
    page = admin_client.get(url)
    assert page.status_code == 200 and "hand_started" in page.content.decode()
    assert Table.objects.count() == 1


def test_record_notes_use_the_language_s_separators():
    """Tester's report: "西窗月、Computer (Normal)：Pre-deal choice" in English."""
    from django.utils import translation

    from games.record import _note

    names = {0: "东风客", 1: "Bot"}
    prompt = {"phase": "pre_deal", "seats": [0, 1]}
    both = {"open_hand": True, "double": True}
    with translation.override("en"):
        assert _note("prompt", prompt, names) == "东风客, Bot: Pre-deal choice"
        assert _note("pre_deal_choice", both) == "Open hand, Double"
    with translation.override(None):
        assert _note("prompt", prompt, names) == "东风客、Bot：开局选择"
        assert _note("pre_deal_choice", both) == "明牌、加倍"
