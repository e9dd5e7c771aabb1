"""Moderation faults a fresh tester found that live in the browser (issue 14).

- a player suspended during a hand saw only "重新连接中…": the page now says
  why, ends, stops offering moves; the opponent reads what happened and is
  not offered 继续 with them;
- the case page's reversal preview needed a reason (the browser's
  ``required`` on the decision's textarea).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import login
from .play import settled
from .test_browser_moderation import _moderator
from .test_browser_table import DESKTOP, new_page

pytestmark = pytest.mark.browser


def _pair(browser: Any, live: Any, a_name: str, b_name: str) -> tuple[Any, ...]:
    ctx_a, a, errors_a = new_page(browser, DESKTOP)
    ctx_b, b, errors_b = new_page(browser, DESKTOP)
    login(a, live, a_name)
    login(b, live, b_name)
    for page in (a, b):
        page.goto(f"{live.url}/lobby/")
        page.locator("[data-testid=quick-match]").first.click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
    assert a.url == b.url
    for page in (a, b):
        page.wait_for_selector("#mj-conn.is-open")
    return ctx_a, a, errors_a, ctx_b, b, errors_b


def _report(live: Any, reporter: str, suspect: str) -> None:
    """``reporter`` reports ``suspect`` from a player page (a case to decide)."""
    live.manage(
        "shell",
        "-c",
        "from accounts.models import User\n"
        "from moderation.services.reports import report_file\n"
        f"r = User.objects.get(username={reporter!r})\n"
        f"s = User.objects.get(username={suspect!r})\n"
        "report_file(reporter=r, category='cheating', text='', suspect=s)\n",
    )


def test_a_player_suspended_during_the_hand_is_told_and_the_table_ends(live, browser):
    live.create_players("victim", "cheat")
    _moderator(live, "judge2")
    ctx_a, a, errors_a, ctx_b, b, errors_b = _pair(browser, live, "victim", "cheat")
    _report(live, "victim", "cheat")
    ctx_m, m, errors_m = new_page(browser, DESKTOP)
    login(m, live, "judge2")
    m.goto(f"{live.url}/admin/moderation/case/")
    m.locator('#result_list tbody a[href*="/change/"]').first.click()
    m.fill("textarea[name=reason]", "对局中使用外挂")
    m.fill("input[name=days]", "3")
    m.locator("[data-testid=decide-suspend]").click()
    m.wait_for_url(re.compile(r"/admin/moderation/case/$"))

    # the suspended player: the reason, an end, no "reconnecting", no moves
    ended = b.locator("[data-testid=table-ended]")
    ended.wait_for(state="visible")
    assert "对局中使用外挂" in ended.inner_text()
    assert b.locator("#mj-conn").inner_text() == "已断开"
    b.wait_for_timeout(1500)  # nothing reconnects meanwhile
    assert b.locator("#mj-conn").inner_text() == "已断开"
    assert b.locator("#mj-root button:not([disabled])").count() == 0

    # the opponent: told what happened, then the table closes without 继续
    if not settled(a):
        a.wait_for_selector("[data-testid=opponent-removed]")
        a.keyboard.press("a")  # 托管 plays the rest for the victim too
    end = time.time() + 240
    while time.time() < end and not settled(a):
        a.wait_for_timeout(300)
    assert settled(a)
    a.wait_for_selector("[data-testid=table-closed] [data-testid=opponent-removed]")
    assert a.locator("[data-testid=continue]").count() == 0
    assert a.locator("[data-testid=regroup]").count() == 1
    assert errors_a == [] and errors_b == [] and errors_m == []
    for ctx in (ctx_a, ctx_b, ctx_m):
        ctx.close()


def _reported_hand(live: Any, reporter: str, suspect: str) -> None:
    """A settled hand ``suspect`` won against ``reporter``, reported."""
    live.manage(
        "shell",
        "-c",
        "from django.utils import timezone\n"
        "from accounts.models import User\n"
        "from moderation.services.reports import report_file\n"
        "from tests.leaderboard.factory import hand\n"
        f"r = User.objects.get(username={reporter!r})\n"
        f"s = User.objects.get(username={suspect!r})\n"
        "rows = hand(r, s, ended=timezone.now(), winner=1)\n"
        "report_file(reporter=r, category='collusion', text='', hand=rows[0].hand)\n",
    )


def test_the_reversal_preview_needs_no_reason(live, browser):
    live.create_players("giver", "taker")
    _moderator(live, "judge3")
    _reported_hand(live, "giver", "taker")
    ctx, m, errors = new_page(browser, DESKTOP)
    login(m, live, "judge3")
    m.goto(f"{live.url}/admin/moderation/case/")
    m.locator('#result_list tbody a[href*="/change/"]').first.click()
    m.locator("[data-testid=decide-form] input[name=hands]").first.check()
    assert m.locator("textarea[name=reason]").input_value() == ""
    m.locator("[data-testid=reverse-preview]").click()
    preview = m.locator("[data-testid=reversal-preview]")
    preview.wait_for(state="visible", timeout=10_000)
    assert preview.get_attribute("data-conserved") == "1"
    # the raw ledger codes are not shown: the kind is named
    assert "牌局结算" in preview.inner_text() and "rake" not in preview.inner_text()
    # deciding still needs the reason (the browser asks for it first)
    m.locator("[data-testid=decide-warn]").click()
    assert m.locator("[data-testid=reversal-preview]").count() == 1
    assert m.evaluate(
        "() => !document.querySelector('textarea[name=reason]').validity.valid"
    )
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("width", [390, 860, 1280])
def test_the_english_header_shows_the_whole_leaderboard_link(live, browser, width):
    """Tester's fault: "Leaderboard" was cut off in the English header."""
    name = f"hdr{width}"
    live.create_players(name)
    ctx, page, errors = new_page(browser, {"width": width, "height": 800})
    ctx.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    login(page, live, name)
    page.goto(f"{live.url}/lobby/")
    fits = page.evaluate(
        """() => {
          const nav = document.querySelector('.main-nav');
          const r = nav.getBoundingClientRect();
          return [...nav.querySelectorAll('a')].map(a => {
            const b = a.getBoundingClientRect();
            const w = document.documentElement.clientWidth;
            return [a.textContent.trim(), b.left >= r.left - 0.5
                    && b.right <= r.right + 0.5 && b.right <= w + 0.5];
          });
        }"""
    )
    assert ["Leaderboard", True] in fits, fits
    assert all(ok for _t, ok in fits), fits
    assert errors == []
    ctx.close()


