"""Player pages: statistics, SVG charts without script, head-to-head, recent hands."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from accounts.services import bot_account
from leaderboard.rating import PROVISIONAL_DEVIATION
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 3, 2, 4, tzinfo=UTC)


@pytest.fixture
def ann():
    a, b = make_player("ann"), make_player("bo")
    bot = bot_account(level="hard")
    hand(a, b, ended=WHEN, winner=0, fan=8, fans=("PURE_STRAIGHT", "ALL_CHOWS"))
    hand(a, b, ended=WHEN, winner=0, fan=12, self_drawn=True, fans=("PURE_STRAIGHT",))
    hand(b, a, ended=WHEN, winner=0, fan=6, fans=("ALL_CHOWS",))
    hand(a, b, ended=WHEN, winner=None)
    hand(a, bot, ended=WHEN, winner=1, fan=9, practice=True)
    return a, b


def test_the_player_page_shows_the_statistics(client, ann):
    a, b = ann
    client.force_login(b)
    html = client.get(reverse("leaderboard:player", args=["ann"])).content.decode()
    # 5 hands: 2 wins (1 自摸), dealt in twice (bo's win, the bot's win)
    assert 'data-stat="hands">5<' in html
    assert 'data-stat="win-rate">40.0%<' in html
    assert 'data-stat="self-drawn-rate">20.0%<' in html
    assert 'data-stat="deal-in-rate">40.0%<' in html
    assert 'data-stat="average-fan">10.0<' in html
    assert 'data-stat="max-fan">12<' in html
    assert 'data-testid="player-level"' in html and 'data-level="雀蛋"' in html
    rating = re.search(r'data-testid="player-rating" data-rating="(\d+)"', html)
    assert rating and 'data-provisional="1"' in html and ">?</span>" in html
    # head-to-head: bo 4 hands (ann 2 wins, 1 loss, 1 draw), the bot 1
    assert re.search(
        r'data-opponent="bo">.*?<td class="num">4</td><td class="num">2</td>'
        r'<td class="num">1</td>',
        html,
        re.S,
    )
    assert "电脑（困难）" in html
    # recent hands: bo took part in four of them, so four replay links
    recent = html[html.index('data-testid="recent-hands"') :]
    assert recent.count("<tr data-hand=") == 5
    assert recent.count('data-testid="replay-link"') == 4


def test_charts_are_inline_svg_without_script_or_outside_addresses(client, ann):
    html = client.get(reverse("leaderboard:player", args=["ANN"])).content.decode()
    for testid in ("rating-chart", "fan-chart"):
        m = re.search(rf'<svg data-testid="{testid}"[^>]*>(.*?)</svg>', html, re.S)
        assert m, testid
    assert "<script" not in html.split("<body", 1)[1].split("<footer", 1)[0]
    # nothing loaded from elsewhere (no CDN): no outside src, and the charts
    # name no address but the SVG namespace
    assert not re.findall(r'src="https?://', html)
    for svg in re.findall(
        r'<svg data-testid="(?:rating|fan)-chart".*?</svg>', html, re.S
    ):
        assert set(re.findall(r"https?://[^\s\"')]+", svg)) <= {
            "http://www.w3.org/2000/svg",
            "http://www.w3.org/1999/xlink",
        }
    # the fan chart names the most frequent fans, most frequent first
    fan_svg = re.search(r'<svg data-testid="fan-chart".*?</svg>', html, re.S).group(0)
    assert "清龙" in fan_svg and "平和" in fan_svg


def test_english_player_page(client, ann):
    client.post(reverse("set_language"), {"language": "en"})
    html = client.get(reverse("leaderboard:player", args=["ann"])).content.decode()
    assert "Win rate" in html and "Recent hands" in html
    assert "Rating" in html
    fan_svg = re.search(r'<svg data-testid="fan-chart".*?</svg>', html, re.S).group(0)
    assert "Pure Straight" in fan_svg


def test_a_bot_page_is_labelled_and_provisional_rule_holds(client, ann):
    html = client.get(
        reverse("leaderboard:player", args=["电脑（困难）"])
    ).content.decode()
    assert "bot-tag" in html
    assert PROVISIONAL_DEVIATION == 110


def test_unknown_player_is_404(client):
    assert client.get(reverse("leaderboard:player", args=["nobody"])).status_code == 404


def test_an_empty_chart_says_so_in_a_line_of_text():
    """Tester's fault (issue 13): a player without wins had a fan chart whose
    "no data" text was pygal's 64 px, scaled up to the card — huge."""
    import re

    from leaderboard.charts import EMPTY_HEIGHT, fan_chart, rating_chart

    for svg in (
        str(fan_chart(fans=[], title="t", series="s", no_data="还没有和过牌")),
        str(
            rating_chart(ratings=[], title="t", series="s", no_data="还没有计分的对局")
        ),
    ):
        assert f'viewBox="0 0 400 {EMPTY_HEIGHT}"' in svg
        size = re.search(r"\.no_data\{[^}]*font-size:(\d+)px", svg)
        assert size is not None and int(size.group(1)) <= 18
        y = float(re.search(r'<text x="[\d.]+" y="([\d.]+)" class="no_data"', svg)[1])
        assert 18 <= y + 8 <= EMPTY_HEIGHT  # the plot is inset by its 8 margin
        # tester's fault: the axes were still drawn, labels piled up in the
        # 80-unit box and dashed guides struck through the "no data" line
        assert "<path" not in svg and "<line" not in svg
        assert re.findall(r'<text[^>]*class="(?!no_data)', svg) == []
    full = str(fan_chart(fans=[("平和", 3)], title="t", series="s", no_data="x"))
    assert 'viewBox="0 0 400 140"' in full


