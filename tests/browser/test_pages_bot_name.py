"""The computer opponent has one name, 电脑（简单/普通/困难）, as in the lobby."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.display.names import bot_name

from .test_pages import _no_timers, ended_hand, player  # noqa: F401

pytestmark = pytest.mark.django_db


def test_bot_name_follows_the_lobby_levels():
    with translation.override("zh-hans"):
        assert bot_name("easy") == "电脑（简单）"
        assert bot_name("normal") == "电脑（普通）"
        assert bot_name("hard") == "电脑（困难）"
        assert bot_name("") == "电脑"
    with translation.override("en"):
        assert bot_name("hard") == "Computer (Hard)"


def test_record_and_lobby_name_the_bot_by_level(client):
    user = player("namer")
    record = ended_hand(user)  # an easy bot
    client.force_login(user)
    html = client.get(reverse("games:hand_record", args=[record.pk])).content.decode()
    assert "电脑（简单）" in html
    assert "机器人" not in html
    lobby = client.get(reverse("games:lobby")).content.decode()
    for label in ("简单", "普通", "困难"):
        assert f">{label}</option>" in lobby
