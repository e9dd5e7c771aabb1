"""Sanctions with teeth: lobby, matching, the table, reports, boards, 托管."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import HandRecord, Table
from games.services import TableError, table_play_bot, table_quick_match
from games.services.hands import load_hand
from leaderboard.eligibility import board_eligible
from moderation.models import Sanction
from moderation.services.sanctions import sanction_enforce
from tests.games.conftest import make_player

pytestmark = pytest.mark.django_db


def _suspend(user, *, days=3, kind="suspend"):
    now = timezone.now()
    return Sanction.objects.create(
        user=user,
        kind=kind,
        reason="使用外挂",
        starts=now,
        ends=None if kind == "ban" else now + timedelta(days=days),
    )


def test_a_suspended_player_is_refused_at_the_lobby_and_matching(alice, bob, room):
    _suspend(alice)
    for start in (
        lambda: table_quick_match(user=alice, room=room),
        lambda: table_play_bot(user=alice, room=room, level="easy"),
    ):
        with pytest.raises(TableError, match="暂停.*使用外挂"):
            start()
    assert not Table.objects.filter(seat0=alice).exists()
    # a waiting player who is suspended after queueing is never matched
    table = table_quick_match(user=bob, room=room)
    _suspend(bob, kind="ban")
    carol = make_player("carol")
    other = table_quick_match(user=carol, room=room)
    assert other.pk != table.pk and other.status == "waiting"


def test_the_lobby_and_pages_say_why_and_until_when(client, alice, room):
    sanction = _suspend(alice)
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'data-testid="restriction"' in page and "使用外挂" in page
    until = timezone.localtime(sanction.ends).strftime("%Y-%m-%d %H:%M")
    assert until in page
    refused = client.post(
        reverse("games:quick_match", args=[room.pk]), follow=True
    ).content.decode()
    assert "你的账号已被暂停" in refused


def test_a_suspended_player_cannot_open_their_table_page(client, alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    _suspend(alice)
    client.force_login(alice)
    response = client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 302 and response["Location"] == "/lobby/"


def test_a_play_ban_refuses_a_seat_but_not_reports_or_boards(alice, bob, room):
    _suspend(alice, kind="playban")
    with pytest.raises(TableError, match="中途弃局"):
        table_quick_match(user=alice, room=room)
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(board_eligible(prefix=""))
    assert alice in users


def test_suspended_players_are_off_the_boards_until_it_ends(alice, bob):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    sanction = _suspend(alice)
    assert set(User.objects.filter(board_eligible(prefix=""))) == {bob}
    sanction.ends = timezone.now() - timedelta(seconds=1)
    sanction.save()
    assert set(User.objects.filter(board_eligible(prefix=""))) == {alice, bob}


def test_enforcement_finishes_a_live_hand_by_auto_play(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    assert table.status == "playing"
    sanction = _suspend(bob)
    assert sanction_enforce(sanction_id=sanction.pk) is True
    table.refresh_from_db()
    record = HandRecord.objects.get(pk=table.hand_id)
    hand = load_hand(record, seq=table.seq)
    bob_seat = table.seat_of(bob.pk)
    if record.status == "live":
        assert hand.state.auto[bob_seat] is True
    else:  # 托管 already played the hand out against a pending seat
        assert record.status == "ended"
    # a waiting table is closed
    carol = make_player("carol")
    waiting = table_quick_match(user=carol, room=room)
    banned = _suspend(carol, kind="ban")
    sanction_enforce(sanction_id=banned.pk)
    waiting.refresh_from_db()
    assert waiting.status == "closed"


def test_a_muted_player_cannot_change_their_nickname(client, alice):
    _suspend(alice, kind="mute")
    client.force_login(alice)
    page = client.post(reverse("accounts:profile"), {"nickname": "新名字"})
    assert "禁言" in page.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.nickname == "alice"


def test_a_suspended_player_reads_the_reason_once_and_the_buttons_are_off(
    client, alice, room
):
    """Tester's fault (issue 14): every click added the same flash message
    under the banner, and the lobby's buttons stayed enabled."""
    import re

    table = table_play_bot(user=alice, room=room, level="easy")
    _suspend(alice)
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    for hook in ("quick-match", "play-bot", "friend-room"):
        buttons = re.findall(rf'<button[^>]*data-testid="{hook}"[^>]*>', page)
        assert buttons and all(" disabled" in b for b in buttons), hook
        assert all('aria-describedby="restriction-banner"' in b for b in buttons)
        assert all("使用外挂" in b for b in buttons)  # the reason, as the title
    rooms = client.get(reverse("games:lobby_rooms")).content.decode()
    assert re.search(r'data-testid="quick-match"[^>]* disabled', rooms)
    # a stale page's click, the table page: the banner is the one message
    for _ in range(3):
        client.post(reverse("games:quick_match", args=[room.pk]))
    client.get(reverse("games:table", args=[table.pk]))
    page = client.get(reverse("games:lobby")).content.decode()
    assert page.count('data-testid="restriction"') == 1
    assert "flash-error" not in page
