"""The lobby grouped by rule set, and the 好友房 whose host picks rule set and stake.

Issue 11 §2: default rooms for each of the six rule sets; the lobby groups
rooms by rule set with a one-line description and a link to the rules page;
stable hooks: one ``data-testid="room"`` per room with ``data-ruleset``,
holding its ``play-bot`` and ``quick-match`` buttons.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Room, Table
from games.rules.rulesets import NAMES
from tests.browser.test_frame_templates import parse
from tests.games.conftest import seed_rooms

pytestmark = pytest.mark.django_db


@pytest.fixture
def rooms(db):
    seed_rooms()
    return {r.name: r for r in Room.objects.all()}


def _lobby(client) -> object:
    return parse(client.get(reverse("games:lobby")).content.decode())


def test_every_room_has_its_hooks_inside_its_rule_set_group(client, alice, rooms):
    client.force_login(alice)
    root = _lobby(client)
    cards = root.find_all(data_testid="room")
    assert len(cards) == Room.objects.filter(active=True).count() == 13
    for card in cards:
        room = Room.objects.get(pk=int(card.attrs["data-room"]))
        assert card.attrs["data-ruleset"] == room.ruleset
        assert len(card.find_all(data_testid="play-bot")) == 1
        assert len(card.find_all(data_testid="quick-match")) == 1
    groups = root.find_all(data_testid="ruleset-group")
    assert [g.attrs["data-ruleset"] for g in groups] == list(NAMES)
    for g in groups:
        name = g.attrs["data-ruleset"]
        inside = {c.attrs["data-ruleset"] for c in g.find_all(data_testid="room")}
        assert inside == {name}
        [link] = g.find_all(data_testid="ruleset-rules")
        assert link.attrs["href"] == f"/rules/{name}/"
        [line] = g.find_all(data_testid="ruleset-line")
        assert len(line.all_text().strip()) > 20
        # the friend-table form offers exactly this rule set's stakes
        stakes = [
            o.attrs["value"] for o in g.find_all(data_testid="friend-stake")[0].children
        ]
        assert sorted(map(int, stakes)) == sorted(
            Room.objects.filter(ruleset=name).values_list("pk", flat=True)
        )


def test_the_one_line_descriptions_use_the_rule_sets_figures(client, alice, rooms):
    client.force_login(alice)
    text = {
        g.attrs["data-ruleset"]: g.find_all(data_testid="ruleset-line")[0].all_text()
        for g in _lobby(client).find_all(data_testid="ruleset-group")
    }
    assert text["erren"].startswith("72 张")
    assert "144 张" in text["mcr"] and "8 番起和" in text["mcr"]
    assert text["erren64"].startswith("64 张")
    assert "另加 10 番" in text["jj"]
    assert "明牌 ×4" in text["liangren"] and "听牌胡 ×2" in text["liangren"]
    assert "1 番起和" in text["youxi"]
    with translation.override("en"):
        client.cookies["django_language"] = "en"
        html = client.get(reverse("games:lobby")).content.decode()
    assert "Open hand ×4" in html and "Mahjong Competition Rules: 144 tiles" in html
    assert not re.search(r"[\u4e00-\u9fff]张", html)


def test_a_room_the_player_cannot_afford_is_locked_but_practice_stays(client, rooms):
    from tests.games.conftest import make_player

    poor = make_player("poor", coins=300)
    client.force_login(poor)
    root = _lobby(client)
    by_name = {
        Room.objects.get(pk=int(c.attrs["data-room"])).name: c
        for c in root.find_all(data_testid="room")
    }
    assert "disabled" in by_name["初级场"].find_all(data_testid="quick-match")[0].attrs
    assert (
        "disabled" not in by_name["新手场"].find_all(data_testid="quick-match")[0].attrs
    )
    assert "disabled" not in by_name["初级场"].find_all(data_testid="play-bot")[0].attrs
    # the friend form disables the stakes this balance cannot enter
    erren = [
        g
        for g in root.find_all(data_testid="ruleset-group")
        if g.attrs["data-ruleset"] == "erren"
    ][0]
    options = erren.find_all(data_testid="friend-stake")[0].children
    locked = {
        Room.objects.get(pk=int(o.attrs["value"])).name
        for o in options
        if "disabled" in o.attrs
    }
    assert locked == {"初级场", "高级场"}


def test_friend_table_in_the_chosen_rule_set_and_stake(client, alice, rooms):
    client.force_login(alice)
    room = rooms["两人高级场"]
    response = client.post(reverse("games:friend_table_pick"), {"room": room.pk})
    table = Table.objects.get(seat0=alice, kind=Table.Kind.FRIEND)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.room == room and table.invite_token
    assert (table.room.ruleset, table.room.stake) == ("liangren", 50)
    page = client.get(response["Location"]).content.decode()
    assert "两人麻将" in page and "基数 50" in page


def test_friend_table_refuses_a_missing_or_unknown_room(client, alice, rooms):
    client.force_login(alice)
    response = client.post(reverse("games:friend_table_pick"), {"room": "x"})
    assert response.status_code == 302 and response["Location"] == "/lobby/"
    assert not Table.objects.filter(seat0=alice).exists()
    assert (
        client.post(reverse("games:friend_table_pick"), {"room": 99999}).status_code
        == 404
    )
    Room.objects.filter(pk=rooms["JJ新手场"].pk).update(active=False)
    response = client.post(
        reverse("games:friend_table_pick"), {"room": rooms["JJ新手场"].pk}
    )
    assert response.status_code == 404
    assert not Table.objects.filter(seat0=alice).exists()


def test_the_table_page_is_never_cached(client, alice, rooms):
    """Back to a table must fetch it anew: a cached copy showed the hand as at
    the deal (and its socket's first frame the win's call as news)."""
    client.force_login(alice)
    client.post(reverse("games:friend_table_pick"), {"room": rooms["两人高级场"].pk})
    table = Table.objects.get(seat0=alice, kind=Table.Kind.FRIEND)
    response = client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
