"""English pages show no Chinese except player data (tester's report).

Stored names (levels, level schemes, rooms) are translated at display time,
rule set names and seat winds in the table's frame, settlement notes through
codes; the demo inbox message is stored in both languages.
"""

from __future__ import annotations

import importlib
import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from test_site_jinja_i18n import _po_entries

from accounts.data_names import LEVEL_NAMES, LEVEL_SCHEME_NAMES, data_name
from accounts.models import User
from games.data_names import ROOM_NAMES
from games.display.names import seat_wind
from games.display.settlement import SETTLE_NOTES, settle_note
from games.engine.settle import NOTE_CODES

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]+")
# The language switcher names Chinese in Chinese; the demo players' nicknames
# are player data.
ALLOWED = {"简体中文", "东风客", "西窗月"}


class _Text(HTMLParser):
    """Visible text plus the attributes people read (alt, title, aria-label,
    placeholder, data-dealer); scripts and styles left out."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for k, v in attrs:
            if k in ("alt", "title", "aria-label", "placeholder", "data-dealer") and v:
                self.parts.append(v)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def chinese_in(html: str, allowed: set[str] = ALLOWED) -> set[str]:
    parser = _Text()
    parser.feed(html)
    return set(CJK.findall(" ".join(parser.parts))) - allowed


def test_every_seeded_name_is_marked_and_translated():
    levels = importlib.import_module("accounts.migrations.0002_level_schemes")
    rooms = importlib.import_module("games.migrations.0002_rooms")
    assert list(LEVEL_SCHEME_NAMES) == [s[0] for s in levels.SCHEMES]
    assert list(LEVEL_NAMES) == [n for s in levels.SCHEMES for n, _p in s[3]]
    more = importlib.import_module("games.migrations.0010_rooms_per_ruleset")
    assert list(ROOM_NAMES) == [r[0] for r in rooms.ROOMS + more.ROOMS]
    po = _po_entries()
    for name in (*LEVEL_SCHEME_NAMES, *LEVEL_NAMES, *ROOM_NAMES):
        assert po.get(name) and po[name][0], name
        assert not CJK.search(po[name][0]), name


def test_data_names_follow_the_language():
    with translation.override("en"):
        assert data_name("雀头") == "Lead Sparrow"
        assert data_name("雀级（实力积分）") == "Sparrow ranks (rating points)"
        assert data_name("新手场") == "Beginners' room"
        assert data_name("周末场") == "周末场"  # an untranslated admin-made name
        assert data_name(None) == ""
    with translation.override("zh-hans"):
        assert data_name("雀头") == "雀头"


def test_seat_winds_and_settlement_notes_are_translated():
    with translation.override("en"):
        assert [seat_wind(w) for w in ("1z", "2z", "3z", "4z")] == [
            "East seat",
            "South seat",
            "West seat",
            "North seat",
        ]
        assert seat_wind("3z", True) == "W" and seat_wind("9z") == ""
        assert settle_note({"note_code": "self_drawn_not_doubled"}) == (
            "self-draw not doubled"
        )
        assert settle_note({"note": "", "note_code": "seat_1"}) == "Seat 1"
        # settlements stored before note codes carried the Chinese words
        assert settle_note({"note": "自摸不加倍"}) == "self-draw not doubled"
        assert settle_note({"note": "17×10×1"}) == "17×10×1"
        assert settle_note({"note_code": "no_such_code"}) == ""
    with translation.override("zh-hans"):
        assert seat_wind("1z") == "东位" and seat_wind("1z", True) == "东"
        assert settle_note({"note_code": "self_drawn_not_doubled"}) == "自摸不加倍"
    # the presentation layer words every code the engine emits, and the seat
    # notes the presenter says from the viewer's side (明牌 ×4 (you))
    assert set(SETTLE_NOTES) == set(NOTE_CODES) | {"mine", "theirs"}
    with translation.override("en"):
        assert settle_note({"note_code": "mine"}) == "you"
        assert settle_note({"note_code": "theirs"}) == "Opponent"


def test_english_frame_names_the_room_rule_set_and_winds():
    from tests.browser.test_frame_templates import context

    ctx = context()
    ctx["settlement"] = None
    with translation.override("en"):
        html = render_to_string("games/partials/frame.html", ctx)
    assert "Beginners&#39; room" in html or "Beginners' room" in html
    assert "Two-Player Mahjong" in html
    assert "East seat" in html and "West seat" in html
    assert "Sparrow Egg" in html
    assert chinese_in(html, set()) == set()
    with translation.override("zh-hans"):
        zh = render_to_string("games/partials/frame.html", ctx)
    assert "新手场" in zh and "二人麻将" in zh and "东位" in zh and "雀蛋" in zh


@pytest.mark.django_db
def test_english_pages_show_no_chinese_but_player_data(client):
    call_command("seed_demo", stdout=_Null())
    client.force_login(User.objects.get(username="demo1"))
    client.cookies["django_language"] = "en"
    for name in (
        "home",
        "games:lobby",
        "leaderboard:index",
        "accounts:profile",
        "games:rules",
    ):
        html = client.get(reverse(name)).content.decode()
        assert chinese_in(html) == set(), name
    html = client.get(reverse("leaderboard:index")).content.decode()
    assert "Sparrow ranks (rating points)" in html and "Lead Sparrow" in html
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Beginners&#x27; room" in lobby or "Beginners&#39; room" in lobby
    # the demo's stored message is written in both languages
    inbox = client.get(reverse("accounts:inbox")).content.decode()
    assert "Welcome to Two-Player Mahjong" in inbox
    assert "This is a demo account." in inbox


class _Null:
    def write(self, *_a, **_k) -> None:
        pass

    def flush(self) -> None:
        pass
