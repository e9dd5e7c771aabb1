"""Drive a table page like a person: read the frame, click what a player would.

Used by the browser tests and the screenshot script.  A step looks at the
current frame (``#mj-status`` carries seq/phase/whose move) and does at most
one thing: win when offered, otherwise pass claims and pre-deal choices, and
discard when it must (by clicking a tile or, every other time, with the
keyboard: ← / → then Enter).
"""

from __future__ import annotations

import time
from typing import Any


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


def visible(page: Any, selector: str) -> Any:
    loc = page.locator(selector)
    for i in range(loc.count()):
        el = loc.nth(i)
        if el.is_visible() and el.is_enabled():
            return el
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
        hu.click()
        return "hu"
    if claim:
        for name in ("pung", "chi"):
            btn = visible(page, f"#mj-actions [data-action={name}]")
            if btn is not None:
                btn.click()
                choice = visible(page, f"#mj-actions [data-action={name}][data-option]")
                if choice is not None:
                    choice.click()
                return name
    pas = visible(page, "#mj-actions [data-action=pass]")
    if pas is not None:
        if keyboard and n % 2 == 0:
            page.keyboard.press("Escape")
            return "pass-key"
        pas.click()
        return "pass"
    can = page.locator("[data-testid=my-hand][data-can-discard='1']")
    if can.count():
        if keyboard and n % 2 == 1:
            # the rightmost tile has the roving focus after a frame: ← then →
            page.locator("[data-testid=my-hand] button[data-tile]").last.focus()
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            return "discard-key"
        tiles = page.locator("[data-testid=my-hand] form button[data-tile]")
        if tiles.count():
            tiles.last.click()
            return "discard"
    return ""


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