@pytest.mark.parametrize(
    ("top", "ticks"),
    [
        (0, [0, 1]),
        (1, [0, 1]),
        (3, [0, 1, 2, 3]),
        (5, [0, 1, 2, 3, 4, 5]),
        (6, [0, 2, 4, 6]),
        (11, [0, 5, 10, 15]),
        (37, [0, 10, 20, 30, 40]),
        (1234, [0, 500, 1000, 1500]),
    ],
)
def test_count_ticks_are_whole_numbers(top, ticks):
    from leaderboard.charts import count_ticks

    assert count_ticks(top) == ticks


def test_fan_chart_counts_and_labels_read_cleanly():
    """Tester's fault: ticks went 0, 0.2, 0.4 … 3 and ran together, bar values
    were ink on felt green, long (English) names pushed the bars aside."""
    from leaderboard.charts import fan_chart

    svg = str(
        fan_chart(
            fans=[("Pung of Terminals or Honors", 3), ("幺九刻", 2), ("平和", 1)],
            title="t",
            series="s",
            no_data="x",
        )
    )
    # a horizontal bar chart: pygal's "axis x" carries the counts
    ticks = re.findall(r"<text[^>]*>([^<]*)</text>", svg.split('class="axis x', 1)[1])
    assert ticks[:4] == ["0", "1", "2", "3"]
    assert not [t for t in ticks if "." in t]
    assert "fill:#ffffff" in svg.split("</style>", 1)[0]
    assert "Pung of Terminals…" in svg and "Pung of Terminals or Honors<" not in svg
    assert "幺九刻" in svg


@pytest.mark.parametrize(("n", "words"), [(1, "1 rated hand<"), (3, "3 rated hands<")])
def test_english_rated_hands_agree_with_their_number(client, n, words):
    """Tester fault: a new player's page read "Deviation ±332 · 1 rated hands"."""
    from leaderboard.models import PlayerStats

    cy = make_player("cy")
    PlayerStats.objects.update_or_create(
        user=cy, ruleset="", defaults={"rated_hands": n, "deviation": 332.0}
    )
    client.post(reverse("set_language"), {"language": "en"})
    html = client.get(reverse("leaderboard:player", args=["cy"])).content.decode()
    assert f"Deviation ±332 · {words}" in html
