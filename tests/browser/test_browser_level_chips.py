"""English level chips fit at 1280, 390 and 360 px (issue 11 §6).

The home page's level ladder lists every level of the active scheme (the
longest English names: "Sparrow Immortal", "Self-Draw King"), and the header's
player chip carries the player's level; neither may spill out of its box nor
widen the page.
"""

from __future__ import annotations

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

CHECK = """() => {
  const vw = document.documentElement.clientWidth;
  const bad = [];
  const inside = (el, box) => {
    const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    return r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
  };
  for (const li of document.querySelectorAll('.ladder li')) {
    for (const part of li.children) {
      if (!inside(part, li)) bad.push('ladder: ' + part.textContent.trim());
    }
  }
  const chip = document.querySelector('.player-chip');
  if (chip) {
    for (const part of chip.querySelectorAll('.level-badge, .coins, .player-name')) {
      if (!inside(part, chip)) bad.push('chip: ' + part.textContent.trim());
    }
    if (chip.getBoundingClientRect().right > vw + 0.5) bad.push('chip past the page');
  }
  return {bad, wide: document.documentElement.scrollWidth > vw,
          chip: chip ? chip.querySelector('.level-badge').textContent.trim() : null,
          levels: document.querySelectorAll('.ladder li').length};
}"""


@pytest.mark.parametrize("width", [1280, 390, 360])
def test_english_level_chips_stay_in_their_boxes(live, browser, width):
    name = f"chips{width}"
    live.create_players(name)
    # a long level name in the header: Sparrow Immortal (100,000 points)
    live.set_profile(name, points=100_000)
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="en")
    page = ctx.new_page()
    login(page, live, name)
    ctx.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    for path in ("/", "/lobby/", "/leaderboard/"):
        page.goto(live.url + path)
        found = page.evaluate(CHECK)
        assert found["chip"] == "Sparrow Immortal", found
        assert found["bad"] == [] and not found["wide"], (path, found)
        if path == "/":
            assert found["levels"] >= 10
    ctx.close()
