"""Two tabs on one seat (tester): the newer tab takes over, the older says so.

Both tabs were live and both could act.  The tab opened last holds the seat;
the older one shows 此牌桌已在另一个窗口打开 with 在此窗口继续 over the
table, and takes the seat back with it (the other tab then says so).
"""

from __future__ import annotations

import re

import pytest

from .conftest import login
from .test_browser_table import DESKTOP, PHONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_newer_tab_takes_over_and_the_older_can_take_it_back(
    live, browser, lang, viewport
):
    name = f"twotabs{lang[:2]}{viewport['width']}"
    live.create_players(name)
    ctx = browser.new_context(viewport=viewport)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": live.url}])
    errors: list[str] = []
    old = ctx.new_page()
    old.on("pageerror", lambda e: errors.append(str(e)))
    login(old, live, name)
    old.goto(f"{live.url}/lobby/")
    old.locator(
        "[data-testid=room][data-ruleset=erren] [data-testid=play-bot]"
    ).first.click()
    old.wait_for_url(re.compile(r"/table/\d+/$"))
    old.wait_for_selector("#mj-conn.is-open")
    assert old.locator("[data-testid=elsewhere]").count() == 0

    new = ctx.new_page()
    new.on("pageerror", lambda e: errors.append(str(e)))
    new.goto(old.url)
    new.wait_for_selector("#mj-conn.is-open")
    notice = old.locator("[data-testid=elsewhere]")
    notice.wait_for(state="visible")
    words = {
        "zh-hans": ("此牌桌已在另一个窗口打开", "在此窗口继续"),
        "en": ("This table is open in another window", "Continue in this window"),
    }[lang]
    assert words[0] in notice.inner_text()
    button = old.locator("[data-testid=take-back]")
    assert button.inner_text() == words[1]
    assert old.evaluate("document.activeElement.dataset.testid") == "take-back"
    old.screenshot(path=f"/tmp/two_tabs_{lang}_{viewport['width']}.png")
    assert new.locator("[data-testid=elsewhere]").count() == 0

    # 托管 from the older tab: refused in words, not applied
    old.evaluate(
        "() => htmx.trigger(document.querySelector('[data-action=auto]')"
        ".closest('form'), 'submit')"
    )
    toast = old.locator("#toast")
    toast.wait_for(state="visible")
    assert words[0] in toast.inner_text()
    assert old.locator("[data-action=auto]").get_attribute("aria-pressed") == "false"

    button.click()
    new.locator("[data-testid=elsewhere]").wait_for(state="visible")
    old.wait_for_selector("#mj-elsewhere[hidden]", state="attached")
    assert errors == []
    ctx.close()
