"""Drive a table page like a person: read the frame, click what a player would.

Used by the browser tests and the screenshot script.  A step looks at the
current frame (``#mj-status`` carries seq/phase/whose move) and does at most
one thing: win when offered, otherwise pass claims and pre-deal choices, and
discard when it must (by clicking a tile or, every other time, with the
keyboard: ← / → then Enter).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def status(page: Any) -> dict[str, str]:
    """The frame's status attributes (seq, phase, turn, my-turn)."""
    return page.evaluate(
        """() => {
          const s = document.getElementById('mj-status');
          if (!s) return {};
          return {seq: s.dataset.seq, phase: s.dataset.phase, turn: s.dataset.turn,
                  myTurn: s.dataset.myTurn};
        }"""
    )


def settled(page: Any) -> bool:
    return page.locator("[data-testid=settlement]").count() > 0


def hand_tiles(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "[data-testid=my-hand] [data-tile]", "els => els.map(e => e.dataset.tile)"
    )


_PICK = """([selector, token, last]) => {
  const els = Array.from(document.querySelectorAll(selector));
  if (last) els.reverse();
  for (const el of els) {
    const box = el.getBoundingClientRect();
    const shown = box.width > 0 && box.height > 0
      && getComputedStyle(el).visibility !== 'hidden';
    const off = el.disabled || el.closest('fieldset[disabled]')
      || el.getAttribute('aria-disabled') === 'true';
    if (shown && !off) {
      el.setAttribute('data-pw-pick', token);
      return true;
    }
  }
  return false;
}"""
_picks = itertools.count(1)


class Picked:
    """One element chosen by :func:`visible`, bound to that very element.

    A frame (an htmx out-of-band swap) can replace it at any moment; the
    old ``visible`` looked the element up again for each question
    (``count``, ``is_visible``, ``is_enabled``, ``click``), so a swap in
    between made Playwright wait 30 s for an element that no longer existed,
    or act on another one.  Here the choice is made in one script run in the
    page and marked on the element; :meth:`click` then either clicks it or
    finds it gone with its frame, and says so.
    """

    def __init__(self, page: Any, token: str) -> None:
        self.page = page
        self.locator = page.locator(f'[data-pw-pick="{token}"]')

    def click(self, **kwargs: Any) -> bool:
        """Click the element; False when a new frame replaced it first."""
        try:
            self.locator.click(timeout=CLICK_TIMEOUT_MS, **kwargs)
        except PlaywrightTimeoutError:
            if self.locator.count() == 0:
                return False  # swapped out: the caller reads the new frame
            raise
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.locator, name)


CLICK_TIMEOUT_MS = 5000
"""How long a click waits for its (still present) element to take events."""


def visible(page: Any, selector: str, *, last: bool = False) -> Picked | None:
    """The first (``last``: the last) shown, enabled element of ``selector``,
    chosen atomically in the page, or None."""
    token = str(next(_picks))
    if page.evaluate(_PICK, [selector, token, last]):
        return Picked(page, token)
    return None


def step(page: Any, n: int, *, keyboard: bool = True, claim: bool = False) -> str:
    """Do one thing on ``page``; return what was done ('' when nothing to do).

    ``claim``: accept 碰/吃 when offered (else pass them).
    """
    if settled(page):
        return "settled"
    st = status(page)
    if st.get("myTurn") != "1":
        return ""
    hu = visible(page, "#mj-actions [data-action=hu]")
    if hu is not None:
        return "hu" if hu.click() else ""
    if claim:
        for name in ("pung", "chi"):
            btn = visible(page, f"#mj-actions [data-action={name}]")
            if btn is not None:
                if not btn.click():
                    return ""
                choice = visible(page, f"#mj-actions [data-action={name}][data-option]")
                if choice is not None and not choice.click():
                    return ""
                return name
    pas = visible(page, "#mj-actions [data-action=pass]")
    if pas is not None:
        if keyboard and n % 2 == 0:
            page.keyboard.press("Escape")
            return "pass-key"
        return "pass" if pas.click() else ""
    can = page.locator("[data-testid=my-hand][data-can-discard='1']")
    if can.count():
        if keyboard and n % 2 == 1:
            # the rightmost tile has the roving focus after a frame: ← then →
            page.locator("[data-testid=my-hand] button[data-tile]").last.focus()
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            return "discard-key"
        tile = visible(page, "[data-testid=my-hand] form button[data-tile]", last=True)
        if tile is not None:
            return "discard" if tile.click() else ""
    return ""


def decline_pre_deal(page: Any, timeout: float = 30.0) -> None:
    """Answer 不选 to the question before the deal (开始加倍, 明牌) as soon as
    it is asked, as a person in a hurry would, and return once ``page``'s
    hand is dealt (its tiles are shown).

    Without an answer the hand is dealt only when the rule set's pre-deal
    timer (10 s) runs out, which a test waiting for the tiles waited out.
    Declining leaves the same hand as that timeout: no 明牌, no 加倍.

    Raises:
        AssertionError: no tiles within ``timeout`` seconds.
    """
    end = time.time() + timeout
    while time.time() < end:
        if page.locator("#mj-hand .mj-htile").count():
            return
        st = status(page)
        if st.get("phase") == "pre_deal" and st.get("myTurn") == "1":
            btn = visible(page, "#mj-actions [data-action=pass]")
            if btn is not None:
                btn.click()
        page.wait_for_timeout(60)
    raise AssertionError(f"no deal within {timeout}s: {status(page)}")


def wait_change(page: Any, seq: str | None, timeout: float = 20.0) -> None:
    """Wait until the frame's seq differs from ``seq`` or a panel shows."""
    end = time.time() + timeout
    while time.time() < end:
        if settled(page):
            return
        st = status(page)
        if st.get("seq") != seq:
            return
        page.wait_for_timeout(60)


def play_to_end(
    page: Any, *, timeout: float = 240.0, keyboard: bool = True, claim: bool = False
) -> list[str]:
    """Play ``page``'s seat until the settlement panel shows; return the moves."""
    done: list[str] = []
    end = time.time() + timeout
    n = 0
    while time.time() < end:
        if settled(page):
            return done
        seq = status(page).get("seq")
        what = step(page, n, keyboard=keyboard, claim=claim)
        if what:
            done.append(what)
            n += 1
            wait_change(page, seq, timeout=10)
        else:
            page.wait_for_timeout(80)
    raise AssertionError(f"no settlement within {timeout}s; moves: {done[-20:]}")
