"""Pages that must read well on a 390 px phone without sideways scrolling
(the fresh tester's and reviewers' findings): the player page's 最近对局 and
the lobby.
"""

from __future__ import annotations

import pytest

from .conftest import login

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

RECENT = """
import sys
sys.path.insert(0, "tests/games")
from driver import play_out
from accounts.models import User
from games.models import Room
from games.services.tables import table_play_bot

u = User.objects.get(username="phonerecent")
rooms = list(Room.objects.order_by("order", "id"))
for i in range(3):
    table = table_play_bot(user=u, room=rooms[i], level="easy")
    play_out(table, {0: u}, seed=i)
"""

LINES = """el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  // glyph runs of one line may differ in top by a pixel or two (fonts)
  const tops = Array.from(range.getClientRects()).map(r => r.top).sort((a, b) => a - b);
  return tops.filter((t, i) => i === 0 || t - tops[i - 1] > 8).length;
}"""


@pytest.fixture(scope="module")
def recent_player(live) -> str:
    live.create_players("phonerecent")
    live.set_profile("phonerecent", nickname="手机上的玩家")
    live.play_script(RECENT, walls="phone-recent")
    return "手机上的玩家"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_recent_hands_on_a_phone_are_cards_without_sideways_scroll(
    live, browser, recent_player, lang
):
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live.url}])
    page = context.new_page()
    login(page, live, "phonerecent")
    page.goto(f"{live.url}/players/{recent_player}/")
    table = page.locator("[data-testid=recent-hands]")
    rows = table.locator("tbody tr")
    assert rows.count() == 3
    page.screenshot(path=f"/tmp/phone_recent_{lang}.png", full_page=True)
    box = page.locator("[data-testid=recent-hands]").evaluate(
        "t => { const s = t.closest('.table-scroll');"
        " return [s.scrollWidth, s.clientWidth]; }"
    )
    assert box[0] <= box[1], f"最近对局 scrolls sideways: {box}"
    for i in range(3):
        row = rows.nth(i)
        # the opponent ("电脑（简单）" / "Computer (Easy)") on one line, whole
        assert row.locator("[data-testid=recent-opponent]").evaluate(LINES) == 1
        # every figure and the replay link inside the card
        right = row.evaluate("r => r.getBoundingClientRect().right")
        link = row.locator("[data-testid=replay-link]").bounding_box()
        assert link and link["x"] + link["width"] <= right + 0.5
    # the figures carry their labels (the column heads are not shown)
    label = rows.first.locator(".rh-fan").evaluate(
        "td => getComputedStyle(td, '::before').content"
    )
    assert label == ('"番 "' if lang == "zh-hans" else '"Fan "')
    context.close()


def test_recent_hands_stay_a_table_on_a_desktop(live, browser, recent_player):
    page = browser.new_page(viewport=DESKTOP)
    login(page, live, "phonerecent")
    page.goto(f"{live.url}/players/{recent_player}/")
    table = page.locator("[data-testid=recent-hands]")
    assert table.evaluate("t => getComputedStyle(t).display") == "table"
    assert table.locator("thead").is_visible()
    page.close()
