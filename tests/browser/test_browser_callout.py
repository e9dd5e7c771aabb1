"""Call-outs and their sounds in a real browser (issue 11 §4).

A call (吃 碰 杠 和 自摸) flashes over the caller's side and plays its sound;
nothing plays before the player has touched the page; the mute toggle is
remembered across page loads (localStorage).  Audio is observed through a
stub of ``HTMLMediaElement.play`` (headless Chromium has no speakers); the
call frames are the page's own ``#mj-status`` attributes, set as a frame from
the server would set them, then announced with htmx's ws event.
"""

from __future__ import annotations

import re

import pytest

from .conftest import login
from .play import play_to_end
from .test_browser_table import DESKTOP, PHONE, new_page

pytestmark = pytest.mark.browser

COUNT_PLAYS = """
  window.__plays = [];
  HTMLMediaElement.prototype.play = function () {
    window.__plays.push(this.src.split('/').pop());
    return Promise.resolve();
  };
"""


def fake_call(page, call_id: str, kind: str, who: str = "opponent") -> None:
    """Mark the current frame as carrying call ``call_id`` and announce it."""
    page.evaluate(
        """([id, kind, who]) => {
          const s = document.getElementById('mj-status');
          s.setAttribute('data-callout-id', id);
          s.setAttribute('data-callout', kind);
          s.setAttribute('data-callout-who', who);
          s.setAttribute('data-callout-text', kind);
          document.getElementById('mj-root').dispatchEvent(
            new CustomEvent('htmx:wsAfterMessage', {bubbles: true}));
        }""",
        [call_id, kind, who],
    )


def plays(page) -> list[str]:
    return page.evaluate("window.__plays")


def test_sound_waits_for_a_gesture_and_mute_is_remembered(live, browser):
    live.create_players("listener")
    ctx, page, errors = new_page(browser, DESKTOP)
    ctx.add_init_script(COUNT_PLAYS)
    login(page, live, "listener")
    page.goto(f"{live.url}/lobby/")
    page.locator(
        "[data-testid=room][data-ruleset=erren] [data-testid=play-bot]"
    ).first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.goto(page.url)  # a fresh load: no gesture on this page yet
    page.wait_for_selector("#mj-conn.is-open")
    toggle = page.locator("[data-testid=sound-toggle]")
    assert toggle.get_attribute("aria-pressed") == "true"
    # a call before any gesture: it shows, but no sound plays
    fake_call(page, "x:1", "pung")
    box = page.locator("[data-testid=callout]")
    assert box.get_attribute("data-shown") == "x:1"
    assert box.get_attribute("data-kind") == "pung"
    assert "is-shown" in (box.get_attribute("class") or "")
    assert plays(page) == []
    # the same call again (a reconnect's frame): nothing new
    page.mouse.click(5, 400)  # a gesture on the page
    fake_call(page, "x:1", "pung")
    assert plays(page) == []
    # a new call after the gesture: its own sound
    fake_call(page, "x:2", "kong", "me")
    assert plays(page) == ["kong.wav"]
    assert box.get_attribute("data-who") == "me"
    # muted: calls still show, no sound; remembered after a reload
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    fake_call(page, "x:3", "hu")
    assert plays(page) == ["kong.wav"]
    assert box.get_attribute("data-shown") == "x:3"
    page.reload()
    page.wait_for_selector("#mj-conn.is-open")
    assert page.locator("[data-testid=sound-toggle]").get_attribute("aria-pressed") == (
        "false"
    )
    page.mouse.click(5, 400)
    fake_call(page, "x:4", "chi")
    assert plays(page) == []
    page.locator("[data-testid=sound-toggle]").click()  # on again
    fake_call(page, "x:5", "zimo")
    assert plays(page) == ["zimo.wav"]
    # the files are served
    for name in ("chi", "pung", "kong", "hu", "zimo"):
        r = page.request.get(f"{live.url}/static/sounds/{name}.wav")
        assert r.status == 200 and r.body()[:4] == b"RIFF"
    assert errors == []
    ctx.close()


def test_a_real_win_is_called_out_once(live, browser):
    live.create_players("caller")
    ctx, page, errors = new_page(browser, DESKTOP)
    ctx.add_init_script(COUNT_PLAYS)
    login(page, live, "caller")
    page.goto(f"{live.url}/lobby/")
    page.locator(
        "[data-testid=room][data-ruleset=mcr] [data-testid=play-bot]"
    ).first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")
    for _hand in range(4):
        play_to_end(page, keyboard=False, claim=True)
        if (
            page.locator("[data-testid=settlement]").get_attribute("data-result")
            == "win"
        ):
            break
        page.locator("[data-testid=continue]").click()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=settlement]')"
        )
    else:
        pytest.fail("four draws in a row")
    status_id = page.locator("#mj-status").get_attribute("data-callout-id")
    kind = page.locator("#mj-status").get_attribute("data-callout")
    assert kind in ("hu", "zimo") and status_id
    box = page.locator("[data-testid=callout]")
    assert box.get_attribute("data-shown") == status_id
    assert box.get_attribute("data-kind") == kind
    # the player clicked during the hand: the win's sound played once
    assert plays(page).count(f"{kind}.wav") == 1
    assert errors == []
    ctx.close()


