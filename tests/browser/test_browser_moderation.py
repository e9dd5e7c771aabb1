"""举报 end to end in a browser: a player reports a hand from the settlement
panel, a moderator decides it in Django admin, both inboxes show the messages
(the reported player's in English), and the decision has teeth."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import login
from .play import settled
from .test_browser_table import DESKTOP, PHONE, new_page

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("MJ_SHOTS", "/tmp/mj-moderation-shots"))


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _moderator(live: Any, name: str) -> None:
    live.create_players(name)
    live.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Group\n"
        "from accounts.models import User\n"
        f"u = User.objects.get(username={name!r})\n"
        "u.is_staff = True\n"
        "u.save()\n"
        "u.groups.add(Group.objects.get(name='moderator'))\n",
    )


def test_report_from_the_settlement_decide_in_admin_both_inboxes(live, browser):
    live.create_players("reporter", "suspect")
    _moderator(live, "judge")
    ctx_a, a, errors_a = new_page(browser, PHONE)
    ctx_b, b, errors_b = new_page(browser, DESKTOP)
    login(a, live, "reporter")
    login(b, live, "suspect")
    a.goto(f"{live.url}/lobby/")
    a.locator("[data-testid=quick-match]").first.click()
    a.wait_for_url(re.compile(r"/table/\d+/$"))
    b.goto(f"{live.url}/lobby/")
    b.locator("[data-testid=quick-match]").first.click()
    b.wait_for_url(re.compile(r"/table/\d+/$"))
    assert a.url == b.url
    for page in (a, b):  # 托管 plays the hand for both
        page.wait_for_selector("#mj-conn.is-open")
        page.keyboard.press("a")
        page.wait_for_selector("[data-action=auto][aria-pressed=true]")
    end = time.time() + 300
    while time.time() < end and not (settled(a) and settled(b)):
        a.wait_for_timeout(300)
    assert settled(a) and settled(b)

    # the reporter writes a report on the settlement panel
    a.locator("[data-testid=report]").click()
    form = a.locator("[data-testid=report-form]")
    form.locator("select[name=category]").select_option("cheating")
    form.locator("textarea[name=text]").fill("<b>出牌太快</b>，像是外挂")
    # the settlement countdown goes on while the report is being written, and
    # says the table closes at its end (the page waits for the report)
    a.wait_for_function(
        "() => /^\\d+秒后牌桌关闭$/.test(document.querySelector("
        "'[data-testid=settle-countdown] .mj-timer-num').textContent)"
    )
    shot(a, "report-form-phone")
    a.locator("[data-testid=report-submit]").click()
    a.wait_for_selector("[data-testid=report-done]")
    a.goto(f"{live.url}/me/")
    mine = a.locator("[data-testid=my-report]")
    assert mine.count() == 1 and mine.get_attribute("data-status") == "open"
    assert "<b>出牌太快</b>" in mine.inner_text()  # shown as text, escaped
    shot(a, "profile-reports-phone")

    # the moderator decides in admin with the evidence in view
    ctx_m, m, errors_m = new_page(browser, DESKTOP)
    login(m, live, "judge")
    m.goto(f"{live.url}/admin/moderation/case/")
    m.locator('#result_list tbody a[href*="/change/"]').first.click()
    m.wait_for_selector("[data-testid=evidence] [data-testid=evidence-pair]")
    assert int(m.locator("[data-testid=priority]").get_attribute("data-priority")) > 0
    m.locator("[data-testid=inquiry-open]").click()
    m.wait_for_selector("[data-testid=inquiry-close]")
    m.fill("textarea[name=reason]", "对局记录显示使用了辅助软件")
    m.fill("input[name=days]", "3")
    shot(m, "admin-case-desktop")
    m.locator("[data-testid=decide-suspend]").click()
    m.wait_for_url(re.compile(r"/admin/moderation/case/$"))

    # both inboxes: the reporter in Chinese, the reported player in English
    a.goto(f"{live.url}/lobby/")
    unread = a.locator("[data-testid=inbox-unread]")
    assert unread.get_attribute("data-count") == "1"
    a.goto(f"{live.url}/me/inbox/")
    message = a.locator("[data-testid=inbox-message]")
    assert message.count() == 1
    assert "已对该玩家采取措施" in message.inner_text()
    assert "辅助软件" not in message.inner_text()
    shot(a, "inbox-reporter-phone")
    ctx_b.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    b.goto(f"{live.url}/me/inbox/")
    message = b.locator("[data-testid=inbox-message]")
    assert message.count() == 1
    text = message.inner_text()
    assert "Moderation decision" in text and "Suspend" in text
    assert "对局记录显示使用了辅助软件" in text  # the moderator's own words
    assert b.locator("[data-testid=restriction]").count() == 1
    shot(b, "inbox-suspect-desktop")
    # the decision has teeth: no seat for the suspended player
    # (the lobby's play buttons are disabled, with the reason)
    b.goto(f"{live.url}/lobby/")
    quick = b.locator("[data-testid=quick-match]").first
    assert quick.is_disabled() and "suspended" in (quick.get_attribute("title") or "")
    assert "suspended" in b.locator("[data-testid=restriction]").inner_text()
    assert errors_a == [] and errors_b == [] and errors_m == []
