"""static/js/table.js in Chromium without a server: choices, keys, focus, clocks.

The frame is rendered from a context (as in test_frame_templates) into a blank
page with table.js; form submissions are intercepted, so nothing is sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from .test_frame_templates import NO_ACTIONS, context

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


def load(browser, ctx) -> object:
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", ctx)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(
        '<html><body><div id="mj-root" data-tiles="/static/tiles/">'
        + frame
        + '</div><div id="mj-live" aria-live="polite"></div></body></html>'
    )
    page.evaluate(
        """() => {
          window.__submitted = [];
          document.addEventListener('submit', e => {
            e.preventDefault();
            window.__submitted.push(e.target.getAttribute('hx-vals'));
          }, true);
        }"""
    )
    page.add_script_tag(path=str(ROOT / "static/js/table.js"))
    return page


def claim_context():
    base = context()
    return context(
        phase="claim",
        me=dict(base["me"], drawn=None, count=13),
        actions=dict(
            NO_ACTIONS,
            chi=[
                {"tiles": "123m", "list": ["1m", "2m", "3m"]},
                {"tiles": "234m", "list": ["2m", "3m", "4m"]},
            ],
            pung=True,
            **{"pass": True},
        ),
        last_discard={"seat": "opponent", "tile": "2m", "index": 2},
    )


def test_chi_key_opens_the_choice_and_escape_closes_it(browser):
    page = load(browser, claim_context())
    group = page.locator("#mj-chi-choice")
    assert group.is_hidden()
    page.keyboard.press("c")
    assert group.is_visible()
    assert (
        page.locator("[data-choice][data-action=chi]").get_attribute("aria-expanded")
        == "true"
    )
    page.keyboard.press("Escape")
    assert group.is_hidden()
    # a second Escape is 过 (pass): its form is submitted
    page.keyboard.press("Escape")
    sent = page.evaluate("window.__submitted")
    assert sent and '"pass"' in sent[-1]
    page.close()


def test_shortcut_p_pungs_and_space_passes(browser):
    page = load(browser, claim_context())
    page.keyboard.press("p")
    page.keyboard.press(" ")
    sent = page.evaluate("window.__submitted")
    assert '"pung"' in sent[0] and '"pass"' in sent[1]
    page.close()


def test_arrows_move_a_roving_focus_and_enter_discards(browser):
    page = load(browser, context())
    tiles = page.locator("[data-testid=my-hand] button[data-tile]")
    assert tiles.last.get_attribute("tabindex") == "0"  # the drawn tile
    page.keyboard.press("ArrowLeft")  # from the body: focus lands on the hand
    assert page.evaluate("document.activeElement.dataset.tile") == "5z"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.tile") == "6z"
    page.keyboard.press("ArrowRight")  # wraps to the first tile
    assert page.evaluate("document.activeElement.dataset.tile") == "1m"
    tiles.first.focus()
    page.keyboard.press("ArrowLeft")  # wraps to the drawn tile
    assert page.evaluate("document.activeElement.dataset.drawn") == "1"
    # waits popover for a tile that leaves a ready hand
    assert page.locator("#mj-waits").is_visible()
    page.keyboard.press("Enter")
    sent = page.evaluate("window.__submitted")
    assert sent and '"tile": "6z"' in sent[-1] and '"discard"' in sent[-1]
    page.close()


def test_countdown_bar_follows_the_deadline(browser):
    ctx = context()
    page = load(browser, ctx)
    page.wait_for_timeout(300)
    # the frame's deadline is 15 s after its "now": the bar starts near full
    p = float(
        page.locator("#mj-center .mj-timer").evaluate(
            "t => getComputedStyle(t).getPropertyValue('--p')"
        )
    )
    assert 0.9 < p <= 1.0
    num = page.locator("#mj-center .mj-timer-num").inner_text()
    assert num in ("15秒", "14秒")
    page.close()


HTMX = Path(__import__("django_htmx").__file__).parent / "static" / "django_htmx"

FAKE_SOCKET = """() => {
  window.__sent = [];
  class FakeSocket {
    constructor(url) {
      this.url = url; this.readyState = 0; this.OPEN = 1;
      window.__socket = this;
      setTimeout(() => { this.readyState = 1; this.onopen && this.onopen({}); }, 10);
    }
    send(data) { window.__sent.push(JSON.parse(data)); }
    close() { this.readyState = 3; }
    addEventListener(kind, fn) {
      this.l = this.l || {};
      this.l[kind] = (this.l[kind] || []).concat([fn]);
    }
  }
  window.__deliver = html =>
    (window.__socket.l.message || []).forEach(fn => fn({data: html}));
  htmx.createWebSocket = url => new FakeSocket(url);
}"""


def load_live(browser, ctx) -> object:
    """The frame inside a ws-connect root, htmx + ws extension + a fake socket."""
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", ctx)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(
        '<html><body><div id="mj-live" aria-live="polite"></div></body></html>'
    )
    page.add_script_tag(path=str(HTMX / "htmx-2.min.js"))
    page.add_script_tag(path=str(HTMX / "ext" / "hx-ws-2.js"))
    page.evaluate(FAKE_SOCKET)
    page.evaluate(
        """html => {
          const root = document.createElement('div');
          root.id = 'mj-root';
          root.setAttribute('hx-ext', 'ws');
          root.setAttribute('ws-connect', '/ws/table/7/');
          root.setAttribute('data-tiles', '/static/tiles/');
          root.innerHTML = html;
          document.body.prepend(root);
          htmx.process(root);
        }""",
        frame,
    )
    page.add_script_tag(path=str(ROOT / "static/js/table.js"))
    page.wait_for_function("window.__socket && window.__socket.readyState === 1")
    return page


def test_tile_click_sends_one_discard_and_swap_mode_sends_a_swap(browser):
    page = load_live(browser, context())
    tiles = page.locator("[data-testid=my-hand] button[data-tile]")
    tiles.nth(0).click()
    tiles.nth(1).click()  # a second click before the server answers is dropped
    sent = page.evaluate("window.__sent")
    assert len(sent) == 1
    assert sent[0]["action"] == "discard" and sent[0]["tile"] == "1m"
    assert sent[0]["seq"] == 41
    # the server answers with a frame: the guard lifts; 换牌 mode turns a click
    # on a tile into a swap of that tile
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", context(seq=42))
    page.evaluate("html => window.__deliver(html)", frame)
    assert page.locator("#mj-status").get_attribute("data-seq") == "42"
    page.keyboard.press("s")
    assert page.locator("[data-action=swap]").get_attribute("aria-pressed") == "true"
    page.locator("[data-testid=my-hand] button[data-tile='3m']").click()
    sent = page.evaluate("window.__sent")
    assert sent[-1]["action"] == "swap" and sent[-1]["tile"] == "3m"
    assert sent[-1]["seq"] == 42
    page.close()


def _hand_note(page) -> str:
    """The hint under the hand as a sighted player reads it (hidden text left out)."""
    return " ".join(page.locator("#mj-hand-area").inner_text().split())


def test_armed_swap_shows_its_hint_under_the_hand(browser):
    """Fresh tester: with 换牌 armed (gold button) the visible hint still said
    "点一张牌打出"; the swap text was only in the live region.  While armed the
    hint under the hand is the swap text; disarming (S again, Escape), the
    swap itself and a frame without 换牌 bring the frame's own hint back."""
    discard = "点一张牌打出"
    armed = "换牌：点一张手牌换掉它"
    page = load_live(browser, context())
    assert discard in _hand_note(page) and armed not in _hand_note(page)
    page.keyboard.press("s")
    assert page.locator("[data-action=swap]").get_attribute("aria-pressed") == "true"
    assert armed in _hand_note(page) and discard not in _hand_note(page)
    page.keyboard.press("s")
    assert discard in _hand_note(page) and armed not in _hand_note(page)
    page.keyboard.press("s")
    page.keyboard.press("Escape")
    assert discard in _hand_note(page) and armed not in _hand_note(page)
    # a frame while armed (the clock's, the opponent's flower): still armed
    page.keyboard.press("s")
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", context(seq=42))
    page.evaluate("html => window.__deliver(html)", frame)
    assert page.locator("#mj-status").get_attribute("data-seq") == "42"
    assert armed in _hand_note(page) and discard not in _hand_note(page)
    # the swap is sent: the hint is the discard one again
    page.locator("[data-testid=my-hand] button[data-tile='3m']").click()
    assert page.evaluate("window.__sent")[-1]["action"] == "swap"
    assert discard in _hand_note(page) and armed not in _hand_note(page)
    # armed, then a frame without 换牌 (its turn is over): disarmed, no swap text
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", context(seq=43))
    page.evaluate("html => window.__deliver(html)", frame)
    page.keyboard.press("s")
    assert armed in _hand_note(page)
    no_swap = context(seq=44, actions=dict(context()["actions"], swap=None))
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", no_swap)
    page.evaluate("html => window.__deliver(html)", frame)
    assert page.locator("#mj-status").get_attribute("data-seq") == "44"
    assert armed not in _hand_note(page) and discard in _hand_note(page)
    page.close()


def test_refusal_toast_is_announced_and_cleared(browser):
    page = load_live(browser, context())
    page.evaluate(
        """() => window.__deliver(
          '<div id="toast" hx-swap-oob="true" role="alert">操作已过期</div>')"""
    )
    assert page.locator("#toast").inner_text() == "操作已过期"
    page.wait_for_function(
        "() => document.getElementById('toast').textContent === ''", timeout=8000
    )
    page.close()


def test_a_frame_keeps_keyboard_focus_on_the_same_tile(browser):
    page = load_live(browser, context())
    page.locator("[data-testid=my-hand] button[data-tile='9m']").focus()
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", context(seq=42))
    page.evaluate("html => window.__deliver(html)", frame)
    assert page.evaluate("document.activeElement.dataset.tile") == "9m"
    # the live region says what the frame says
    assert page.locator("#mj-live").inner_text() == "摸到发，请出牌"
    page.close()
