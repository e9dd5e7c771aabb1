"""A person and a browser: whole hands in headless Chromium over real WebSockets.

The server is Daphne in a subprocess (tests/browser/server.py); the tests
click and type like a player and must cope with any deal (the bot, the wall
and the seeds are not stacked).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import login
from .play import (
    decline_pre_deal,
    hand_tiles,
    play_to_end,
    settled,
    status,
    step,
    wait_change,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def new_page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    return ctx, page, errors


def check_settlement(page: Any) -> str:
    """Assert the panel's hooks and values; return its result."""
    panel = page.locator("[data-testid=settlement]")
    result = panel.get_attribute("data-result")
    assert result in ("win", "draw")
    total = page.locator("[data-testid=total-fan]")
    assert total.count() == 1
    if result == "win":
        fans = page.locator("[data-testid=settlement] [data-fan]")
        assert fans.count() >= 1
        total_value = int(total.inner_text().strip())
        listed = sum(
            int(fans.nth(i).locator("td.num").first.inner_text())
            * int(fans.nth(i).locator("td.num").nth(1).inner_text().lstrip("×"))
            for i in range(fans.count())
        )
        # the total is the fan sum, or more with doubling shares (任务/胡加倍)
        assert total_value >= listed > 0
    for hook in ("continue", "regroup", "replay-link"):
        assert page.locator(f"[data-testid={hook}]").count() == 1, hook
    # 举报 is for hands between people (a practice hand has nobody to report)
    practice = page.locator("[data-testid=practice-note]").count() == 1
    assert page.locator("[data-testid=report]").count() == (0 if practice else 1)
    return str(result)


def test_person_plays_a_whole_hand_against_the_bot(live, browser):
    live.create_players("solo")
    ctx, page, errors = new_page(browser, PHONE)
    login(page, live, "solo")
    page.goto(f"{live.url}/lobby/")
    assert page.locator("[data-testid=quick-match]").count() >= 1
    page.locator("[data-testid=bot-level]").first.select_option("easy")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")

    moves = play_to_end(page, keyboard=True)
    assert moves, "the player never acted"
    result = check_settlement(page)
    # a practice hand moves no coins but is rated when won (README), and says so
    note = page.locator("[data-testid=practice-note]").inner_text()
    rating = page.locator("[data-testid=settlement] [data-testid=rating-change]")
    if result == "win":
        assert "计入等级分" in note
        assert rating.count() == 1
        assert rating.locator("[data-rating-change]").count() == 1
    else:
        assert "计入等级分" not in note and rating.count() == 0

    # the replay of that hand: every event, both hands open, the settlement
    # at its last step
    href = page.locator("[data-testid=replay-link]").get_attribute("href")
    record = ctx.new_page()
    record.goto(live.url + href + "?step=100000")
    rows = record.locator("[data-testid=record-events] tbody tr")
    assert rows.count() > 10
    kinds = record.eval_on_selector_all(
        "[data-testid=record-events] tbody tr", "rs => rs.map(r => r.dataset.kind)"
    )
    assert kinds[0] == "hand_started" and kinds[-1] == "hand_ended"
    assert kinds.count("deal") == 2  # both seats' deals, open after the end
    if result == "win":
        assert record.locator("[data-testid=settlement] [data-fan]").count() >= 1

    # 继续: the bot agrees at once, the next hand is dealt on the same table
    url = page.url
    page.locator("[data-testid=continue]").click()
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=settlement]')", timeout=15_000
    )
    assert page.url == url
    assert errors == []
    ctx.close()


