"""我的对局 on /me/: a bot opponent is named as at the table (fresh tester)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.services import table_play_bot
from tests.games.conftest import make_player, seed_rooms
from tests.games.driver import play_out


@pytest.mark.django_db
def test_a_bot_opponent_is_named_in_the_readers_language(client):
    seed_rooms()
    from games.models import Room

    alice = make_player("alice")
    table = table_play_bot(
        user=alice, room=Room.objects.get(name="新手场"), level="normal"
    )
    play_out(table, {0: alice})
    client.force_login(alice)
    with translation.override(translation.get_language()):
        zh = client.get(reverse("accounts:profile")).content.decode()
        client.cookies["django_language"] = "en"
        en = client.get(reverse("accounts:profile")).content.decode()
    rows = [h[h.index("<tbody>") :] for h in (zh, en)]
    assert "电脑（普通）" in rows[0]
    assert "Computer (Normal)" in rows[1] and "电脑" not in rows[1]
