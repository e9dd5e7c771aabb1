"""The hand on a phone held upright (issue 11 §6).

On a 390 px portrait screen the hand's tiles were 25 px wide; the hand now
wraps into two rows of up to seven, each tile at least 32 px wide.  Checked
on the real frame partials and CSS: a 14-tile hand, and a hand with four
melds (14 tiles + the kong's extra one) at 360 px, nothing past the screen.
"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from .test_frame_templates import context

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const tiles = [...document.querySelectorAll('#mj-hand .mj-htile')].map(b => {
    const r = b.getBoundingClientRect(); return [r.left, r.right, r.top, r.width];
  });
  const melds = [...document.querySelectorAll('#mj-me .mj-meld')].map(m => {
    const r = m.getBoundingClientRect(); return [r.left, r.right];
  });
  const rows = new Set(tiles.map(t => Math.round(t[2]))).size;
  return {vw, tiles, melds, rows, wide: document.documentElement.scrollWidth > vw};
}"""


def _page(live, browser, width: int, ctx: dict) -> tuple:
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", ctx)
    html = (
        '<!doctype html><html lang="zh-hans"><head><meta charset="utf-8">'
        f'<base href="{live.url}/">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="static/css/site.css">'
        '<link rel="stylesheet" href="static/css/table.css"></head>'
        '<body><main><div class="mj-page"><div id="mj-root" class="mj-table">'
        f"{frame}</div></div></main></body></html>"
    )
    bctx = browser.new_context(viewport={"width": width, "height": 800})
    page = bctx.new_page()
    page.set_content(html, wait_until="load")
    return bctx, page


@pytest.mark.parametrize("width", [390, 360])
def test_fourteen_tiles_in_two_rows_of_wide_tiles(live, browser, width):
    bctx, page = _page(live, browser, width, context())
    m = page.evaluate(MEASURE)
    assert len(m["tiles"]) == 14
    assert m["rows"] == 2
    assert min(t[3] for t in m["tiles"]) >= 32
    assert all(t[0] >= 0 and t[1] <= m["vw"] for t in m["tiles"])
    assert not m["wide"]
    bctx.close()


def test_four_melds_and_the_hand_fit_360(live, browser):
    base = context()
    melds = [
        {"kind": "pung", "tiles": ["1m", "1m", "1m"]},
        {"kind": "chi", "tiles": ["2m", "3m", "4m"]},
        {"kind": "kong", "tiles": ["5z", "5z", "5z", "5z"]},
        {"kind": "concealed_kong", "tiles": ["6z", "6z", "6z", "6z"]},
    ]
    me = dict(base["me"], tiles=["9m"], drawn="9m", count=2, melds=melds)
    actions = dict(base["actions"], discard_tiles=["9m"], discard_waits={})
    bctx, page = _page(live, browser, 360, context(me=me, actions=actions))
    m = page.evaluate(MEASURE)
    assert len(m["tiles"]) == 2 and len(m["melds"]) == 4
    assert min(t[3] for t in m["tiles"]) >= 32
    assert all(left >= 0 and right <= m["vw"] for left, right in m["melds"])
    assert not m["wide"]
    bctx.close()
