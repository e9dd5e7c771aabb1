"""Waiting for an opponent says so once (fresh tester).

At a 好友房 waiting for the friend, the empty seat's plate said "Waiting for
a player", the centre "Waiting for an opponent" and the actions bar "Waiting
for your friend to take the seat through the invite link…", all at once;
both avatars were a bare dot, and a phone was mostly empty felt.  Now the
centre card says it once, with the invite link, its copy button and 取消;
the empty seat is a dashed seat named 空座位 / "Empty seat".
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

CARD = """() => {
  const box = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            text: el.textContent.trim().replace(/\\s+/g, ' ')};
  };
  const center = box('#mj-center');
  const opp = document.querySelector('#mj-opponent .mj-avatar');
  return {
    body: document.body.innerText,
    center, turn: box('.mj-turn-text'), invite: box('[data-invite]'),
    copy: box('[data-copy-invite]'), leave: box('[data-testid=leave]'),
    actions: document.querySelector('#mj-actions').innerText.trim(),
    oppName: box('#mj-opponent .mj-name').text,
    oppEmpty: opp.classList.contains('is-empty') && !!opp.querySelector('svg'),
    dots: Array.from(document.querySelectorAll('.mj-avatar'))
      .filter(a => a.textContent.trim() === '·').length,
  };
}"""


def _inside(inner: dict[str, Any], outer: dict[str, Any]) -> bool:
    return (
        inner["top"] >= outer["top"]
        and inner["bottom"] <= outer["bottom"]
        and inner["left"] >= outer["left"]
        and inner["right"] <= outer["right"]
    )


@pytest.mark.parametrize(
    ("viewport", "language"),
    [
        ({"width": 390, "height": 844}, "en"),
        ({"width": 1280, "height": 800}, "zh-hans"),
    ],
)
def test_a_friend_table_says_it_waits_for_the_friend_once(
    live, browser, viewport, language
):
    name = f"waitfriend{viewport['width']}"
    live.create_players(name)
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, live, name)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live.url}])
    page.goto(f"{live.url}/lobby/")
    page.locator("[data-testid=friend-room]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("[data-testid=waiting] [data-invite]")
    page.wait_for_timeout(300)
    got = page.evaluate(CARD)
    page.screenshot(path=f"/tmp/polisha/friend_wait_{language}_{viewport['width']}.png")
    if language == "en":
        waiting, seat = "Waiting for your friend", "Empty seat"
        assert got["body"].count("Waiting") == 1, got["body"]
    else:
        waiting, seat = "等待好友入座", "空座位"
        assert got["body"].count("等待") == 1, got["body"]
    assert got["turn"]["text"] == waiting
    assert got["oppName"] == seat and got["oppEmpty"]
    assert got["dots"] == 0
    # the link, its copy button and 取消 in the centre, on the screen
    for key in ("invite", "copy", "leave"):
        assert _inside(got[key], got["center"]), (key, got)
        assert got[key]["bottom"] <= viewport["height"], (key, got)
    assert got["actions"] == ""  # the actions bar no longer repeats it
    assert errors == []
    ctx.close()


def test_the_queue_says_it_looks_for_an_opponent_once(live, browser):
    live.create_players("waitqueue")
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    login(page, live, "waitqueue")
    ctx.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live.url}])
    page.goto(f"{live.url}/lobby/")
    # the last room: other tests pair people in the first ones
    page.locator("[data-testid=quick-match]").last.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("[data-testid=waiting] [data-testid=leave]")
    page.wait_for_timeout(300)
    got = page.evaluate(CARD)
    page.screenshot(path="/tmp/polisha/queue_wait_zh_390.png")
    assert got["turn"]["text"] == "正在为你寻找对手…"
    assert "等待" not in got["body"], got["body"]
    assert got["oppName"] == "空座位" and got["oppEmpty"] and got["dots"] == 0
    assert _inside(got["leave"], got["center"])
    assert got["actions"] == ""
    page.locator("[data-testid=leave]").click()
    page.wait_for_url(re.compile(r"/lobby/$"))
    ctx.close()
