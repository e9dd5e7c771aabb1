"""The live table fits the screen with a notice above it (polish, item 2).

A player's sanction banner (a mute still lets them play) and a flash message
("你还有一局没有打完：先回到这一桌。") sit above the table, in ``main``; the
table page was the screen's height on its own (``.mj-page``: 100dvh), so a
notice pushed it down and the bottom seat's hand below the fold at 1280×800.
The notices and the table now share the screen's height.  A real practice
table, a real mute and the real flash, at three screen sizes.
"""

from __future__ import annotations

import re

import pytest

from .conftest import login
from .play import decline_pre_deal
from .test_browser_table import new_page

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (1366, 768), (390, 844)]

FIT = """() => {
  const vh = window.innerHeight, vw = window.innerWidth;
  const notices = [...document.querySelectorAll('#restriction-banner, .flash li')]
    .map(n => n.getBoundingClientRect())
    .map(r => [r.top, r.bottom]);
  const tiles = [...document.querySelectorAll('#mj-hand .mj-htile')]
    .map(t => t.getBoundingClientRect().bottom);
  return {vh, vw, notices, tiles,
          top: document.querySelector('.mj-topbar').getBoundingClientRect().top,
          scrollH: document.documentElement.scrollHeight,
          scrollW: document.documentElement.scrollWidth};
}"""


def _mute(live, username: str) -> None:
    live.manage(
        "shell",
        "-c",
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from accounts.models import User\n"
        "from moderation.models import Sanction\n"
        f"u = User.objects.get(username={username!r})\n"
        "Sanction.objects.create(user=u, kind='mute', reason='刷屏广告',"
        " ends=timezone.now() + timedelta(days=3))\n",
    )


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_hand_stays_on_screen_under_a_notice(live, browser, size):
    name = f"noticed{size[0]}x{size[1]}"
    live.create_players(name)
    _mute(live, name)
    ctx, page, errors = new_page(browser, {"width": size[0], "height": size[1]})
    login(page, live, name)
    page.goto(f"{live.url}/lobby/")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    # again: back to the unfinished hand, with the flash message as well
    page.goto(f"{live.url}/lobby/")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    decline_pre_deal(page)
    page.wait_for_selector("#mj-hand .mj-htile")
    page.wait_for_selector("#mj-conn.is-open")
    m = page.evaluate(FIT)
    page.screenshot(path=f"/tmp/table_notice_{size[0]}x{size[1]}.png")
    assert len(m["notices"]) == 2, m  # the mute and the flash, both shown
    assert all(top >= 0 and bottom <= m["vh"] for top, bottom in m["notices"]), m
    assert len(m["tiles"]) >= 13, m
    assert max(m["tiles"]) <= m["vh"], m  # the whole hand above the fold
    assert m["scrollH"] <= m["vh"], m
    assert m["scrollW"] <= m["vw"], m
    assert errors == []
    ctx.close()
