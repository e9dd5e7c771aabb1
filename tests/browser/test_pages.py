"""The games pages through Django's test client (no browser): lobby, table,
hand record, report, and the POSTs that seat a player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import HandRecord, Room, Table
from games.services import tables

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_timers(settings):
    settings.MAHJONG_CLOCK = "command"


def player(name: str, coins: int = 10_000) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", "pw-123456-x")
    user.profile.coins = coins
    user.profile.save(update_fields=["coins"])
    return user


def test_lobby_lists_rooms_with_stake_minimum_counts_and_hooks(client):
    rooms = list(Room.objects.filter(active=True).order_by("order", "stake"))
    user = player("lobbyist", coins=500)
    client.force_login(user)
    html = client.get(reverse("games:lobby")).content.decode()
    for room in rooms:
        assert room.name in html
    assert html.count('data-testid="quick-match"') == len(rooms)
    assert html.count('data-testid="play-bot"') == len(rooms)
    assert 'name="level"' in html and 'value="hard"' in html
    # 500 coins: rooms above the minimum are locked for quick match, not practice
    locked = [r for r in rooms if r.min_balance > 500]
    assert html.count("is-locked") == len(locked)
    # counts come from the tables
    other = player("waiter")
    tables.table_quick_match(user=other, room=rooms[0])
    part = client.get(reverse("games:lobby_rooms")).content.decode()
    assert 'data-testid="waiting">1<' in part


def test_anonymous_lobby_asks_to_log_in(client):
    html = client.get(reverse("games:lobby")).content.decode()
    assert reverse("account_login") in html
    assert 'data-testid="play-bot"' not in html


def test_play_bot_post_seats_the_player_and_the_table_page_renders(client):
    user = player("botfan")
    client.force_login(user)
    room = Room.objects.order_by("order", "id").first()
    response = client.post(reverse("games:play_bot", args=[room.pk]), {"level": "easy"})
    table = Table.objects.get(seat0=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    html = client.get(response["Location"]).content.decode()
    # the page's socket address carries its tab token (games.presence.new_tab)
    assert f'ws-connect="/ws/table/{table.pk}/?tab=' in html
    assert 'hx-ext="ws"' in html and 'id="mj-root"' in html
    assert "js/table.js" in html and "css/table.css" in html
    # another player cannot open it
    client.force_login(player("nosy"))
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 404


def test_quick_match_below_the_minimum_is_refused_with_a_message(client):
    user = player("poor", coins=5)
    client.force_login(user)
    room = Room.objects.order_by("order", "id").first()
    response = client.post(reverse("games:quick_match", args=[room.pk]), follow=True)
    assert not Table.objects.filter(seat0=user).exists()
    assert "游戏币" in response.content.decode()


def test_another_practice_while_a_hand_is_played_says_why_it_goes_back(client):
    """Tester: 人机练习 of another rule set took the player back to the
    unfinished hand without a word; the table page now says so (in English
    too), and a first practice says nothing."""
    user = player("unfinished")
    client.force_login(user)
    rooms = list(Room.objects.order_by("order", "id"))
    other = next(r for r in rooms if r.ruleset != rooms[0].ruleset)
    first = client.post(
        reverse("games:play_bot", args=[rooms[0].pk]), {"level": "easy"}, follow=True
    )
    table = Table.objects.get(seat0=user)
    assert "先回到这一桌" not in first.content.decode()
    again = client.post(
        reverse("games:play_bot", args=[other.pk]), {"level": "easy"}, follow=True
    )
    assert again.redirect_chain == [(reverse("games:table", args=[table.pk]), 302)]
    assert "你还有一局没有打完：先回到这一桌。" in again.content.decode()
    assert Table.objects.filter(seat0=user).count() == 1
    client.cookies["django_language"] = "en"
    quick = client.post(reverse("games:quick_match", args=[other.pk]), follow=True)
    assert "You have a hand in progress: back to that table first." in (
        quick.content.decode()
    )


def ended_hand(user: User) -> HandRecord:
    room = Room.objects.order_by("order", "id").first()
    table = tables.table_play_bot(user=user, room=room, level="easy")
    record = HandRecord.objects.get(pk=table.hand_id)
    # end it through the service that annuls a hand (no play needed here)
    from games.services.settlement import hand_annul

    table.refresh_from_db()
    hand_annul(table=table, record=record, now=0.0, reason="test")
    record.refresh_from_db()
    return record


def test_hand_record_for_players_and_staff_only(client):
    user = player("recorder")
    record = ended_hand(user)
    url = reverse("games:hand_record", args=[record.pk])
    client.force_login(user)
    html = client.get(url).content.decode()
    assert 'data-testid="record-events"' in html
    assert 'data-kind="hand_started"' in html
    client.force_login(player("stranger"))
    assert client.get(url).status_code == 404
    staff = player("mod")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(url).status_code == 200


def test_a_practice_hand_offers_no_report_and_refuses_one(client):
    user = player("reporter")
    record = ended_hand(user)
    client.force_login(user)
    page = client.get(reverse("games:hand_record", args=[record.pk])).content.decode()
    assert 'data-testid="report"' not in page
    url = reverse("moderation:report_hand", args=[record.pk])
    again = client.post(url, {"category": "other"}, HTTP_HX_REQUEST="true")
    assert 'role="alert"' in again.content.decode()
    assert "人机练习" in again.content.decode()
