"""Pages, layout, static assets and language switching."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["home", "games:lobby", "games:rules", "leaderboard:index", "account_login",
         "account_signup", "account_reset_password"]  # fmt: skip


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_with_the_site_layout(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    assert "二人麻将" in html
    for label in ("大厅", "规则", "排行榜"):
        assert f">{label}</a>" in html
    assert 'href="/static/css/site.css"' in html
    assert 'id="credits"' in html and "BSD-2-Clause" in html and "SIL Open Font" in html
    assert 'action="/i18n/setlang/"' in html


def test_htmx_and_ws_extension_are_served_locally(client):
    html = client.get(reverse("home")).content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', html)
    assert "/static/django_htmx/htmx-2.min.js" in scripts
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in scripts
    for src in scripts:
        assert src.startswith("/static/"), src
        assert finders.find(src.removeprefix("/static/")), src
    assert "cdn" not in html.lower()
    assert "unpkg" not in html.lower()


def test_our_static_assets_exist():
    for path in ("css/site.css", "img/logo.svg"):
        assert finders.find(path), path


def test_anonymous_header_offers_login_and_signup(client):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("account_login")}"' in html
    assert f'href="{reverse("account_signup")}"' in html
    assert "unread-badge" not in html


def test_signed_in_header_shows_nickname_level_and_coins(client):
    user = User.objects.create_user("feng", "feng@example.com", "pw-feng-7788")
    user.profile.nickname = "风清扬"
    user.profile.coins = 23456
    user.profile.rating_points = 8000
    user.profile.save()
    client.force_login(user)
    html = client.get(reverse("games:lobby")).content.decode()
    header = html.split("</header>")[0]
    assert "风清扬" in header
    assert "银雀" in header
    assert "23,456" in header
    assert 'aria-current="page"' in header


def test_leaderboard_ranks_players_by_points_without_bots(client):
    from django.utils import timezone

    from accounts.ledger import ledger_correct
    from tests.leaderboard.factory import hand

    users = []
    for name, points, bot in [
        ("low", 10, False),
        ("high", 5000, False),
        ("robot", 9e6, True),
    ]:
        user = User.objects.create_user(name, f"{name}@example.com", "pw-lb-445566")
        ledger_correct(
            user=user, currency="points", amount=int(points), reason="test", by=None
        )
        user.profile.refresh_from_db()
        user.profile.is_bot = bot
        user.profile.save(update_fields=["is_bot"])
        users.append(user)
    # on the boards: players who played (a drawn hand each)
    hand(users[0], users[1], ended=timezone.now(), winner=None)
    hand(users[2], users[1], ended=timezone.now(), winner=None)
    html = client.get(reverse("leaderboard:index")).content.decode()
    assert html.index(">high<") < html.index(">low<")
    assert ">robot<" not in html
    assert "铜雀" in html  # high's level (3000 <= 5000 < 8000)


def test_healthz_reports_the_database(client):
    response = client.get(reverse("healthz"))
    assert response.json() == {"ok": True, "db": connection.vendor}


def test_english_page_shows_english_strings(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in html
    for english in (
        "Lobby",
        "Rules",
        "Leaderboard",
        "Log in",
        "Sign up",
        "Two-Player Mahjong",
        "Sit down with a friend",
        "and its WebSocket extension, BSD-2-Clause",
    ):
        assert english in html, english
    for chinese in (">大厅<", ">规则<", ">排行榜<", "进入大厅", "和朋友", "及其"):
        assert chinese not in html, chinese


def test_english_login_page_uses_allauth_english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("account_login")).content.decode()
    assert "Sign In" in html
    assert "Password" in html


def test_language_switcher_sets_the_choice_and_returns(client):
    response = client.post(
        reverse("set_language"), {"language": "en", "next": reverse("games:rules")}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:rules")
    html = client.get(reverse("games:rules")).content.decode()
    assert '<html lang="en">' in html and "Lobby" in html
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    assert '<html lang="zh-hans">' in client.get("/").content.decode()


def test_chinese_is_the_default_even_for_english_browsers(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content
    assert '<html lang="zh-hans">' in html.decode()


def test_english_catalogue_translates_every_entry():
    po = ROOT / "locale/en/LC_MESSAGES/django.po"
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    translated = int(re.match(r"(\d+) translated messages?", result.stderr).group(1))
    assert translated > 50
    assert "untranslated" not in result.stderr
    assert "fuzzy" not in result.stderr


def test_favicon_ico_is_our_icon_not_a_404(client):
    """/favicon.ico (asked for by browsers) leads to the generated icon."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/img/favicon.ico"
    path = finders.find("img/favicon.ico")
    assert path is not None
    data = Path(path).read_bytes()
    assert data[:4] == b"\x00\x00\x01\x00"  # ICO header, icon type
    assert data[4] == 3 and b"\x89PNG" in data  # 16, 32, 48 px PNG entries
    assert 'href="/static/img/favicon.ico"' in client.get(reverse("home")).text


def test_favicon_is_generated_by_our_tool():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_favicon.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
