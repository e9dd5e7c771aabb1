"""The round-wind box holds its word in English (fresh tester).

The box is tile-shaped, made for one Chinese character (东); in English the
word "East" spilled out of it at 1280×800.  The CSS now lets the box widen to
fit a Latin word in a smaller type (``:lang(en)``); the frame HTML is unchanged.
Checked on the real partials and CSS, laid out like games/table.html.
"""

from __future__ import annotations

import pytest

from .test_browser_phone_fit import _page
from .test_frame_templates import context

pytestmark = pytest.mark.browser

SHOTS = "/tmp/windfix"

MEASURE = """() => {
  const box = document.querySelector('.mj-ind .mj-wind');
  const range = document.createRange();
  range.selectNodeContents(box);
  const t = range.getBoundingClientRect(), b = box.getBoundingClientRect();
  return {text: box.textContent.trim(), box: [b.left, b.top, b.right, b.bottom],
          ink: [t.left, t.top, t.right, t.bottom],
          scroll: box.scrollWidth, client: box.clientWidth,
          inds: box.closest('.mj-inds').getBoundingClientRect().right,
          vw: document.documentElement.clientWidth,
          scrollW: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
@pytest.mark.parametrize(
    "lang,wind,word",
    [
        ("en", "1z", "East"),
        ("en", "3z", "West"),
        ("en", "2z", "South"),
        ("en", "4z", "North"),
        ("zh-hans", "1z", "东"),
    ],
)
def test_the_round_wind_fits_its_frame(live, browser, size, lang, wind, word):
    bctx, page = _page(live, browser, size, context(round_wind=wind), lang)
    m = page.evaluate(MEASURE)
    page.locator(".mj-inds").screenshot(
        path=f"{SHOTS}/wind-{lang}-{word}-{size[0]}.png"
    )
    bctx.close()
    assert m["text"] == word
    left, top, right, bottom = m["box"]
    ink_left, ink_top, ink_right, ink_bottom = m["ink"]
    assert left <= ink_left and ink_right <= right, m
    assert top <= ink_top and ink_bottom <= bottom, m
    assert m["scroll"] <= m["client"], m
    assert m["scrollW"] <= m["vw"], m
    if lang != "en":  # the Chinese box keeps its tile shape
        assert round(bottom - top) > round(right - left), m
