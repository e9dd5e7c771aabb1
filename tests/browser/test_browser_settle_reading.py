"""A long settlement can be read past its countdown (tester, erren on a phone).

With many fan lines a phone player had the countdown's 15 s to read before
table.js took them to the lobby.  The countdown is the rules' 继续 window
(seed 000: 继续 only while it runs; 分组 includes a timeout), so the server
still closes the table on time; the page keeps the result when the player
presses 留在此页 or scrolls the panel by hand, and otherwise goes to the lobby
as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import login
from .server import LiveServer
from .test_browser_table import PHONE, new_page

pytestmark = pytest.mark.browser

SECONDS = 10

DEAL_AND_PLAY = """
import sys
sys.path.insert(0, "tests/games")
from driver import play_out
from accounts.models import User
from games.models import Room
from games.services.tables import table_play_bot
u = User.objects.get(username=%r)
room = Room.objects.filter(ruleset="erren").order_by("order", "id").first()
table = table_play_bot(user=u, room=room, level="easy")
play_out(table, {0: u}, seed=%d)
print(table.pk)
"""


@pytest.fixture(scope="module")
def short() -> Iterator[LiveServer]:
    """A server whose settlement countdown is SECONDS long."""
    server = LiveServer({"MAHJONG_SETTLEMENT_SECONDS": str(SECONDS)})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _settled_table(live: LiveServer, page: Any, name: str, seed: int) -> str:
    """Open a settled erren practice hand of ``name``; its table's address."""
    out = live.play_script(DEAL_AND_PLAY % (name, seed), walls=f"read-{seed}")
    url = f"{live.url}/table/{int(out.split()[-1])}/"
    page.goto(url)
    page.wait_for_selector("[data-testid=settlement] [data-testid=stay]")
    return url


def _past_the_countdown(page: Any) -> None:
    page.wait_for_selector(
        "[data-testid=table-closed][data-reason=timeout]", timeout=(SECONDS + 10) * 1000
    )
    page.wait_for_timeout(3000)  # table.js left 1.5 s after the deadline


def test_stay_keeps_the_settlement_past_the_countdown(short, browser):
    short.create_players("reader")
    ctx, page, errors = new_page(browser, PHONE)
    login(page, short, "reader")

    # 留在此页: the table closes on time, the page keeps the result
    url = _settled_table(short, page, "reader", 1)
    stay = page.locator("[data-testid=stay]")
    assert stay.get_attribute("aria-pressed") == "false"
    assert stay.inner_text() == "留在此页"
    stay.click()
    assert stay.get_attribute("aria-pressed") == "true"
    assert stay.inner_text() == "已留在此页"
    num = page.locator("[data-testid=settle-countdown] .mj-timer-num")
    assert re.fullmatch(r"\d+秒内可以继续", num.inner_text()), num.inner_text()
    _past_the_countdown(page)
    assert page.url == url
    note = page.locator("[data-testid=table-closed]").inner_text()
    assert "倒计时结束，牌桌已关闭" in note
    assert page.locator("[data-testid=back-to-lobby]").is_visible()

    # scrolling the panel by hand asks the same
    url = _settled_table(short, page, "reader", 2)
    box = page.locator("[data-testid=settlement]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 300)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stay]')"
        ".getAttribute('aria-pressed') === 'true'"
    )
    _past_the_countdown(page)
    assert page.url == url

    # neither: the lobby when the countdown ends, as before
    _settled_table(short, page, "reader", 3)
    page.wait_for_url(re.compile(r"/lobby/$"), timeout=(SECONDS + 10) * 1000)
    assert errors == []
    ctx.close()


def test_stay_is_said_in_english(short, browser):
    short.create_players("readeren")
    ctx, page, errors = new_page(browser, PHONE)
    login(page, short, "readeren")
    ctx.add_cookies([{"name": "django_language", "value": "en", "url": short.url}])
    _settled_table(short, page, "readeren", 1)
    stay = page.locator("[data-testid=stay]")
    assert stay.inner_text() == "Stay on this page"
    stay.click()
    assert stay.inner_text() == "Staying on this page"
    num = page.locator("[data-testid=settle-countdown] .mj-timer-num")
    assert re.fullmatch(r"\d+s left to continue", num.inner_text()), num.inner_text()
    # the words and the control fit the phone's bar on one line each
    fits = page.evaluate(
        """() => {
          const el = document.querySelector('[data-testid=stay]');
          const bar = document.querySelector('.mj-settle-actions')
            .getBoundingClientRect();
          const r = el.getBoundingClientRect();
          return r.left >= bar.left && r.right <= bar.right && r.height < 30;
        }"""
    )
    assert fits
    assert errors == []
    ctx.close()