def test_two_people_play_a_hand_to_the_end(live, browser):
    live.create_players("east", "west")
    ctx_a, a, errors_a = new_page(browser, DESKTOP)
    ctx_b, b, errors_b = new_page(browser, PHONE)
    login(a, live, "east")
    login(b, live, "west")
    a.goto(f"{live.url}/lobby/")
    a.locator("[data-testid=quick-match]").first.click()
    a.wait_for_url(re.compile(r"/table/\d+/$"))
    a.wait_for_selector("[data-testid=waiting]")
    b.goto(f"{live.url}/lobby/")
    b.locator("[data-testid=quick-match]").first.click()
    b.wait_for_url(re.compile(r"/table/\d+/$"))
    assert a.url == b.url  # paired at the waiting table
    a.wait_for_selector("[data-testid=my-hand]")
    # 托管 on and off with the A key: both players see the flag meanwhile (A's
    # seat plays itself at once; B, a person, keeps the pace)
    a.keyboard.press("a")
    a.wait_for_selector("[data-action=auto][aria-pressed=true]")
    a.wait_for_selector("#mj-me .mj-flag--auto")
    b.wait_for_selector("#mj-opponent .mj-flag--auto")
    a.keyboard.press("a")
    a.wait_for_selector("[data-action=auto][aria-pressed=false]")
    b.wait_for_selector("#mj-opponent .mj-flag--auto", state="detached")

    end = time.time() + 300
    n = 0
    while time.time() < end and not (settled(a) and settled(b)):
        acted = False
        for page in (a, b):
            seq = status(page).get("seq")
            what = step(page, n, keyboard=(page is a))
            if what and what != "settled":
                n += 1
                acted = True
                wait_change(page, seq, timeout=10)
        if not acted:
            a.wait_for_timeout(80)
    assert settled(a) and settled(b), f"no settlement after {n} moves"
    ra, rb = check_settlement(a), check_settlement(b)
    assert ra == rb
    if ra == "win":
        winner_a = a.locator("[data-testid=settlement]").get_attribute("data-winner")
        winner_b = b.locator("[data-testid=settlement]").get_attribute("data-winner")
        assert {winner_a, winner_b} == {"me", "opponent"}
        # coins: what one gains the other loses (plus the rake)
        ca = int(
            a.locator("[data-testid=delta-me] [data-coins]").get_attribute("data-coins")
        )
        cb = int(
            b.locator("[data-testid=delta-me] [data-coins]").get_attribute("data-coins")
        )
        assert (ca > 0 > cb) or (cb > 0 > ca)
    # 分组: A goes back to matchmaking at a new table; B is told the table closed
    table_url = a.url
    a.locator("[data-testid=regroup]").click()
    a.wait_for_url(lambda url: url != table_url and "/table/" in url)
    a.wait_for_selector("[data-testid=waiting]")
    a.locator("[data-testid=leave]").click()  # 取消: nobody is left waiting
    a.wait_for_url(re.compile(r"/lobby/$"))
    b.wait_for_selector("[data-testid=table-closed]")
    b.locator("[data-testid=back-to-lobby]").click()
    b.wait_for_url(re.compile(r"/lobby/$"))
    assert errors_a == [] and errors_b == []
    ctx_a.close()
    ctx_b.close()


