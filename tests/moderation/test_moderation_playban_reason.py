"""A play ban's reason is a code, said in the reader's language (issue 11 §6).

The system's play bans stored "最近 N 盘中有 M 盘中途离开或断线托管" as Chinese text,
which English players then read in Chinese at the table, on every page and
in the inbox.  They store ``reason_code`` and its numbers now.
"""

from __future__ import annotations

import importlib
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import translation

from accounts.models import Message
from games.models import HandSeat
from games.services import TableError, table_play_bot
from moderation.models import AuditEntry, Sanction
from moderation.restrictions import player_notice
from moderation.services.sanctions import playban_check
from tests.leaderboard.factory import hand
from tests.moderation.helpers import T0

pytestmark = pytest.mark.django_db
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture
def banned(settings, alice, bob):
    settings.MAHJONG_PLAYBAN_WINDOW = 5
    settings.MAHJONG_PLAYBAN_ABANDONS = 2
    for minutes in (0, 2):
        seats = hand(alice, bob, ended=T0 + timedelta(minutes=minutes), winner=1)
        HandSeat.objects.filter(pk=seats[0].pk).update(ending="auto")
    sanction = playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=3))
    assert sanction is not None
    return sanction


def test_the_play_ban_stores_a_code_and_its_numbers(banned):
    banned.refresh_from_db()
    assert banned.reason == ""
    assert banned.reason_code == "abandons"
    assert banned.reason_params == {"window": 2, "n": 2}
    entry = AuditEntry.objects.get(action="playban")
    assert entry.reason == "abandons" and entry.after["reason_params"] == {
        "window": 2,
        "n": 2,
    }
    with translation.override("zh-hans"):
        assert banned.reason_text() == "最近 2 盘中有 2 盘中途离开或断线托管"
    with translation.override("en"):
        assert banned.reason_text() == (
            "2 of your last 2 hands ended by leaving or by auto-play after a disconnect"
        )


def test_the_player_reads_it_in_english(banned, alice, room):
    Sanction.objects.filter(pk=banned.pk).update(ends=None)  # active now
    with translation.override("en"):
        notice = player_notice(user_id=alice.pk)
        assert notice and not CJK.search(notice), notice
        assert "2 of your last 2 hands" in notice
    with pytest.raises(TableError) as info:
        table_play_bot(user=alice, room=room, level="easy")
    with translation.override("en"):
        assert not CJK.search(str(info.value)), str(info.value)
    with translation.override("zh-hans"):
        assert "最近 2 盘中有 2 盘" in str(info.value)
    message = Message.objects.get(recipient=alice, subject="暂时禁止入座")
    assert "最近 2 盘中有 2 盘中途离开或断线托管" in message.body  # stored in Chinese
    with translation.override("en"):
        subject, body = message.shown()
    assert "2 of your last 2 hands" in body and "最近" not in body


def test_the_migration_converts_stored_chinese_reasons(alice):
    old = Sanction.objects.create(
        user=alice,
        kind="playban",
        reason="最近 10 盘中有 3 盘中途离开或断线托管",
        starts=T0,
        ends=T0 + timedelta(minutes=10),
    )
    words = Sanction.objects.create(
        user=alice, kind="ban", reason="脚本证据", starts=T0
    )
    migration = importlib.import_module(
        "moderation.migrations.0004_sanction_reason_code"
    )
    migration.to_codes(apps, None)
    old.refresh_from_db()
    words.refresh_from_db()
    assert (old.reason_code, old.reason_params, old.reason) == (
        "abandons",
        {"window": 10, "n": 3},
        "",
    )
    assert (words.reason_code, words.reason) == ("", "脚本证据")
