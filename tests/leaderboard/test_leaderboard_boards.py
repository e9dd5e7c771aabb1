"""Board pages: hooks, the player's own row, pagination, and a constant query count."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leaderboard.selectors import BoardKey, board_key, board_page
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db


def _recent(minutes: int):
    """``minutes`` ago, but never before today's local midnight: a test run
    just after midnight (server time) would put the hand on yesterday's
    boards (the day board then changed between two requests: a CI flake)."""
    now = timezone.localtime()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return max(now - timedelta(minutes=minutes), midnight + timedelta(seconds=1))


def _players(n):
    """``n`` players p00.. with n-1 .. 0 won 8-fan hands against the next one."""
    users = [make_player(f"p{i:02d}") for i in range(n)]
    now = _recent(5)
    for i, u in enumerate(users):
        for _ in range(n - 1 - i):
            hand(u, users[(i + 1) % n], ended=now, winner=0, fan=8)
    return users


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?board=coins&period=week",
        "?board=winrate",
        "?board=maxfan&period=day",
        "?board=points&ruleset=erren&period=month",
        "?board=rating",
    ],
)
def test_a_page_costs_the_same_queries_for_5_or_40_rows(client, settings, query):
    settings.MAHJONG_BOARD_MIN_HANDS = 1
    settings.MAHJONG_LEADERBOARD_PAGE_SIZE = 50
    users = _players(6)
    client.force_login(users[-1])
    url = reverse("leaderboard:index") + query
    small, _html = _queries(client, url)
    for i in range(6, 40):
        u = make_player(f"q{i:02d}")
        hand(u, users[0], ended=_recent(1), winner=0, fan=8)
    big, html = _queries(client, url)
    assert big == small, (small, big)
    # session + user + profile context (with the sanction banner) + the board's
    # constant set
    assert small <= 17


def test_rows_carry_the_hooks_and_the_signed_in_row_is_marked(client, settings):
    settings.MAHJONG_LEADERBOARD_PAGE_SIZE = 3
    users = _players(6)
    me = users[4]  # rank 5: off the first page
    client.force_login(me)
    response = client.get(reverse("leaderboard:index"))
    html = response.content.decode()
    assert html.count('data-testid="board-row"') == 4  # 3 + my pinned row
    assert 'data-testid="my-row" data-player="p04" data-rank="5"' in html
    for rank, name in enumerate(["p00", "p01", "p02"], start=1):
        assert f'data-player="{name}" data-rank="{rank}"' in html
    for b in ("points", "coins", "rating", "winrate", "maxfan"):
        assert f'data-board="{b}"' in html
    for p in ("day", "week", "month", "all"):
        assert f'data-period="{p}"' in html
    # page 2: my row is on it, marked in place
    page2 = client.get(reverse("leaderboard:index") + "?page=2").content.decode()
    assert page2.count('data-testid="board-row"') == 3
    assert 'data-testid="my-row" data-player="p04" data-rank="5"' in page2


def test_unknown_board_key_parts_are_refused_by_board_key():
    with pytest.raises(ValueError):
        board_key(board="points", period="all", ruleset="chess")


def _current(html: str, attr: str) -> str:
    """The value of the ``data-<attr>`` link marked current on the board page."""
    match = re.search(rf'data-{attr}="([^"]*)" aria-current="page"', html)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize(
    "query,board,period",
    [
        ("?period=bogus&kind=zzz", "points", "all"),  # the fresh tester's URL
        ("?board=nope", "points", "all"),
        ("?period=year", "points", "all"),
        ("?ruleset=chess", "points", "all"),
        ("?board=maxfan&period=bogus", "maxfan", "all"),  # a good part is kept
        ("?board=coins&period=week&ruleset=%00x&page=abc", "coins", "week"),
        ("?page=-3", "points", "all"),
        ("?page=99999&board=", "points", "all"),
        ("?board=POINTS&period=All", "points", "all"),
    ],
)
def test_unknown_or_malformed_query_falls_back_to_the_default_board(
    client, query, board, period
):
    _players(3)
    response = client.get(reverse("leaderboard:index") + query)
    assert response.status_code == 200
    html = response.content.decode()
    assert _current(html, "board") == board
    assert _current(html, "period") == period
    assert '<option value="" selected>' in html  # all rule sets
    assert 'data-player="p00"' in html  # the board's rows are shown


def test_english_board_page(client):
    _players(3)
    client.post(reverse("set_language"), {"language": "en"})
    html = client.get(reverse("leaderboard:index") + "?board=maxfan").content.decode()
    assert "Biggest hand" in html and "8 fan" in html


def test_my_rank_off_the_page_matches_the_full_ranking_and_ties_go_to_the_older():
    users = _players(3)  # coins: p00 10152, p02 9920, p01 9916 (76 - 160)
    key = BoardKey("coins", "all")
    page = board_page(key=key, page_number=1, per_page=1, user_id=users[1].pk)
    assert (page.me.rank, page.me.value) == (3, 9916.0)
    assert [r.nickname for r in page.rows] == ["p00"]
    # a tie: p03 has p02's coins exactly, and is the newer account
    p03 = make_player("p03", coins=9920)
    hand(p03, users[0], ended=timezone.now(), winner=None)
    page = board_page(key=key, page_number=1, per_page=10, user_id=p03.pk)
    assert [r.nickname for r in page.rows] == ["p00", "p02", "p03", "p01"]
    assert page.me.rank == 3