def test_reload_mid_hand_restores_the_view(live, browser):
    live.create_players("reloader")
    ctx, page, errors = new_page(browser, DESKTOP)
    login(page, live, "reloader")
    page.goto(f"{live.url}/lobby/")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")
    # play a few moves, then reload while the hand is on (if the bot wins
    # first, 继续 deals the next hand and we try again)
    for _attempt in range(5):
        n = 0
        end = time.time() + 60
        while n < 4 and time.time() < end and not settled(page):
            seq = status(page).get("seq")
            what = step(page, n, keyboard=False)
            if what:
                n += 1
                wait_change(page, seq, timeout=10)
            else:
                page.wait_for_timeout(80)
        if not settled(page):
            break
        page.locator("[data-testid=continue]").click()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=settlement]')"
        )
    assert not settled(page), "five hands ended within four moves"
    page.wait_for_timeout(400)
    before = {
        "hand": hand_tiles(page),
        "pools": page.eval_on_selector_all(
            "[data-testid=my-pool] img, [data-testid=opp-pool] img",
            "els => els.length",
        ),
        "seq": status(page).get("seq"),
    }
    page.reload()
    page.wait_for_selector("#mj-conn.is-open")
    page.wait_for_timeout(400)
    after = {
        "hand": hand_tiles(page),
        "pools": page.eval_on_selector_all(
            "[data-testid=my-pool] img, [data-testid=opp-pool] img",
            "els => els.length",
        ),
        "seq": status(page).get("seq"),
    }
    if after["seq"] == before["seq"]:
        assert after == before
    else:  # the bot moved meanwhile: our tiles are still ours
        assert len(after["hand"]) >= len(before["hand"]) - 1
    assert len(after["hand"]) >= 1
    # a stale action (an old seq) is refused with a message and changes nothing
    page.evaluate(
        """() => {
          const f = document.createElement('form');
          f.setAttribute('ws-send', '');
          f.setAttribute('hx-vals', JSON.stringify({action: 'pass', seq: 1}));
          f.id = 'stale-probe';
          document.getElementById('mj-root').appendChild(f);
          htmx.process(f);
          f.requestSubmit();
        }"""
    )
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.trim().length > 0"
    )
    assert page.locator("#toast").get_attribute("role") == "alert"
    toast = page.locator("#toast").inner_text()
    assert toast in ("牌局已更新，请按当前状态操作", "还没轮到你"), toast
    # and the hand goes on to the end from the restored page
    play_to_end(page, keyboard=True)
    check_settlement(page)
    assert errors == []
    ctx.close()


def test_waiting_alone_offers_a_bot_then_deals(live, browser):
    live.create_players("lonely")
    ctx, page, errors = new_page(browser, PHONE)
    login(page, live, "lonely")
    page.goto(f"{live.url}/lobby/")
    # the second room (初级场): other tests pair people in the first one
    page.locator("[data-testid=quick-match]").nth(1).click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("[data-testid=waiting]")
    # MAHJONG_BOT_OFFER_AFTER is 2 s on the test server; the frame brings the offer
    page.locator("[data-testid=accept-bot]").click(timeout=20_000)
    decline_pre_deal(page)
    page.wait_for_selector("[data-testid=my-hand] [data-tile]", timeout=20_000)
    assert page.locator("[data-testid=waiting]").count() == 0
    assert errors == []
    ctx.close()


def test_friend_table_invite_link_seats_the_friend(live, browser):
    live.create_players("host", "guest")
    ctx_h, host, errors_h = new_page(browser, DESKTOP)
    ctx_g, guest, errors_g = new_page(browser, PHONE)
    login(host, live, "host")
    login(guest, live, "guest")
    host.goto(f"{live.url}/lobby/")
    host.locator("[data-testid=friend-room]").first.click()
    host.wait_for_url(re.compile(r"/table/\d+/$"))
    invite = host.locator("[data-invite]").input_value()
    assert invite.startswith(live.url + "/t/")  # the full address to share
    guest.goto(invite)
    guest.wait_for_url(re.compile(r"/table/\d+/$"))
    assert guest.url == host.url
    for page in (host, guest):
        page.wait_for_selector(
            "#mj-status[data-phase]:not([data-phase=waiting])", state="attached"
        )
    assert errors_h == [] and errors_g == []
    ctx_h.close()
    ctx_g.close()


def test_back_from_a_table_shows_the_lobby_as_it_is_now(live, browser):
    """Fresh tester: Back from a practice table showed the lobby as it was left
    (from the browser's back/forward cache), without its "回到牌桌" banner, so
    another room's 人机练习 looked open.  The lobby is never cached and loads
    anew when Back brings it."""
    live.create_players("backer")
    ctx, page, errors = new_page(browser, DESKTOP)
    login(page, live, "backer")
    page.goto(f"{live.url}/lobby/")
    assert page.locator("[data-testid=current-table]").count() == 0
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")
    table_url = page.url
    page.go_back()
    page.wait_for_url(re.compile(r"/lobby/$"))
    banner = page.locator("[data-testid=current-table]")
    banner.wait_for()
    assert banner.locator(f"a[href='{table_url.removeprefix(live.url)}']").count() == 1
    assert errors == []
    ctx.close()
