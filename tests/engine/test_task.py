"""任务加倍 (seed 000) decided once, in games.engine.task: at the win for the
engine and the bots (Task.is_done), and during the hand for the table's badge
(task_state, exposed by view()).

Regression: the engine, the bots (engine/bots/wins.py) and a template tag
(templatetags/mj_table.py) each decided the task; the bots counted the
``double`` task as never done, so a doubled bot valued such wins at half.
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots import evaluate as ev
from games.engine.bots.observation import Observation
from games.engine.bots.wins import engine_scorer, win_fan
from games.engine.state import Phase
from games.engine.task import TASK_STATES, Task
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets import get
from games.rules.tiles import Tile, parse_tiles, to_counts
from tests.engine.helpers import stacked

E = Tile.parse("1z").index
KONG = Task("kong")
PUNG_E = Task("pung", tile=E)
FAN = Task("fan", fan="SEVEN_PAIRS")
DOUBLE = Task("double")


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def meld(kind: MeldKind, tile: str) -> Meld:
    t = Tile.parse(tile)
    n = 4 if kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG) else 3
    return Meld(kind, (t,) * n, None if kind is MeldKind.CONCEALED_KONG else t)


@pytest.mark.parametrize(
    ("task", "hand", "melds", "fans", "doubled", "done"),
    [
        (DOUBLE, "123456789m11122z", [], set(), True, True),  # bots said False
        (DOUBLE, "123456789m11122z", [], set(), False, False),
        (PUNG_E, "123456789m11122z", [], set(), False, True),  # concealed 1z×3
        (PUNG_E, "123456m11z", [meld(MeldKind.PUNG, "1z")], set(), False, True),
        (PUNG_E, "123456m11z", [meld(MeldKind.KONG, "2z")], set(), False, False),
        (KONG, "123456m11z", [meld(MeldKind.CONCEALED_KONG, "2z")], set(), 0, True),
        (KONG, "123456m11z", [meld(MeldKind.PUNG, "2z")], set(), False, False),
        (FAN, "1122335566778m8m", [], {"SEVEN_PAIRS"}, False, True),
        (FAN, "1122335566778m8m", [], {"ALL_PUNGS"}, False, False),
    ],
)
def test_task_is_done_at_the_win(task, hand, melds, fans, doubled, done):
    got = task.is_done(
        counts=counts(hand), melds=melds, fan_ids=fans, doubled=bool(doubled)
    )
    assert got is done


def test_task_json_round_trip():
    for task in (KONG, PUNG_E, FAN, DOUBLE, Task("kong", factor=3)):
        assert Task.from_json(task.to_json()) == task
    assert Task.from_json(None) is None


@pytest.mark.parametrize(
    ("task", "kw", "state"),
    [
        # 加倍后和牌: doubling is a precondition, never met before the win
        (DOUBLE, {"doubled": True}, "ready"),
        (DOUBLE, {"choosing": True}, "open"),
        (DOUBLE, {}, "missed"),  # the doubling is over, none chosen
        (KONG, {}, "open"),
        (KONG, {"melds": [meld(MeldKind.CONCEALED_KONG, "2m")]}, "ready"),
        (PUNG_E, {"held": counts("11z")}, "open"),
        (PUNG_E, {"held": counts("111z")}, "ready"),
        (PUNG_E, {"melds": [meld(MeldKind.PUNG, "1z")]}, "ready"),
        (PUNG_E, {"held": counts("1z"), "gone": 2}, "missed"),
        (PUNG_E, {"gone": 1}, "open"),
        (FAN, {}, "at_win"),
    ],
)
def test_task_standing_before_the_end(task, kw, state):
    args = {
        "held": [0] * 34,
        "melds": [],
        "doubled": False,
        "choosing": False,
        "gone": 0,
    }
    args.update(kw)
    assert task.standing(**args) == state
    assert state in TASK_STATES


def test_view_exposes_the_task_state_from_what_the_seat_sees():
    hand = stacked("erren", "111z123456789m22z", "12345678m1z3z4z5z6z")
    s = hand.state
    s.task = PUNG_E
    assert hand.view(0)["task_state"] == "ready"  # three 1z in hand
    assert hand.view(1)["task_state"] == "open"  # one 1z held, none gone
    s.discards[0].append(E)  # a 1z in a pool, one in the dealer's hand unseen
    s.concealed[0][E] -= 1
    assert hand.view(1)["task_state"] == "open"  # one copy gone: 3 still possible
    s.open_hand[0] = True  # 明牌: the dealer's two 1z are seen too
    assert hand.view(1)["task_state"] == "missed"
    s.task = DOUBLE
    s.start_double[1] = True
    assert (hand.view(0)["task_state"], hand.view(1)["task_state"]) == (
        "missed",
        "ready",
    )
    s.result = {"winner": 1, "task_done": True}
    s.phase = Phase.ENDED
    # the task is the hand's: both panels say met when the settlement pays
    # 任务加倍 (fresh tester: the loser's panel said 未达成 beside "任务加倍 68")
    assert (hand.view(0)["task_state"], hand.view(1)["task_state"]) == ("met", "met")
    s.result = {"winner": 1, "task_done": False}
    assert (hand.view(0)["task_state"], hand.view(1)["task_state"]) == (
        "missed",
        "missed",
    )
    s.result = {"winner": None}
    assert hand.view(0)["task_state"] == "missed"
    s.task = None
    assert hand.view(0)["task_state"] is None


def test_a_concealed_kong_of_the_pung_tile_meets_the_task_for_both_seats():
    """Fresh tester (erren): task 南 刻子, the bot won holding a concealed 南
    kong, the settlement paid 任务加倍 and the player's panel said 未达成.
    A kong holds the pung (Task.is_done); the panel reads the same answer."""
    south = Tile.parse("2z")
    task = Task("pung", tile=south.index)
    kong = Meld(MeldKind.CONCEALED_KONG, (south,) * 4)
    assert task.is_done(
        counts=counts("123m456m789m11z"), melds=[kong], fan_ids=(), doubled=False
    )
    hand = stacked("erren", "111z123456789m22z", "12345678m1z3z4z5z6z")
    s = hand.state
    s.task = task
    s.melds[1].append(kong)
    assert hand.view(1)["task_state"] == "ready"
    assert hand.view(0)["task_state"] == "open"  # the kong is concealed from 0
    s.result = {"winner": 1, "task_done": True}
    s.phase = Phase.ENDED
    assert (hand.view(0)["task_state"], hand.view(1)["task_state"]) == ("met", "met")


def test_the_engine_and_the_bots_agree_on_the_double_task():
    # a doubled seat wins: the engine counts the task done, so the bot values
    # the win at base × factor (before, the bot's own copy said not done)
    rs = get("erren")
    hand = counts("123456789m1122z")
    obs = Observation(
        ruleset=rs,
        seat=0,
        hand=tuple(hand),
        task=Task("double", factor=2),
        doubled=True,
    )
    ctx = ev.make_context(obs, ev.Style(), engine_scorer)
    undoubled = ev.make_context(
        Observation(ruleset=rs, seat=0, hand=tuple(hand), task=Task("double")),
        ev.Style(),
        engine_scorer,
    )
    base = win_fan(undoubled, hand, [], E, self_drawn=False)
    assert base > 0
    assert win_fan(ctx, hand, [], E, self_drawn=False) == 2 * base


def test_a_finished_hand_reports_the_same_task_result_as_its_view():
    from games.engine.selfplay import play_hand

    rs = get("erren")
    seen = set()
    for n in range(40):
        hand = play_hand(rs, f"task-view{n}", check=False, rng=random.Random(n))
        result = hand.state.result or {}
        if hand.state.task is None or result.get("winner") is None:
            continue
        winner = int(result["winner"])
        want = "met" if result.get("task_done") else "missed"
        assert hand.view(winner)["task_state"] == want
        assert hand.view(1 - winner)["task_state"] == want
        seen.add(want)
    assert seen == {"met", "missed"}


# -- 财神 (seed 002) split once: games.rules.wild_scoring.split_counts ---------


def test_split_counts_reads_white_as_the_wild_kinds_face():
    from games.rules.wild_scoring import split_counts

    one_m = Tile.parse("1m").index
    white = Tile.parse("5z").index
    faces, wilds = split_counts(counts("11m5z5z23m"), one_m)
    assert wilds == 2 and faces[one_m] == 2 and faces[white] == 0
    faces, wilds = split_counts(counts("5z5z23m"), white)  # 白板 is the wild
    assert wilds == 2 and faces[white] == 0
    assert split_counts(counts("5z23m"), None) == (counts("5z23m"), 0)


def test_the_bots_see_white_standing_for_the_wild_kind():
    # 财神 1m; 白板 plays 1m: 5z 2m + 456m 789m 11p 234p waits on 3m.  The
    # bots' own split once left 白板 as itself (no wait at all).
    rs = get("liangren")
    one_m = Tile.parse("1m").index
    hand = counts("5z2m456789m11p234p")
    o = Observation(ruleset=rs, seat=0, hand=tuple(hand), wild=one_m)
    ctx = ev.make_context(o, ev.Style(), engine_scorer)
    est = ev.value(ctx, hand, ())
    assert est.deficiency <= 1
    assert Tile.parse("3m").index in est.waits
