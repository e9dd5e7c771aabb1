"""A rule set's name on a phone's player page wraps between words (fresh tester).

At 390 px in English the player page's "By rule set" table broke the name
as "Two-Player Mahjon|g": its cell let a line break anywhere, so the table
squeezed the column below its longest word.  A name now breaks only at its
spaces and hyphens, and the table still fits the phone's card.
"""

from __future__ import annotations

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

HANDS = """
from django.utils import timezone
from accounts.models import User
from tests.leaderboard.factory import hand
a, b = (User.objects.get(username=n) for n in ("wordywest", "wordyeast"))
hand(a, b, ended=timezone.now(), winner=0, fan=76, ruleset="erren")
hand(a, b, ended=timezone.now(), winner=1, fan=8, ruleset="mcr")
"""

# Each word of the rule-set names (split at spaces and after hyphens) and
# the lines its glyphs sit on: one line per word when no word is broken.
WORDS = """() => [...document.querySelectorAll('tr[data-ruleset] td:first-child a')]
  .flatMap(a => {
    const text = a.firstChild, out = [];
    const re = /[^\\s-]+-?/g;
    let m;
    while ((m = re.exec(text.data))) {
      const tops = new Set();
      for (let i = m.index; i < m.index + m[0].length; i++) {
        const r = document.createRange();
        r.setStart(text, i); r.setEnd(text, i + 1);
        tops.add(Math.round(r.getBoundingClientRect().top));
      }
      out.push([m[0], tops.size]);
    }
    return out;
  })"""


def test_rule_set_names_wrap_between_words_on_a_phone(live, browser):
    live.create_players("wordywest", "wordyeast")
    live.manage("shell", "-c", HANDS)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    login(page, live, "wordywest")
    page.click("form.lang-switch button[value=en]")
    page.wait_for_load_state()
    page.goto(f"{live.url}/players/Wordywest/")
    words = page.evaluate(WORDS)
    assert words, "no rule set listed"
    assert [w for w, _ in words] == [
        "Two-",
        "Player",
        "Mahjong",
        "Mahjong",
        "Competition",
        "Rules",
    ]
    assert [w for w, lines in words if lines != 1] == []
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth"
        " - document.documentElement.clientWidth"
    )
    assert wide <= 0
    # and the table fits its card: no column pushed out of sight
    spill = page.eval_on_selector(
        "tr[data-ruleset]",
        "tr => { const s = tr.closest('.table-scroll');"
        " return s.scrollWidth - s.clientWidth; }",
    )
    assert spill <= 0
    ctx.close()
