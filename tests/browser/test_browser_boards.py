"""A new player plays the bot, the nightly job runs, and they find themselves ranked.

Issue 13's end-to-end check in headless Chromium: a fresh account plays three
hands against the easy bot at a live table, ``manage.py recalc_ranks`` runs
(yesterday's snapshot was taken before they played, today's after), and the boards show
them — marked as the signed-in row, new since yesterday — and their player
page shows their level, provisional rating, both charts and the three hands
with replay links, on a desktop and, in English, on a phone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from .conftest import login, running_server
from .play import play_to_end, settled
from .server import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

HISTORY = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tests.leaderboard.factory import hand
v, r = (User.objects.get(username=n) for n in ("veteran", "rival"))
when = timezone.now() - timedelta(days=1)
hand(v, r, ended=when, winner=0, fan=16)
hand(r, v, ended=when, winner=0, fan=8)
"""


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server and database: the boards' ranks ("third of
    all time", "first today") count every hand on the site, so the hands
    other browser modules play on the shared server must not reach them,
    whatever order the modules run in."""
    yield from running_server()


def _page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    return ctx, page, errors


def _today(live: Any) -> str:
    out = live.manage(
        "shell",
        "-c",
        "from leaderboard.periods import local_today; print(local_today())",
    )
    return out.strip().splitlines()[-1]


def test_a_new_player_plays_the_bot_and_finds_themselves_on_the_boards(live, browser):
    from datetime import date

    live.create_players("rookie", "veteran", "rival")
    live.manage("shell", "-c", HISTORY)
    today = date.fromisoformat(_today(live))
    yesterday = (today - timedelta(days=1)).isoformat()
    # the snapshot of yesterday, before the rookie's first hand
    assert "recalc_ranks " + yesterday in live.manage(
        "recalc_ranks", "--date", yesterday
    )

    ctx, page, errors = _page(browser, DESKTOP)
    login(page, live, "rookie")
    page.goto(f"{live.url}/lobby/")
    page.locator("[data-testid=bot-level]").first.select_option("easy")
    page.locator("[data-testid=play-bot]").first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")
    for n in range(3):
        play_to_end(page, keyboard=n % 2 == 0)
        assert settled(page)
        # the plate shows the level with its progress; the panel the rating
        assert page.locator("[data-testid=plate-level]").count() >= 1
        if n < 2:
            page.locator("[data-testid=continue]").click()
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=settlement]')",
                timeout=20_000,
            )

    # the nightly command, by hand, for today (the boards compare with the
    # latest snapshot before today: yesterday's)
    out = live.manage("recalc_ranks", "--date", today.isoformat())
    assert "rows corrected" in out and "snapshot rows" in out

    # all-time points: veteran and rival have points, the rookie (practice
    # hands move none) is third — their own row, new since yesterday
    page.goto(f"{live.url}/leaderboard/")
    mine = page.locator("[data-testid=my-row]")
    assert mine.get_attribute("data-player") == "Rookie"
    assert mine.get_attribute("data-rank") == "3"
    assert mine.locator("[data-testid=rank-move]").get_attribute("data-move") == "new"
    players = page.eval_on_selector_all(
        "[data-testid=board-row]", "rs => rs.map(r => r.dataset.player)"
    )
    assert players[:2] == ["Veteran", "Rival"] and "Rookie" in players
    assert not [p for p in players if "电脑" in p]  # bots are never ranked
    # today: only the rookie played
    page.locator("[data-period=day]").click()
    page.wait_for_url(re.compile(r"period=day"))
    assert page.locator("[data-testid=my-row]").get_attribute("data-rank") == "1"
    # the veterans' movement on the all-time board compares with yesterday
    page.locator("[data-period=all]").click()
    page.wait_for_url(re.compile(r"period=all"))
    moves = page.eval_on_selector_all(
        "[data-testid=board-row] [data-testid=rank-move]",
        "ms => ms.map(m => m.dataset.move)",
    )
    assert moves[:2] == ["0", "0"]

    # their player page, from the board
    page.locator("[data-testid=my-row] a").first.click()
    page.wait_for_url(re.compile(r"/players/Rookie/$"))
    assert page.locator("[data-testid=player-level]").count() == 1
    rating = page.locator("[data-testid=player-rating]")
    assert rating.get_attribute("data-provisional") == "1"
    assert "?" in rating.inner_text()
    for chart in ("rating-chart", "fan-chart"):
        assert page.locator(f"svg[data-testid={chart}]").count() == 1
    hands = page.locator("[data-testid=recent-hands] tbody tr")
    assert hands.count() == 3
    assert (
        page.locator("[data-testid=recent-hands] [data-testid=replay-link]").count()
        == 3
    )
    assert page.locator("[data-stat=hands]").inner_text().strip() == "3"
    assert errors == []

    # in English, on a phone: the same board and page, nothing wider than it
    phone, p2, errors2 = _page(browser, PHONE)
    login(p2, live, "rookie")
    p2.goto(f"{live.url}/")
    p2.click("form.lang-switch button[value=en]")
    p2.wait_for_load_state()
    p2.goto(f"{live.url}/leaderboard/?board=maxfan")
    assert "Biggest hand" in p2.content()
    p2.goto(f"{live.url}/players/Rookie/")
    assert "Recent hands" in p2.content() and "Rating history" in p2.content()
    width = p2.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert errors2 == []
    ctx.close()
    phone.close()


@pytest.mark.parametrize("width", [300, 440])
def test_fan_chart_names_are_not_cut_at_the_left_edge(browser, width):
    """Tester's fault: on a player page the fan names' first characters were
    cut off at the chart's left edge (pygal sized the label column for Latin
    letters).  The chart as the page inlines it, drawn by Chromium."""
    from leaderboard.charts import fan_chart

    svg = fan_chart(
        fans=[("幺九刻", 3), ("加番牌", 2), ("十三幺", 1), ("清一色", 1)],
        title="t",
        series="s",
        no_data="x",
    )
    ctx, page, errors = _page(browser, {"width": 500, "height": 600})
    page.set_content(f'<div style="width:{width}px">{svg}</div>')
    names, cut = page.eval_on_selector(
        "svg[data-testid=fan-chart]",
        """svg => { const box = svg.getBoundingClientRect();
          // a horizontal bar chart: pygal's "axis y" carries the names
          const names = [...svg.querySelectorAll('.axis.y .guides text')];
          return [names.map(t => t.textContent), names
            .filter(t => t.getBoundingClientRect().left < box.left - 0.5)
            .map(t => t.textContent)]; }""",
    )
    ctx.close()
    assert sorted(names) == sorted(["幺九刻", "加番牌", "十三幺", "清一色"])
    assert cut == []
    assert errors == []
