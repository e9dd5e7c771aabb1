"""Why a closed table closed, as each seat reads it (fresh tester: the player
who left, pressing Back, was told "对手离开或倒计时结束")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.presenters.render import render_frame
from games.services import table_leave, table_play_bot, table_quick_match
from tests.games.driver import play_out

pytestmark = pytest.mark.django_db

SELF_LEFT = "你已离开这张牌桌。"
GENERIC = "牌桌已关闭（对手离开或倒计时结束）。"


def test_the_player_who_left_a_settled_table_is_told_he_left(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    play_out(table, {0: alice, 1: bob}, seed=2)
    table_leave(user=bob, table_id=table.pk)
    table.refresh_from_db()
    leaver = render_frame(table, 1, now=0)
    assert 'data-testid="self-left"' in leaver and SELF_LEFT in leaver
    assert GENERIC not in leaver and 'data-testid="opponent-left"' not in leaver
    # the one who stayed still reads that the opponent left
    stayer = render_frame(table, 0, now=0)
    assert 'data-testid="opponent-left"' in stayer and SELF_LEFT not in stayer


def test_the_player_who_left_a_practice_table_is_told_he_left(alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=3)
    table_leave(user=alice, table_id=table.pk)
    table.refresh_from_db()
    with translation.override("en"):
        html = render_frame(table, 0, now=0)
    assert "You left this table." in html
    assert "your opponent left" not in html


def test_the_player_who_cancelled_a_waiting_table_is_told_he_left(alice, room):
    table = table_quick_match(user=alice, room=room)
    table_leave(user=alice, table_id=table.pk)
    table.refresh_from_db()
    html = render_frame(table, 0, now=0)
    assert 'data-testid="queue-left"' in html and SELF_LEFT in html
