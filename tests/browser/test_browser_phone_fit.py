"""The table fits the screen late in a hand, and the settlement fits a phone.

A fresh tester found (1) on a 390×844 phone late in a hand (wall 35, big
discard pools, melds) the pools pushed the own hand below the screen while a
碰/吃 decision was open, and at 1280×800 with four melds the last tiles were
cut; (2) the English settlement of a staked hand was 402 px wide on a 390 px
phone.  The page now is the viewport's height: the pools shrink into the room
left and scroll inside their own box; the settlement's boxes wrap.  Checked on
the real partials and CSS, laid out like games/table.html.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.presenters.render import FRAME_PARTS

from .test_frame_templates import NO_ACTIONS, context, settlement

pytestmark = pytest.mark.browser

SHOTS = "/tmp/phonefix"

POOL = ["1m", "9p", "7z", "2s", "4z", "8m", "3p", "6s", "1z", "5p", "9s", "2z"] * 2


def _page(live: Any, browser: Any, size: tuple[int, int], ctx: dict, lang: str):
    with translation.override(lang):
        part = {
            name: render_to_string(f"games/partials/{name}.html", ctx)
            for name in FRAME_PARTS
        }
    top = part.pop("roomline") + part.pop("commitline")
    html = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<base href="{live.url}/">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="static/css/site.css">'
        '<link rel="stylesheet" href="static/css/table.css"></head>'
        '<body><main><div class="mj-page"><div class="mj-topbar">'
        f'<a class="mj-back" href="#">←</a>{top}</div>'
        f'<div id="mj-root" class="mj-table">{"".join(part.values())}</div>'
        "</div></main></body></html>"
    )
    bctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = bctx.new_page()
    page.set_content(html, wait_until="load")
    return bctx, page


def late_hand(melds: int, hand: int) -> dict[str, Any]:
    """A claim window late in a hand: wall 35, 24 discards a side."""
    kinds = [
        {"kind": "pung", "tiles": ["1m", "1m", "1m"]},
        {"kind": "chi", "tiles": ["2m", "3m", "4m"]},
        {"kind": "kong", "tiles": ["5z", "5z", "5z", "5z"]},
        {"kind": "pung", "tiles": ["6z", "6z", "6z"]},
    ]
    base = context()
    me = dict(
        base["me"],
        tiles=["7m", "8m", "9m", "1p", "2p", "3p", "4s", "5s", "6s", "7s", "8s"][:hand],
        drawn=None,
        count=hand,
        melds=kinds[:melds],
        discards=POOL[:24],
        flowers=["1f", "2f"],
    )
    opp = dict(
        base["opponent"],
        count=7,
        melds=[
            {"kind": "pung", "tiles": ["3z", "3z", "3z"]},
            {"kind": "concealed_kong", "tiles": None},
        ],
        discards=POOL[::-1],
    )
    actions = dict(
        NO_ACTIONS,
        chi=[{"tiles": "789s", "list": ["7s", "8s", "9s"]}],
        pung=True,
        **{"pass": True},
    )
    return context(
        phase="claim",
        my_turn=False,
        wall_count=35,
        me=me,
        opponent=opp,
        actions=actions,
        last_discard={"seat": "opponent", "tile": "9s", "index": 23},
    )


FIT = """() => {
  const vh = window.innerHeight, vw = window.innerWidth;
  const box = s => { const r = document.querySelector(s).getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; };
  const bottoms = s => [...document.querySelectorAll(s)]
    .map(b => b.getBoundingClientRect().bottom);
  const tiles = bottoms('#mj-hand .mj-htile');
  const acts = bottoms('#mj-actions .mj-act');
  return {vh, vw, hand: box('#mj-hand'), tiles, acts,
          scrollH: document.documentElement.scrollHeight,
          scrollW: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize(
    ("size", "melds", "hand"),
    [
        ((390, 844), 1, 10),
        ((360, 740), 1, 10),
        ((1280, 800), 4, 2),
        ((1280, 800), 1, 10),
    ],
)
def test_late_hand_keeps_own_hand_and_buttons_on_screen(
    live, browser, size, melds, hand
):
    bctx, page = _page(live, browser, size, late_hand(melds, hand), "zh-hans")
    m = page.evaluate(FIT)
    page.screenshot(path=f"{SHOTS}/late-{size[0]}x{size[1]}-{melds}m.png")
    assert len(m["tiles"]) == hand and len(m["acts"]) >= 3
    assert max(m["tiles"]) <= m["vh"], m
    assert max(m["acts"]) <= m["vh"], m
    assert m["hand"][3] <= m["vh"], m
    assert m["scrollH"] <= m["vh"], m
    assert m["scrollW"] <= m["vw"], m
    # every discard is still there, in a box that scrolls if it must
    n = page.evaluate(
        "document.querySelectorAll('#mj-center .mj-pool .mj-tile').length"
    )
    assert n == 48
    bctx.close()


@pytest.mark.parametrize("width", [390, 360])
def test_english_staked_settlement_fits_a_phone(live, browser, width):
    me = dict(
        context()["players"]["me"],
        nickname="Alexandria",
        rating=1350,
        provisional=True,
        level="Bamboo Master",
        level_info={
            "name": "Bamboo Master",
            "badge": "static/img/favicon.svg",
            "fraction": 0.4,
            "next": "Dragon Grandmaster",
            "to_next": 12_345,
        },
    )
    opp = dict(context()["players"]["opponent"], nickname="Bartholomew the Bot")
    st = settlement(
        coins={"me": -1_234_560, "opponent": 1_172_832},
        skill={"me": -150, "opponent": 150},
        rating={"me": {"after": 1350, "change": -150}},
    )
    ctx = context(
        phase="ended", my_turn=False, settlement=st, players={"me": me, "opponent": opp}
    )
    bctx, page = _page(live, browser, (width, 844), ctx, "en")
    page.wait_for_selector("[data-testid=rating-change]")
    page.screenshot(path=f"{SHOTS}/settle-{width}.png")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.mj-settle *')]
             .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
             .slice(0, 4)
       .map(e => e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
    assert wide == []
    bctx.close()


INFO_ROWS = """() => {
  const top = el => Math.round(el.getBoundingClientRect().top);
  const info = document.querySelector('#mj-info');
  const turn = info.querySelector('.mj-turn');
  const note = info.querySelector('.mj-timeout-note');
  const inds = info.querySelector('.mj-inds');
  const task = info.querySelector('.mj-task');
  const wall = info.querySelector('.mj-wall');
  return {turn: top(turn), inds: top(inds), wall: top(wall),
          note: top(note), task: task ? top(task) : null,
          timer: info.querySelector('.mj-timer').getBoundingClientRect().width};
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_timeout_notice_has_its_own_row_in_the_centre_panel(live, browser, width):
    """Tester's finding: on a phone "你超时，自动打出北" sat between the turn and
    the indicators, narrowed the timer and pushed the round wind onto its own
    row.  The notice now takes a row of its own, under them, above the task."""
    plain = context(round_wind="1z")
    noted = context(
        round_wind="1z", timeout_notice={"id": 7, "who": "me", "tile": "4z"}
    )
    bctx, page = _page(live, browser, (width, 844), plain, "zh-hans")
    before = page.evaluate(INFO_ROWS.replace("top(note)", "0"))
    bctx.close()
    bctx, page = _page(live, browser, (width, 844), noted, "zh-hans")
    after = page.evaluate(INFO_ROWS)
    page.screenshot(path=f"{SHOTS}/timeout-note-{width}.png")
    bctx.close()
    # the wall, the turn and the indicators stay on one row, the timer as wide
    # (the panel grows by the notice's row, so compare within the panel)
    for part in ("turn", "inds"):
        moved = (after[part] - after["wall"]) - (before[part] - before["wall"])
        assert abs(moved) < 3, (part, before, after)
    assert abs(after["timer"] - before["timer"]) < 1, (before, after)
    assert after["note"] > after["turn"] and after["task"] > after["note"], after


@pytest.mark.parametrize("voted", ["opponent", "me"])
def test_who_chose_continue_is_on_screen_on_a_phone(live, browser, voted):
    """Fresh tester: on a 390×844 phone "对手已选择继续" sat in the body of the
    settlement, below the fold, while the sticky bar showed only the
    countdown and the buttons.  Both 继续 lines now sit in that bar."""
    st = settlement(continue_voted={"me": voted == "me", "opponent": voted != "me"})
    ctx = context(phase="ended", my_turn=False, settlement=st)
    bctx, page = _page(live, browser, (390, 844), ctx, "zh-hans")
    testid = "opponent-continued" if voted != "me" else "continue-waiting"
    line = page.locator(f"[data-testid={testid}]")
    page.screenshot(path=f"{SHOTS}/settle-voted-{voted}.png")
    box = line.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    bar = page.locator(".mj-settle-actions").bounding_box()
    assert bar is not None and bar["y"] <= box["y"]
    assert line.inner_text() == (
        "对手已选择继续，等你决定。" if voted != "me" else "已选择继续，等待对手…"
    )
    bctx.close()


@pytest.mark.parametrize("width", [390, 360])
def test_english_rated_practice_settlement_fits_a_phone(live, browser, width):
    """The practice note that says the hand counts for the rating, and the
    rating line under it (stop 26's tester), fit a phone in English."""
    me = dict(context()["players"]["me"], rating=1612, provisional=True)
    st = settlement(
        practice=True,
        coins={"me": 0, "opponent": 0},
        rating={"me": {"after": 1612, "change": 112}, "opponent": None},
    )
    ctx = context(phase="ended", my_turn=False, settlement=st, players={"me": me})
    bctx, page = _page(live, browser, (width, 844), ctx, "en")
    page.wait_for_selector("[data-testid=rating-change]")
    page.screenshot(path=f"{SHOTS}/practice-settle-{width}.png")
    note = page.locator("[data-testid=practice-note]").inner_text()
    assert "counts for your rating" in note
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    bctx.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_focused_settlement_link_is_not_under_the_sticky_bar(live, browser, size):
    """Fresh tester (stop 28): with five or more fan rows at 1280×800, 回放本盘
    and 离开，回到大厅 sat under the sticky 继续/分组 bar, and moving to them
    (Tab, a click that scrolls them in) left them there.  The settlement keeps
    the bar's height free at the bottom when it scrolls something into view."""
    fan = {"id": "FLOWER_TILES", "zh": "花牌", "en": "Flower Tiles", "points": 1}
    fans = [dict(fan, id=f"F{i}", count=1) for i in range(7)]
    st = settlement(fans=fans, record_url="/hands/99/")
    ctx = context(phase="ended", my_turn=False, settlement=st)
    bctx, page = _page(live, browser, size, ctx, "zh-hans")
    for testid in ("replay-link", "leave-link", "report"):
        target = page.locator(f"[data-testid={testid}]")
        target.focus()
        box = target.bounding_box()
        bar = page.locator(".mj-settle-actions").bounding_box()
        assert box is not None and bar is not None
        page.screenshot(path=f"{SHOTS}/settle-focus-{testid}-{size[0]}.png")
        assert box["y"] + box["height"] <= bar["y"] + 0.5, (testid, box, bar)
        assert box["y"] >= 0, (testid, box)
    bctx.close()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_why_the_table_closed_is_on_screen_on_a_phone(live, browser, lang):
    """Fresh tester: on a 390×844 phone, after the opponent pressed 离开, 继续
    gave way to 分组 / 回到大厅 in the sticky bar while "对手已离开牌桌" sat in
    the body of the settlement, below the fold.  It now sits in that bar,
    above the buttons it explains; the taller bar still leaves the links it
    scrolls into view (Tab) above it."""
    fan = {"id": "FLOWER_TILES", "zh": "花牌", "en": "Flower Tiles", "points": 1}
    st = settlement(
        fans=[dict(fan, id=f"F{i}", count=1) for i in range(7)],
        closed={"reason": "left", "by": "opponent"},
        countdown=1_700_000_000_000 + 9000,
        continue_voted={"me": False, "opponent": False},
    )
    table = dict(context()["table"], status="closed")
    ctx = context(phase="ended", my_turn=False, settlement=st, table=table)
    bctx, page = _page(live, browser, (390, 844), ctx, lang)
    page.screenshot(path=f"{SHOTS}/settle-opp-left-{lang}.png")
    line = page.locator("[data-testid=opponent-left]")
    box = line.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    bar = page.locator(".mj-settle-actions").bounding_box()
    regroup = page.locator("[data-testid=regroup]").bounding_box()
    assert bar is not None and regroup is not None
    assert bar["y"] <= box["y"] and box["y"] + box["height"] <= regroup["y"]
    assert line.inner_text() == (
        "对手已离开牌桌。" if lang == "zh-hans" else "Your opponent has left the table."
    )
    for testid in ("replay-link", "report"):
        target = page.locator(f"[data-testid={testid}]")
        target.focus()
        box = target.bounding_box()
        bar = page.locator(".mj-settle-actions").bounding_box()
        assert box is not None and bar is not None
        assert box["y"] + box["height"] <= bar["y"] + 0.5, (testid, box, bar)
        assert box["y"] >= 0, (testid, box)
    bctx.close()
