"""Presence in a real browser (issue 11 §4): the opponent's drop and return.

When the opponent's page goes away the other player sees at once
"对手断线，N 秒后托管" counting down (``data-testid="opponent-away"``, with
seed 000's rule that 托管 wins when it can); when they come back, the notice
goes and "对手已回来" shows (``data-testid="opponent-back"``).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}


def _page(browser: Any) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    return ctx, page, errors


def test_the_opponent_away_notice_counts_down_and_says_when_they_return(live, browser):
    live.create_players("stayer", "leaver")
    ctx_a, a, errors_a = _page(browser)
    ctx_b, b, _ = _page(browser)
    login(a, live, "stayer")
    login(b, live, "leaver")
    # a room of its own (other browser tests pair people in erren's rooms)
    quick = "[data-testid=room][data-ruleset=erren64] [data-testid=quick-match]"
    a.goto(f"{live.url}/lobby/")
    a.locator(quick).first.click()
    a.wait_for_url(re.compile(r"/table/\d+/$"))
    a.wait_for_selector("[data-testid=waiting]")
    b.goto(f"{live.url}/lobby/")
    b.locator(quick).first.click()
    b.wait_for_url(re.compile(r"/table/\d+/$"))
    assert a.url == b.url
    table_url = b.url
    a.wait_for_selector("[data-testid=my-hand]")
    b.wait_for_selector("#mj-conn.is-open")
    assert a.locator("[data-testid=opponent-away]").count() == 0

    # the opponent closes the tab: told at once, with the grace counting down
    b.close()
    t0 = time.time()
    away = a.locator("[data-testid=opponent-away]")
    away.wait_for(timeout=5_000)
    assert time.time() - t0 < 5
    text = away.inner_text()
    assert re.search(r"对手断线，\d+ 秒后托管", text), text
    assert "托管时能和牌就自动和牌" in text  # seed 000: 托管 wins when it can
    first = int(re.search(r"(\d+) 秒后托管", text).group(1))
    a.wait_for_timeout(2_200)
    later = int(re.search(r"(\d+) 秒后托管", away.inner_text()).group(1))
    assert later < first  # the countdown runs in the page

    # back: the notice goes and the return is said
    b = ctx_b.new_page()
    b.goto(table_url)
    b.wait_for_selector("#mj-conn.is-open")
    away.wait_for(state="detached", timeout=5_000)
    back = a.locator("[data-testid=opponent-back]")
    back.wait_for(state="visible", timeout=5_000)
    assert back.inner_text().strip() == "对手已回来"
    assert errors_a == []
    ctx_a.close()
    ctx_b.close()
