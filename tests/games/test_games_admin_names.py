"""Admin shows rule sets by name and no two sections of one name (issue 11 §6)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.games.conftest import seed_rooms

pytestmark = pytest.mark.django_db


def _sections(html: str) -> list[str]:
    """The app section captions of the admin index."""
    return [
        re.sub(r"<[^>]+>", "", c).strip()
        for c in re.findall(r"<caption>(.*?)</caption>", html, re.S)
    ]


def test_admin_index_has_no_two_sections_of_one_name(admin_client):
    admin_client.cookies["django_language"] = "zh-hans"
    html = admin_client.get(reverse("admin:index")).content.decode()
    names = _sections(html)
    assert names and len(names) == len(set(names)), names
    assert "玩家" in names and names.count("账户") <= 1


def test_rooms_and_hands_show_rule_set_names(admin_client):
    seed_rooms()
    admin_client.cookies["django_language"] = "zh-hans"
    html = admin_client.get(reverse("admin:games_room_changelist")).content.decode()
    body = html.split('id="result_list"', 1)[1]
    for name in ("二人麻将", "国标麻将", "二人麻将手游版", "JJ二人麻将", "两人麻将"):
        assert f">{name}<" in body, name
    assert ">liangren<" not in body and ">erren64<" not in body
    # the filter too
    assert "?ruleset__exact=liangren" in html and ">两人麻将</a>" in html
    # (the override puts the test thread's language back afterwards: a
    # request in English leaves English active for the next tests)
    with translation.override("zh-hans"):
        admin_client.cookies["django_language"] = "en"
        url = reverse("admin:games_room_changelist")
        html = admin_client.get(url).content.decode()
        stats = admin_client.get(reverse("admin:leaderboard_playerstats_changelist"))
    assert ">Two-Person Mahjong (wild tiles)<" in html.split('id="result_list"', 1)[1]
    assert stats.status_code == 200
