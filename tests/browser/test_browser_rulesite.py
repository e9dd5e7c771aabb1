"""The rules site and the fan calculator in Chromium (issue 12): build a hand
by clicking and by notation, read the total and the waits, open every rule
set's rules page and check every fan row has an example; desktop and a
360 px phone, Chinese and English."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from games.rules import rulesets

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def _page(browser: Any, viewport: dict[str, int], lang: str = "zh-hans") -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    return page, context, lang


def _set_language(page: Any, live: Any, lang: str) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "url": live.url}]
    )


def _wide(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def _total(page: Any) -> str:
    return page.locator('[data-testid="calc-total"]').inner_text().strip()


def _waits(page: Any) -> list[str]:
    items = page.locator('[data-testid="calc-waits"] [data-wait]')
    return [items.nth(i).get_attribute("data-wait") for i in range(items.count())]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_build_a_hand_by_clicking_then_read_waits_and_total(live, browser, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{live.url}/calculator/?ruleset=mcr")
    palette = page.locator('[data-testid="calc-palette"]')
    for tile in ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m"]:
        palette.locator(f'[data-tile="{tile}"]').click()
    for tile in ["9m", "9m", "9m"]:
        palette.locator(f'[data-tile="{tile}"]').click()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=calc-waits] [data-wait]').length == 9"
    )
    assert _waits(page) == [f"{r}m" for r in range(1, 10)]
    assert _total(page) == ""  # 13 tiles: not a win
    notation = page.locator('[data-testid="calc-notation"]')
    assert notation.input_value() == "1112345678999m"
    palette.locator('[data-tile="5m"]').click()
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-total]').textContent.trim() == '91'"
    )
    assert page.locator('[data-fan="NINE_GATES"]').count() == 1
    assert "hand=1112345678999m5m" in page.url  # the URL holds the hand
    # the URL alone gives the same answer
    page.goto(page.url)
    assert _total(page) == "91"
    assert _wide(page) <= viewport["width"]
    page.screenshot(path=f"/tmp/rulesite_calc_{viewport['width']}.png", full_page=True)
    context.close()


SLOW_XHR = """
(() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    setTimeout(() => send.apply(this, args), 250);
  };
})();
"""


def test_fast_clicks_on_a_slow_connection_add_every_tile_in_order(live, browser):
    """Each click's tile travels with its own request: clicks made while the
    earlier ones are still on their way (requests held back 250 ms here, as
    on a slow phone connection) are queued, and each adds the tile that was
    clicked — not whichever tile was clicked last by the time it is sent."""
    page = browser.new_page(viewport=DESKTOP)
    page.add_init_script(SLOW_XHR)
    page.goto(f"{live.url}/calculator/?ruleset=mcr")
    palette = page.locator('[data-testid="calc-palette"]')
    clicked = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p"]
    for tile in clicked:
        palette.locator(f'[data-tile="{tile}"]').click()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=calc-hand] .rt-run [data-tile]')"
        ".length == 11 && !document.querySelector('.htmx-request')",
        timeout=30_000,
    )
    notation = page.locator('[data-testid="calc-notation"]')
    assert notation.input_value() == "123456789m12p"
    page.close()


def test_melds_and_the_claimed_tile_by_clicking(live, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/calculator/?ruleset=mcr")
    palette = page.locator('[data-testid="calc-palette"]')
    page.locator('label.seg-item:has(input[value="chi"])').click()
    page.wait_for_timeout(300)
    palette.locator('[data-tile="1s"]').click()
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-notation]').value == '[123s]'"
    )
    page.locator('[data-meld="chi"] button[data-tile="2s"]').click()
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-notation]').value == \"[12'3s]\""
    )
    assert page.locator('[data-meld="chi"] .is-claimed[data-tile="2s"]').count() == 1
    page.close()


def test_typing_the_notation_and_the_errors(live, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/calculator/")
    notation = page.locator('[data-testid="calc-notation"]')
    page.select_option('[data-testid="calc-ruleset"]', "mcr")
    page.wait_for_function("location.search.includes('ruleset=mcr')")
    notation = page.locator('[data-testid="calc-notation"]')
    notation.fill("[123s][777z]1199m9m")
    error = page.locator('[data-testid="calc-error"]')
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-error]').dataset.code"
        " == 'wrong_count'"
    )
    assert "张数" in error.inner_text()
    notation.fill("[123s][777z]111999m5z5z")
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-error]').dataset.code == ''"
        " && document.querySelector('[data-testid=calc-waits]') == null"
        " && document.querySelector('[data-testid=calc-total]').textContent.trim()"
        " != ''"
    )
    total = int(_total(page))
    assert total >= 8
    assert page.locator("[data-fan]").count() >= 1
    notation.fill("11111m")
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-error]').dataset.code"
        " == 'too_many_copies'"
    )
    assert _total(page) == ""
    page.close()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("name", rulesets.NAMES)
def test_every_fan_row_of_every_rules_page_has_its_example(live, browser, name, lang):
    rs = rulesets.get(name)
    context = browser.new_context(viewport=PHONE if lang == "en" else DESKTOP)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live.url}])
    page = context.new_page()
    page.goto(f"{live.url}/rules/{name}/")
    rows = page.locator("[data-fan]")
    assert rows.count() == len(rs.fans)
    ids = [rows.nth(i).get_attribute("data-fan") for i in range(rows.count())]
    assert ids == [f.id for f in rs.fans]
    empty = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-fan]'))
          .filter(r => r.querySelectorAll('[data-testid=fan-example] [data-tile]')
                        .length < 14)
          .map(r => r.dataset.fan)"""
    )
    assert empty == []
    broken = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-fan] img'))
          .filter(i => !i.complete || i.naturalWidth == 0).length"""
    )
    assert broken == 0
    assert _wide(page) <= (360 if lang == "en" else 1280)
    page.screenshot(path=f"/tmp/rulesite_rules_{name}_{lang}.png")
    context.close()


def test_a_fan_example_opens_in_the_calculator_with_the_same_total(live, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/rules/erren/SEAT_WIND/")
    row = page.locator('[data-fan="SEAT_WIND"]')
    meta = row.locator(".fan-example-meta").inner_text()
    row.locator('.fan-example a[href*="/calculator/"]').click()
    page.wait_for_url("**/calculator/**")
    assert "seat=3z" in page.url
    assert f"共 {_total(page)} 番" in meta
    assert page.locator('[data-fan="SEAT_WIND"]').count() == 1
    page.close()


@pytest.mark.parametrize("name", ["liangren", "erren64"])
def test_a_scored_hand_fits_a_phone_in_english(live, browser, name):
    """Tester fault: the coins-per-room table of a scored hand made the
    calculator 407 px wide on a 360 px phone in English (long room names,
    headers and figures that did not wrap)."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    page = context.new_page()
    page.goto(f"{live.url}/calculator/?ruleset={name}&hand=1112345678999m5m")
    assert page.locator('[data-testid="calc-total"]').count() == 1
    table = page.locator(".calc-stakes table")
    assert table.count() == 1
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    assert _wide(page) <= 360
    context.close()


