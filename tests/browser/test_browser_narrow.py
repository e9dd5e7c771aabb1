"""Every main page fits a 360 px phone: no horizontal scrolling of the page.

A wide thing (the seed commitment's hex, the events table, a long number) must
wrap or scroll inside its own box, never widen the page.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}

SETUP = """
import sys
sys.path.insert(0, "tests/games")
from driver import play_out
from accounts.models import User
from accounts.services import inbox_send
from games.models import Room
from games.services.tables import table_play_bot

from accounts.ledger import ledger_correct

room = Room.objects.order_by("order", "id").first()
# the boards rank players who played: each plays a hand, and the long
# balances come through the ledger (the only writer of balances)
for name, points in (("narrowtop", 1_650_000), ("narrowmid", 48_000)):
    other = User.objects.get(username=name)
    t = table_play_bot(user=other, room=room, level="easy")
    play_out(t, {0: other}, seed=2)
    p = other.profile
    p.refresh_from_db()
    ledger_correct(user=other, currency="points", by=None, reason="test",
                   amount=points - p.rating_points)
    p.refresh_from_db()
    p.nickname = name + "很长很长的昵称ABCDEFGHIJ"
    p.save(update_fields=["nickname"])
u = User.objects.get(username="narrow")
table = table_play_bot(user=u, room=room, level="easy")
play_out(table, {0: u}, seed=1)
table.refresh_from_db()
inbox_send(recipient=u, subject="欢迎" * 20, body="一段很长的站内信内容。" * 30)
print(table.pk, table.hand_id)
"""


def overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def wide_elements(page: Any) -> list[str]:
    """The elements sticking out past the right edge (for the failure message)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('body *'))
          .filter(e => e.getBoundingClientRect().right > 361
                  && !e.closest('.table-scroll'))
          .slice(0, 5)
          .map(e => e.tagName + '.' + e.className + ' '
               + Math.round(e.getBoundingClientRect().right))"""
    )


@pytest.fixture(scope="module")
def finished_hand(live) -> tuple[int, int]:
    live.create_players("narrow", "narrowtop", "narrowmid")
    out = live.play_script(SETUP, walls="narrow")
    table_id, hand_id = (int(x) for x in out.split()[-2:])
    return table_id, hand_id


def check(page: Any, url: str, shot: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)
    page.screenshot(path=f"/tmp/narrow_{shot}.png", full_page=True)
    width = overflow(page)
    assert width <= 360, f"{url}: page is {width}px wide; {wide_elements(page)}"


def test_anonymous_pages_fit_360px(live, browser):
    page = browser.new_page(viewport=PHONE)
    for path, shot in (
        ("/", "home"),
        ("/accounts/login/", "login"),
        ("/accounts/signup/", "signup"),
        ("/rules/", "rules"),
        ("/leaderboard/", "leaderboard_anon"),
    ):
        check(page, live.url + path, shot)
    page.close()


def test_player_pages_fit_360px(live, browser, finished_hand):
    table_id, hand_id = finished_hand
    page = browser.new_page(viewport=PHONE)
    login(page, live, "narrow")
    for path, shot in (
        ("/lobby/", "lobby"),
        (f"/hands/{hand_id}/", "record"),
        ("/leaderboard/", "leaderboard"),
        ("/me/", "profile"),
        ("/me/inbox/", "inbox"),
    ):
        check(page, live.url + path, shot)
    # the record's events table scrolls inside its own box, which is on screen
    page.goto(f"{live.url}/hands/{hand_id}/")
    box = page.locator(".table-scroll").first.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    # the leaderboard's 实力积分 column is on screen whole
    page.goto(f"{live.url}/leaderboard/")
    cell = page.locator("td.num", has_text="1,650,000").first.bounding_box()
    assert cell and cell["x"] + cell["width"] <= 360
    # last: a closed table's page may send the browser on (to the lobby) once
    # its frame arrives, which would race any page visited after it
    check(page, live.url + f"/table/{table_id}/", "settlement")
    page.close()


def test_live_table_fits_360px(live, browser):
    live.create_players("narrowplay")
    page = browser.new_page(viewport=PHONE)
    login(page, live, "narrowplay")
    page.goto(live.url + "/lobby/")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#mj-status[data-phase]", state="attached")
    page.wait_for_timeout(500)
    page.screenshot(path="/tmp/narrow_table.png", full_page=True)
    assert overflow(page) <= 360, wide_elements(page)
    page.close()


# each friend-room stake select: its width, and the width it takes unsqueezed
# (its widest option); True when it ends inside the page
STAKE_FIT = """() => Array.from(document.querySelectorAll('[data-testid=friend-stake]'))
  .map(s => {
    const w = s.getBoundingClientRect().width;
    const flex = s.style.flex, max = s.style.maxWidth;
    s.style.flex = 'none'; s.style.maxWidth = 'none';
    const full = s.getBoundingClientRect().width;
    s.style.flex = flex; s.style.maxWidth = max;
    const right = s.getBoundingClientRect().right;
    return [s.options[0].text, Math.round(w), Math.round(full),
            right <= document.documentElement.clientWidth + 0.5];
  })"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_friend_room_stake_shows_whole_at_360_and_390(live, browser, language):
    """Tester: at 360 px the 好友房 stake select read "stake 1" for stake 10
    (squeezed below its widest option), in Chinese and English."""
    name = f"friendstake{language[:2]}"
    live.create_players(name)
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    login(page, live, name)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live.url}])
    page.goto(f"{live.url}/lobby/")
    first = "stake 10" if language == "en" else "基数 10"
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 740})
        page.wait_for_timeout(100)
        fits = page.evaluate(STAKE_FIT)
        assert fits and fits[0][0] == first, fits
        assert all(w >= full - 0.5 and inside for _t, w, full, inside in fits), (
            width,
            fits,
        )
        wide = page.evaluate(
            "() => document.documentElement.scrollWidth"
            " > document.documentElement.clientWidth"
        )
        assert not wide, width
    ctx.close()