DEAL = """
from accounts.models import User
from games.models import Room
from games.services.tables import table_play_bot

u = User.objects.get(username="backagain")
room = Room.objects.filter(ruleset="erren").order_by("order", "id").first()
print(table_play_bot(user=u, room=room, level="easy").pk)
"""

WIN_AND_LEAVE = """
import sys
sys.path.insert(0, "tests/games")
from driver import play_out
from accounts.models import User
from games.models import HandRecord, Table
from games.services.tables import table_leave

u = User.objects.get(username="backagain")
table = Table.objects.get(pk=%d)
play_out(table, {0: u}, seed=%d)
table.refresh_from_db()
table_leave(user=u, table_id=table.pk)
print(HandRecord.objects.get(pk=table.hand_id).result.get("winner"))
"""

WATCH_CALLOUTS = """
  window.__callouts = [];
  new MutationObserver(function () {
    var box = document.getElementById('mj-callout');
    if (box && box.classList.contains('is-shown'))
      window.__callouts.push(box.getAttribute('data-shown'));
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
"""


def test_back_to_a_won_hand_shows_it_quietly(live, browser):
    """Fresh tester: after a won hand, leaving the table and pressing Back
    flashed 和！ (and its sound) again, as if the win had just happened. Back
    shows the table page as the browser first loaded it (at the deal, no call)
    and the socket's first frame then carried the win's call as news; that
    frame is the state at opening, history as the first paint is."""
    live.create_players("backagain")
    ctx, page, errors = new_page(browser, DESKTOP)
    ctx.add_init_script(COUNT_PLAYS)
    ctx.add_init_script(WATCH_CALLOUTS)
    login(page, live, "backagain")
    for seed in range(1, 8):
        table_id = int(live.play_script(DEAL, walls=f"back-{seed}").split()[-1])
        page.goto(f"{live.url}/table/{table_id}/")
        page.wait_for_selector("#mj-conn.is-open")
        page.mouse.click(5, 400)  # a gesture: sound would be allowed
        page.goto(f"{live.url}/lobby/")
        script = WIN_AND_LEAVE % (table_id, seed)
        winner = live.play_script(script, walls=f"back-{seed}").split()[-1]
        if winner != "None":
            break
    else:
        pytest.fail("no won hand in 7 seeds")
    page.go_back()
    page.wait_for_selector("[data-testid=settlement][data-result=win]")
    page.wait_for_selector("#mj-status[data-callout-id]", state="attached")
    page.wait_for_timeout(1500)
    assert page.evaluate("window.__callouts") == []
    assert plays(page) == []
    assert page.locator("#mj-root").get_attribute("data-quiet-settlement") == ""
    ctx.close()


ON_TOP = """() => {
  // the flash lets clicks through (pointer-events: none), which hit-testing
  // skips: let it be hit while asking what is drawn on top at its centre
  const el = document.getElementById('mj-callout');
  el.style.pointerEvents = 'auto';
  const box = el.getBoundingClientRect();
  const top = document.elementFromPoint(
    box.left + box.width / 2, box.top + box.height / 2);
  el.style.pointerEvents = '';
  if (!top) return {shown: box.width > 0, top: null};
  const name = top.closest('#mj-settlement') ? 'settlement' : top.id || top.className;
  return {shown: box.width > 0, top: name};
}"""


def test_a_win_flash_stays_under_the_settlement_on_a_phone(live, browser):
    """Fresh tester: at 390×844 the 自摸！/和！ flash drew over the settlement
    panel and covered its fan rows while it played.  With the panel up, the
    flash sits under it (and its backdrop)."""
    live.create_players("flashunder")
    ctx, page, errors = new_page(browser, PHONE)
    login(page, live, "flashunder")
    page.goto(f"{live.url}/lobby/")
    page.locator(
        "[data-testid=room][data-ruleset=erren] [data-testid=play-bot]"
    ).first.click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_selector("#mj-conn.is-open")
    play_to_end(page, keyboard=False)
    # a flash while the settlement shows, as the win's own frame brings it
    for kind in ("zimo", "hu"):
        fake_call(page, f"under:{kind}", kind, "me")
        page.wait_for_timeout(250)  # mid-animation: fully opaque
        got = page.evaluate(ON_TOP)
        assert got == {"shown": True, "top": "settlement"}, (kind, got)
    assert errors == []
    ctx.close()
