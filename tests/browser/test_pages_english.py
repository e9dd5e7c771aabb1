"""English pages: the hand record's status, fan names and notes, the profile's level."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.record import _note

from .test_pages import _no_timers, ended_hand, player  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("task", "zh", "en"),
    [
        (
            {"kind": "fan", "fan": "FULL_FLUSH", "factor": 2},
            "以「清一色」和牌 ×2",
            "Win with “Full Flush” ×2",
        ),
        ({"kind": "double", "factor": 2}, "加倍后和牌 ×2", "Win after doubling ×2"),
        ({"kind": "kong", "factor": 4}, "开过杠后和牌 ×4", "Win after a kong ×4"),
    ],
)
def test_task_notes_are_readable_in_both_languages(task, zh, en):
    with translation.override("zh-hans"):
        assert _note("task", task, ruleset="erren") == zh
    with translation.override("en"):
        assert _note("task", task, ruleset="erren") == en


def test_english_record_and_profile(client):
    user = player("english")
    record = ended_hand(user)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        html = client.get(
            reverse("games:hand_record", args=[record.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        ).content.decode()
        profile = client.get(reverse("accounts:profile"), HTTP_ACCEPT_LANGUAGE="en")
    assert "Computer (Easy)" in html
    assert "已结束" not in html and "已作废" not in html
    text = profile.content.decode()
    assert "Level: <span" in text and "Level :" not in text and "等级：" not in text
