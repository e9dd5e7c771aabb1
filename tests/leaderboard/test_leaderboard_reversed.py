"""Reversed hands count nowhere but in the rating (issue 13/14 tester fault 7).

A moderator's reversal gave the coins and points back, but the hand still
counted: 最大番 on the boards and the player page, hand counts, win rates,
the head-to-head and the evidence's coin flow between the pair.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import HandSeat
from games.services.reversal import hand_restore, hand_reverse
from leaderboard.models import OVERALL, PlayerStats
from leaderboard.players import player_page
from leaderboard.recalc import recalc_ranks
from leaderboard.selectors import board_key, board_queryset
from moderation.evidence import pair_history
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand
from tests.moderation.helpers import T0

pytestmark = pytest.mark.django_db


def _stats(user) -> PlayerStats:
    return PlayerStats.objects.get(user=user, ruleset=OVERALL)


def _board(board: str, period: str = "all") -> dict[int, float]:
    key = board_key(board=board, period=period, ruleset="")
    return {r["user_id"]: r["value"] for r in board_queryset(key=key, day=T0.date())}


def test_a_reversed_hand_leaves_the_boards_statistics_and_evidence(settings):
    settings.MAHJONG_BOARD_MIN_HANDS = 1
    a, b = make_player("giver"), make_player("taker")
    hand(a, b, ended=T0, winner=1, fan=8, fans=("PURE_STRAIGHT",))
    big = hand(
        a, b, ended=T0 + timedelta(minutes=5), winner=1, fan=88, fans=("BIG_FOUR",)
    )[0].hand
    assert _stats(b).max_fan == 88 and _board("maxfan")[b.pk] == 88
    hand_reverse(hand_id=big.pk, reason="刷分", by=None)
    assert HandSeat.objects.filter(hand=big, reversed=True).count() == 2
    # the counters at once, as the nightly job would rebuild them
    stats = _stats(b)
    assert (stats.hands, stats.wins, stats.max_fan, stats.fan_sum) == (1, 1, 8, 8)
    assert (_stats(a).hands, _stats(a).wins) == (1, 0)
    assert recalc_ranks(day=T0.date()).stats_repaired == 0
    # boards of every period
    for period in ("all", "day"):
        assert _board("maxfan", period)[b.pk] == 8
    # the player page: fans, head-to-head; the hand is listed, marked
    page = player_page(nickname=b.profile.nickname, viewer=None)
    assert [f[-1] for f in page.fans] == [1]  # PURE_STRAIGHT once, no BIG_FOUR
    assert page.opponents[0].hands == 1
    assert any(s.hand_id == big.pk and s.reversed for s in page.recent)
    # the evidence's history of the pair
    pair = pair_history(user_id=b.pk, other_id=a.pk)
    assert pair["hands"] == 1 and big.pk not in pair["hand_ids"]
    # restored: counted again
    hand_restore(hand_id=big.pk, reason="申诉成立", by=None)
    assert (_stats(b).hands, _stats(b).max_fan) == (2, 88)
    assert _board("maxfan")[b.pk] == 88
    assert recalc_ranks(day=T0.date()).stats_repaired == 0


def test_the_player_page_marks_a_reversed_hand(client):
    from django.urls import reverse

    a, b = make_player("giver2"), make_player("taker2")
    record = hand(a, b, ended=T0, winner=1, fan=16)[0].hand
    hand_reverse(hand_id=record.pk, reason="x", by=None)
    page = client.get(reverse("leaderboard:player", args=[b.profile.nickname]))
    html = page.content.decode()
    assert f'data-hand="{record.pk}"' in html and 'data-testid="hand-reversed"' in html