def test_the_chinese_name_beside_an_english_title_stays_whole(live, browser):
    """Tester fault: /rules/youxi/ in English on a phone broke the Chinese
    name after its first character ("优" / "嘻网二人麻将")."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    page = context.new_page()
    page.goto(f"{live.url}/rules/youxi/")
    small = page.locator("h1 .other-name")
    assert small.inner_text() == "优嘻网二人麻将"
    assert small.evaluate("e => e.getClientRects().length") == 1
    assert small.evaluate("e => e.getBoundingClientRect().height < 30")
    assert _wide(page) <= 360
    context.close()


STILL_FIRST_COLUMN = """
(scroller) => {
  // scroll the table to its right end, then: is every row's first cell
  // still inside the scroller's box, and the topmost element at its centre?
  scroller.scrollLeft = scroller.scrollWidth;
  const out = [];
  for (const row of scroller.querySelectorAll('tr')) {
    const cell = row.cells[0];
    // the row in the middle of the scroller (the fans table also scrolls
    // down inside it) and of the window; vertically only: scrollLeft stays
    const b = scroller.getBoundingClientRect();
    scroller.scrollTop += cell.getBoundingClientRect().top - (b.top + b.height / 2);
    window.scrollBy(0, cell.getBoundingClientRect().top - innerHeight / 2);
    const box = scroller.getBoundingClientRect();
    const r = cell.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    out.push({
      text: cell.textContent.trim().slice(0, 20),
      inside: r.left >= box.left - 1 && r.left < box.right,
      onTop: !!hit && cell.contains(hit),
    });
  }
  return {scrolled: scroller.scrollLeft, rows: out, y: scrollY};
}
"""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_compare_tables_keep_their_first_column_on_a_phone(live, browser, lang):
    """Fresh tester: on a 390 px phone /rules/compare/'s second table
    (特殊玩法与结算) scrolled sideways and its row names went off screen.
    Each table that scrolls keeps its first column (sticky) in view, above
    the cells that pass under it; the page itself stays 390 px wide."""
    phone = {"width": 390, "height": 844}
    context = browser.new_context(viewport=phone)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live.url}])
    page = context.new_page()
    page.goto(f"{live.url}/rules/compare/")
    assert _wide(page) <= 390
    scrollers = page.locator(".table-scroll")
    assert scrollers.count() == 3
    scrolled = 0
    for i in range(scrollers.count()):
        scroller = scrollers.nth(i)
        scroller.scroll_into_view_if_needed()
        found = scroller.evaluate(STILL_FIRST_COLUMN)
        if i == 1:  # the tester's table does scroll at this width
            assert found["scrolled"] > 0
        if found["scrolled"] > 0:
            scrolled += 1
            bad = [r for r in found["rows"] if not (r["inside"] and r["onTop"])]
            assert not bad, (i, bad[:3])
        if i == 1:
            scroller.screenshot(path=f"/tmp/compare_systems_{lang}_390.png")
    assert scrolled >= 1
    context.close()


@pytest.mark.parametrize("delay", [0, 40], ids=["burst", "typed"])
def test_typing_right_after_a_rule_set_change_is_kept_and_scored(live, browser, delay):
    """Fresh tester: a rule-set change swaps the whole form (the situation
    options, the palette and the answer depend on it) ~300 ms later, and what
    was typed into the notation field meanwhile was lost.  Now the field keeps
    it (and the focus and the caret), and the hand scored is the typed one,
    under the new rule set.  Requests are held back 250 ms, as on a phone."""
    hand = "1112345678999m5m"
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/calculator/?ruleset=erren&hand={hand}")
    want = _total(page)
    assert want.isdigit()
    page.add_init_script(SLOW_XHR)
    page.goto(f"{live.url}/calculator/?ruleset=mcr")
    page.select_option('[data-testid="calc-ruleset"]', "erren")
    notation = page.locator('[data-testid="calc-notation"]')
    notation.focus()
    page.keyboard.type(hand, delay=delay)
    page.wait_for_function(
        "document.querySelector('[data-testid=calculator]').dataset.ruleset"
        " == 'erren' && !document.querySelector('.htmx-request')"
        " && location.search.includes('hand=')",
        timeout=30_000,
    )
    page.wait_for_timeout(600)  # a late answer would land here
    page.wait_for_function("!document.querySelector('.htmx-request')")
    assert notation.input_value() == hand
    assert page.evaluate("document.activeElement.id") == "calc-notation"
    assert _total(page) == want
    assert f"hand={hand}" in page.url and "ruleset=erren" in page.url
    # typing goes on where the caret was
    page.keyboard.press("Backspace")
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-notation]').value"
        " == '1112345678999m5'"
    )
    page.close()


# the paste lands between the swap of the new form and htmx's settle (20 ms
# later, when htmx starts listening to the new field): one input event, no more
PASTE_IN_THE_SETTLE_WINDOW = """
document.addEventListener("htmx:afterSwap", (e) => {
  if (e.target.id !== "calc" || window.__pasted) return;
  window.__pasted = true;
  setTimeout(() => {
    const input = document.getElementById("calc-notation");
    input.focus();
    input.value = "11m";
    const paste = { bubbles: true, inputType: "insertFromPaste", data: "11m" };
    input.dispatchEvent(new InputEvent("input", paste));
  }, 0);
});
"""


def test_a_hand_pasted_right_after_a_rule_set_change_is_scored(live, browser):
    """Fresh tester (2 runs of ~8, in English): liangren → erren in the rule-set
    menu and at once paste ``11m``: the field showed ``11m`` but the URL and the
    answer stayed the old hand's (Total fan 94). A paste is one input event, and
    one that lands after the new form is swapped in but before htmx settles it
    (and starts listening to it) was sent nowhere. Requests held back 250 ms;
    the paste is made in that window, then 9 times at 0–400 ms after the change."""
    hand = "1112345678999m5m"
    page, context, _ = _page(browser, DESKTOP)
    _set_language(page, live, "en")
    page.goto(f"{live.url}/calculator/?ruleset=erren&hand=11m")
    error = page.get_attribute('[data-testid="calc-error"]', "data-code")
    assert error  # the wrong number of tiles
    page.add_init_script(SLOW_XHR)
    start = f"{live.url}/calculator/?ruleset=liangren&hand={hand}"
    settled = (
        "document.querySelector('[data-testid=calculator]').dataset.ruleset"
        " == 'erren' && !document.querySelector('.htmx-request')"
    )
    runs = [None, *range(0, 401, 50)]  # None: in the settle window
    for wait in runs:
        page.evaluate("window.__pasted = false")
        if wait is None:
            page.add_init_script(PASTE_IN_THE_SETTLE_WINDOW)
        page.goto(start)
        assert page.locator('[data-testid="calc-total"]').inner_text().strip()
        page.select_option('[data-testid="calc-ruleset"]', "erren")
        if wait is not None:
            page.wait_for_timeout(wait)
            notation = page.locator('[data-testid="calc-notation"]')
            notation.focus()
            page.keyboard.press("Control+a")
            page.keyboard.insert_text("11m")
        page.wait_for_function(settled, timeout=30_000)
        page.wait_for_timeout(700)  # a resend or a late answer would land here
        page.wait_for_function(settled, timeout=30_000)
        got = page.get_attribute('[data-testid="calc-error"]', "data-code")
        assert page.input_value('[data-testid="calc-notation"]') == "11m", wait
        assert (got, "hand=11m" in page.url) == (error, True), (wait, page.url)
        if wait is None:
            context.close()
            page, context, _ = _page(browser, DESKTOP)
            _set_language(page, live, "en")
            page.add_init_script(SLOW_XHR)
    context.close()


def test_a_tile_with_all_four_copies_in_the_hand_cannot_be_clicked(live, browser):
    """Fresh tester: five clicks on 2p gave 1122222p and then an error.  Once
    the hand holds 4 copies the palette tile is greyed out (aria-disabled) and
    a click on it adds nothing; it comes back when a copy goes."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/calculator/?ruleset=mcr&hand=11p")
    two = page.locator('[data-testid="calc-palette"] [data-tile="2p"]')
    notation = page.locator('[data-testid="calc-notation"]')
    for n in range(1, 5):
        assert two.get_attribute("aria-disabled") is None
        two.click()
        page.wait_for_function(
            "document.querySelector('[data-testid=calc-notation]').value"
            f" == '11{'2' * n}p' && !document.querySelector('.htmx-request')"
        )
    assert two.get_attribute("aria-disabled") == "true"
    assert two.evaluate("b => getComputedStyle(b).opacity") == "0.35"
    before = page.get_attribute('[data-testid="calc-error"]', "data-code")
    assert before == "wrong_count"  # 6 tiles; a fifth 2p said too_many_copies
    two.click(force=True)
    page.wait_for_timeout(600)  # an answer would land here
    assert notation.input_value() == "112222p"
    assert page.get_attribute('[data-testid="calc-error"]', "data-code") == before
    notation.fill("11222p")
    page.wait_for_function(
        "!document.querySelector('[data-tile=\"2p\"][aria-disabled]')",
        timeout=10_000,
    )
    two.click()
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-notation]').value == '112222p'"
    )
    page.close()


