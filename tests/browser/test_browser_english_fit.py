"""English words fit the header and the turn banner (fresh tester, README's demo1).

1. At 1280, 1440 and 1600 px the English top bar cut the player's own name
   and level to "东…" and "Lead Spa…" (the one-row header needs about 1,060
   px in English); Chinese was fine.
2. At 390 px the live table's turn banner read "Your turn to disca…" (jj)
   and "Your turn …" (liangren, whose 财神 and 倍数 take the room): English
   prompts wrap there now; Chinese keeps its one line.
"""

from __future__ import annotations

import re
import time
from itertools import pairwise
from typing import Any

import pytest

from .conftest import login
from .play import decline_pre_deal, visible

pytestmark = pytest.mark.browser

CHIP = """() => {
  const row = document.querySelector('.header-row').getBoundingClientRect();
  const out = {};
  for (const [key, sel] of [['name', '.player-name'],
                            ['level', '.player-chip .level-badge'],
                            ['coins', '.player-chip .coins'],
                            ['nav', '.main-nav'], ['brand', '.brand'],
                            ['inbox', '.inbox-link'], ['logout', '.btn-logout']]) {
    const el = document.querySelector(sel), r = el.getBoundingClientRect();
    out[key] = {text: el.textContent.trim().replace(/\\s+/g, ' '),
                scroll: el.scrollWidth, client: el.clientWidth,
                left: r.left, right: r.right, top: r.top};
  }
  const page = document.documentElement;
  out.row = [row.left, row.right];
  out.wide = page.scrollWidth > page.clientWidth;
  return out;
}"""


def _demo_like(live: Any, name: str, nickname: str) -> None:
    """``name`` as demo1 is seeded: a three-character nickname (demo1's is
    东风客), 1,600 points (雀头)."""
    live.create_players(name)
    live.set_profile(name, points=1600, nickname=nickname)


def _boxes_apart(got: dict[str, Any], keys: list[str]) -> bool:
    """The header parts ``keys`` (left to right) do not overlap."""
    return all(got[a]["right"] <= got[b]["left"] + 0.5 for a, b in pairwise(keys))


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_header_shows_the_whole_name_and_level(live, browser, language):
    name = f"eastwind{language[:2]}"
    nickname = "东风客" if language == "en" else "南风客"  # nicknames are unique
    _demo_like(live, name, nickname)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    login(page, live, name)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live.url}])
    page.goto(f"{live.url}/lobby/")
    level = "Lead Sparrow" if language == "en" else "雀头"
    for width in (1600, 1440, 1280, 1120, 1000, 860):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(100)
        got = page.evaluate(CHIP)
        page.locator(".site-header").screenshot(
            path=f"/tmp/header_fit_{language}_{width}.png"
        )
        assert got["name"]["text"] == nickname and got["level"]["text"] == level
        for key in ("name", "level", "coins", "nav", "brand"):
            assert got[key]["scroll"] <= got[key]["client"], (width, key, got)
        assert not got["wide"], (width, got)
        one_row = got["nav"]["top"] == got["logout"]["top"] or (
            abs(got["nav"]["top"] - got["name"]["top"]) < 20
        )
        if width >= 1120 or language != "en":
            # one row: logo, nav, chip, inbox, log out, side by side
            assert one_row, (width, got)
            assert _boxes_apart(got, ["brand", "nav", "name", "level", "coins"])
            assert _boxes_apart(got, ["coins", "inbox", "logout"]), (width, got)
        else:
            # English below 1,120 px: brand and chip above, nav and log out below
            assert got["nav"]["top"] > got["name"]["top"] + 20, (width, got)
            assert _boxes_apart(got, ["brand", "name", "level", "coins", "inbox"])
    ctx.close()


BANNER = """() => {
  const box = document.querySelector('.mj-turn-text');
  const r = box.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(box);
  const rects = Array.from(range.getClientRects());
  const style = getComputedStyle(box);
  return {
    text: box.textContent.trim().replace(/\\s+/g, ' '),
    box: [r.left, r.right, r.top, r.bottom],
    // the text's own boxes, where it is laid out: a line 0.6 px too wide
    // already ends in an ellipsis (scrollWidth, rounded, did not show it)
    inside: rects.every(t => t.left >= r.left - 0.01 && t.right <= r.right + 0.01
                             && t.top >= r.top - 1 && t.bottom <= r.bottom + 1),
    lines: new Set(rects.map(t => Math.round(t.top))).size,
    scroll: [box.scrollWidth, box.clientWidth, box.scrollHeight, box.clientHeight],
    ellipsis: style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap',
    wild: !!document.querySelector('#mj-info [data-testid=wild-tile]'),
    bonus: !!document.querySelector('#mj-info [data-testid=bonus-tile]'),
    mult: !!document.querySelector('#mj-info [data-testid=multiplier]'),
  };
}"""


def _to_my_discard(page: Any, prompt: str, timeout: float = 90.0) -> None:
    """Answer the table (明牌, 加倍, pass a claim) until the banner says
    ``prompt``, the seat's own turn to discard."""
    end = time.time() + timeout
    while time.time() < end:
        if prompt in page.locator(".mj-turn-text").inner_text():
            return
        for action in ("open", "double", "pass"):
            btn = visible(page, f"#mj-actions [data-action={action}]")
            if btn is not None:
                btn.click()
                break
        page.wait_for_timeout(150)
    shown = page.locator(".mj-turn-text").inner_text()
    raise AssertionError(f"never {prompt!r}: {shown!r}")


@pytest.mark.parametrize(
    "ruleset,language",
    [("jj", "en"), ("liangren", "en"), ("jj", "zh-hans"), ("liangren", "zh-hans")],
)
def test_the_turn_banner_is_readable_on_a_phone(live, browser, ruleset, language):
    name = f"banner{ruleset}{language[:2]}"
    live.create_players(name)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    login(page, live, name)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live.url}])
    page.goto(f"{live.url}/lobby/")
    room = f"[data-testid=room][data-ruleset={ruleset}] [data-testid=play-bot]"
    page.locator(room).first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    decline_pre_deal(page)
    page.wait_for_selector("#mj-hand .mj-htile")
    prompt = "Your turn to discard" if language == "en" else "轮到你出牌"
    _to_my_discard(page, prompt)
    got = page.evaluate(BANNER)
    page.screenshot(path=f"/tmp/banner_fit_{ruleset}_{language}_390.png")
    assert got["text"] == f"▼ {prompt}", got
    if ruleset == "liangren":
        assert got["wild"] and got["mult"], got  # the crowded case: 财神 and 倍数
    else:
        assert got["bonus"], got
    assert got["inside"], got
    assert got["scroll"][0] <= got["scroll"][1], got
    assert got["scroll"][2] <= got["scroll"][3] + 1, got
    if language == "en":
        assert got["lines"] <= 2, got
    else:
        # Chinese as it was: one line, an ellipsis the fallback
        assert got["lines"] == 1 and got["ellipsis"], got
    ctx.close()
