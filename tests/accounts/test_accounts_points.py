"""实力积分 per hand: one rule, the same in Python and in SQL, and the engine's."""

import itertools
from datetime import UTC, datetime

import pytest

from accounts.points import hand_points, hand_points_sql
from games.engine.settle import Outcome, settle
from games.models import HandSeat
from games.rules.rulesets import get
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_the_rule_by_result_and_practice():
    assert hand_points(won=True, fan=12, multiplier=4, practice=False) == 48
    assert hand_points(won=False, fan=12, multiplier=4, practice=False) == 0
    assert hand_points(won=True, fan=12, multiplier=4, practice=True) == 0
    assert hand_points(won=False, fan=0, multiplier=1, practice=False) == 0
    with pytest.raises(ValueError):
        hand_points(won=True, fan=-1, multiplier=1, practice=False)


def test_python_and_sql_agree_on_every_combination():
    a, b = make_player("pa"), make_player("pb")
    combos = list(itertools.product([0, 1, None], [1, 8, 25], [1, 2, 8], [False, True]))
    for winner, fan, mult, practice in combos:
        hand(
            a, b, ended=WHEN, winner=winner, fan=fan, multiplier=mult, practice=practice
        )
    rows = HandSeat.objects.annotate(rule=hand_points_sql()).values(
        "won", "fan", "multiplier", "practice", "points", "rule"
    )
    assert len(rows) == 2 * len(combos)
    for r in rows:
        want = hand_points(
            won=r["won"],
            fan=r["fan"],
            multiplier=r["multiplier"],
            practice=r["practice"],
        )
        assert r["rule"] == r["points"] == want


@pytest.mark.parametrize("name", ["erren", "liangren", "mcr"])
def test_the_engine_shows_the_same_points_for_a_real_room(name):
    outcome = Outcome(winner=0, base_fan=10, open_hand=(True, False))
    st = settle(outcome, ruleset=get(name), stake=10, balances=(10_000, 10_000))
    for seat in (0, 1):
        assert st.skill[seat] == hand_points(
            won=st.winner == seat, fan=st.fan, multiplier=st.multiplier, practice=False
        )