def test_a_meld_click_that_would_make_a_fifth_copy_is_greyed_out(live, browser):
    """Polish (item 1): with 22p in the hand, 碰 on 2p made [222p]22p, five
    2p, and an error in place of the answer.  In 碰 mode 2p is greyed out (2 +
    3 > 4) and a click adds nothing; in 手牌 mode it is back; 杠 greys a tile
    held once; 吃 from 1p greys when the hand has four 2p, and 吃 greys 8, 9 and
    the honours, where no chow starts (the server refused them after the click)."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live.url}/calculator/?ruleset=mcr&hand=22p5m2222s")
    palette = page.locator('[data-testid="calc-palette"]')
    notation = page.locator('[data-testid="calc-notation"]')

    def greyed(tile: str) -> bool:
        tile_button = palette.locator(f'[data-tile="{tile}"]')
        return tile_button.get_attribute("aria-disabled") == "true"

    assert not greyed("2p") and greyed("2s")
    page.locator('label.seg-item:has(input[value="pung"])').click()
    assert greyed("2p") and not greyed("3p") and greyed("2s")
    palette.locator('[data-tile="2p"]').click(force=True)
    page.wait_for_timeout(600)  # an answer would land here
    assert notation.input_value() == "22p5m2222s"
    page.locator('label.seg-item:has(input[value="kong"])').click()
    assert greyed("5m") and greyed("2p") and not greyed("6m")
    page.locator('label.seg-item:has(input[value="chi"])').click()
    assert greyed("1s") and greyed("2s") and not greyed("3s") and not greyed("1p")
    # no chow starts at an 8, a 9 or an honour (the server refuses: chi_range)
    assert greyed("8m") and greyed("9p") and greyed("1z") and greyed("7z")
    assert not greyed("7m") and not greyed("1f")  # a flower is a flower in any mode
    palette.locator('[data-tile="8m"]').click(force=True)
    page.wait_for_timeout(600)  # an answer would land here
    assert notation.input_value() == "22p5m2222s"
    page.locator('label.seg-item:has(input[value="hand"])').click()
    assert not greyed("2p") and greyed("2s")
    page.locator('label.seg-item:has(input[value="pung"])').click()
    palette.locator('[data-tile="3p"]').click()
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-notation]').value"
        " == '[333p]5m22p2222s' && !document.querySelector('.htmx-request')"
    )
    assert greyed("3p")  # 3 held, 3 more would make 6
    page.close()


MELD_BOXES = """() => {
  const box = (el) => el.getBoundingClientRect();
  const built = box(document.querySelector('.built'));
  const melds = [...document.querySelectorAll('.built > *')].map(box);
  const out = [];
  for (const meld of document.querySelectorAll('.built-meld')) {
    const m = box(meld), x = box(meld.querySelector('.built-del'));
    if (x.left < m.left || x.right > m.right || x.top < m.top || x.bottom > m.bottom)
      out.push(['x outside its group', meld.dataset.meld, x.left, x.right]);
  }
  melds.forEach((a, i) => {
    if (a.left < built.left - 0.5 || a.right > built.right + 0.5)
      out.push(['group outside the row', i, a.left, a.right, built.left, built.right]);
    melds.slice(i + 1).forEach((b, j) => {
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        out.push(['groups overlap', i, i + 1 + j]);
    });
  });
  return out;
}"""


@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
    ids=["phone-390", "desktop-1280"],
)
def test_built_pungs_and_kongs_stay_inside_their_row(live, browser, viewport):
    """Polish (item 1): each group's × stuck out of it (6 px right and up),
    over the next group and the row above.  Every × lies inside its group,
    no two groups overlap and none leaves the row, with four kongs (one
    claimed tile sideways) and the pair."""
    page = browser.new_page(viewport=viewport)
    hand = "[1'111m][2222p]*[333'3s][5555z]9m9m"
    page.goto(f"{live.url}/calculator/?ruleset=mcr&hand={quote(hand)}")
    assert page.locator(".built-meld").count() == 4
    assert _total(page) != ""
    assert page.evaluate(MELD_BOXES) == []
    assert _wide(page) <= viewport["width"]
    page.locator(".calc-hand").screenshot(
        path=f"/tmp/rulesite_built_{viewport['width']}.png"
    )
    page.close()