def test_a_report_being_written_survives_a_reload(live, browser):
    """Tester's fault (issue 14): reloading while writing a report lost the
    text and drew the settlement countdown from full again."""
    live.create_players("writer", "other")
    ctx_a, a, errors_a, ctx_b, b, errors_b = _pair(browser, live, "writer", "other")
    for page in (a, b):  # 托管 plays the hand for both
        page.keyboard.press("a")
        page.wait_for_selector("[data-action=auto][aria-pressed=true]")
    end = time.time() + 300
    while time.time() < end and not settled(a):
        a.wait_for_timeout(300)
    assert settled(a)
    a.locator("[data-testid=settlement] [data-testid=report]").click()
    form = a.locator("[data-testid=settlement] [data-testid=report-form]")
    form.locator("select[name=category]").select_option("stalling")
    form.locator("textarea[name=text]").fill("一直拖到最后一秒才出牌")
    a.wait_for_timeout(3000)  # some of the countdown goes by
    a.reload()
    a.wait_for_selector("#mj-conn.is-open")
    form = a.locator("[data-testid=settlement] [data-testid=report-form]")
    form.wait_for(state="visible")  # the form is open again, with the draft
    assert form.locator("textarea[name=text]").input_value() == "一直拖到最后一秒才出牌"
    assert form.locator("select[name=category]").input_value() == "stalling"
    # the countdown keeps running and says what it counts to: the table closes
    # on time (seed 000), it said 举报中，倒计时已暂停 though it never stopped
    num = "[data-testid=settle-countdown] .mj-timer-num"
    a.wait_for_function(
        f"() => /^\\d+秒后牌桌关闭$/.test(document.querySelector('{num}').textContent)"
    )
    before = int(a.locator(num).text_content().removesuffix("秒后牌桌关闭"))
    a.wait_for_timeout(2100)
    after = a.locator(num).text_content()
    assert after.endswith("秒后牌桌关闭") and int(after[:-6]) < before, (before, after)
    note = a.locator("[data-testid=settlement] [data-testid=report-after-close]")
    assert note.text_content() == (
        "倒计时结束时牌桌照常关闭；这一页会等你写完，关闭后也能提交。"
    )
    # the bar shows the time left of the whole countdown, not full again
    fraction = a.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector("
        "'[data-testid=settle-countdown] .mj-timer')).getPropertyValue('--p'))"
    )
    assert 0 < fraction < 0.985
    form.locator("[data-testid=report-submit]").click()
    a.wait_for_selector("[data-testid=report-done]")
    a.reload()
    a.wait_for_selector("#mj-conn.is-open")
    assert (
        a.evaluate(
            "() => Object.keys(sessionStorage).filter(k => k.startsWith('mj-report'))"
        )
        == []
    )
    assert errors_a == [] and errors_b == []
    for ctx in (ctx_a, ctx_b):
        ctx.close()
