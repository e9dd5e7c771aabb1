"""Scripted hands: 报听, timeouts in each phase, 托管, stale and double submits,
换牌, 胡加倍, 明牌, 加倍, 财神, 加番牌, 流局."""

from __future__ import annotations

import pytest

from games.engine.actions import (
    AutoPlay,
    Discard,
    Double,
    Pass,
    PreDeal,
    Ready,
    Swap,
    Timeout,
    Win,
)
from games.engine.errors import (
    HandOverError,
    IllegalActionError,
    InvalidActionError,
    OutOfTurnError,
    StaleActionError,
)
from games.engine.hand import next_deal
from games.engine.state import Phase
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

T = Tile.parse

# erren: the dealer declares 报听 with its first discard (nine gates, any 万 wins)
READY_DEALER = "1112345678999m1z"
READY_OTHER = "22334455z67z258m"


def ready_hand(draws: str = "3z6z4z"):
    hand = stacked("erren", READY_DEALER, READY_OTHER, draws=draws)
    assert Ready(0, hand.seq, T("1z")) in hand.legal_actions(0)
    events = hand.apply(Ready(0, hand.seq, T("1z")), now=1002.0)
    assert [e.kind for e in events[:2]] == ["ready", "discard"]
    assert events[0].payload == {"tile": "1z", "heavenly": True}
    return hand


def test_ready_locks_the_hand_and_then_wins_on_the_first_discard():
    hand = ready_hand()
    assert hand.state.ready[0] and hand.state.turn == 1
    hand.apply(Discard(1, hand.seq, T("2m")), now=1003.0)
    # a locked seat is only asked whether to win
    assert hand.state.phase is Phase.CLAIM
    legal = [a.kind for a in hand.legal_actions(0)]
    assert sorted(legal) == ["auto_play", "pass", "win"]
    hand.apply(Win(0, hand.seq), now=1004.0)
    result = hand.state.result
    assert result is not None and result["winner"] == 0
    ids = {f["id"] for f in result["fans"]}
    assert {"HEAVENLY_READY", "READY_FIRST_DISCARD"} <= ids


def test_ready_seat_discards_a_useless_draw_by_itself():
    hand = ready_hand()
    events = hand.apply(Discard(1, hand.seq, T("7z")), now=1003.0)
    kinds = [(e.kind, e.seat) for e in events]
    # seat 0 draws 6z (no win) and the engine discards it; seat 1 draws next
    assert ("discard", 0) in kinds
    auto = next(e for e in events if e.kind == "discard" and e.seat == 0)
    assert auto.payload == {"tile": "6z", "auto": True}
    assert hand.state.turn == 1 and hand.state.phase is Phase.TURN


def test_ready_seat_that_declines_a_win_raises_its_win_doubles():
    hand = ready_hand()
    hand.apply(Discard(1, hand.seq, T("2m")), now=1003.0)
    events = hand.apply(Pass(0, hand.seq), now=1004.0)
    assert [e.kind for e in events[:2]] == ["pass", "win_declined"]
    assert hand.state.win_doubles[0] == 1
    assert hand.state.ready[0]


def test_ready_without_a_tenpai_hand_is_illegal():
    hand = stacked("erren", READY_DEALER, READY_OTHER)
    with pytest.raises(IllegalActionError):
        hand.apply(Ready(0, hand.seq, T("9m")), now=1002.0)
    with pytest.raises(IllegalActionError):  # the dealer holds 14: needs a discard
        hand.apply(Ready(0, hand.seq, None), now=1002.0)


# -- timeouts -----------------------------------------------------------------


def test_timeout_before_the_deadline_is_refused_and_changes_nothing():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m")
    before = hand.state.snapshot()
    deadline = hand.state.deadline
    assert deadline == 1000.0 + 15
    with pytest.raises(IllegalActionError):
        hand.apply(Timeout(0, hand.seq), now=deadline - 0.1)
    assert hand.state.snapshot() == before


def test_timeout_in_turn_discards_the_drawn_tile():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m")
    events = hand.apply(Timeout(0, hand.seq), now=1015.0)
    assert [e.kind for e in events[:2]] == ["timeout", "discard"]
    assert events[1].payload == {"tile": "7z", "auto": False}


def test_timeout_in_a_claim_window_passes():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m", draws="8s")
    hand.apply(Discard(0, hand.seq, T("3m")), now=1002.0)
    assert hand.state.deadline == 1002.0 + 10
    events = hand.apply(Timeout(1, hand.seq), now=1012.0)
    assert [e.kind for e in events[:2]] == ["timeout", "pass"]
    assert hand.state.result is None


def test_auto_play_seat_that_can_win_wins_at_once():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m")
    hand.apply(Discard(0, hand.seq, T("3m")), now=1002.0)
    hand.apply(AutoPlay(1, hand.seq, True), now=1003.0)
    events = hand.apply(Timeout(1, hand.seq), now=1003.0)  # before the deadline
    assert events[-1].kind == "hand_ended"
    assert hand.state.result is not None and hand.state.result["winner"] == 1


def test_timeout_in_the_rob_window_passes_and_the_kong_completes():
    hand = stacked(
        "mcr", "5m7z123456789p46m9m", "55m13579s12346z2m", draws="9m5m", tail="1p"
    )
    from games.engine.actions import AddedKong, Pung

    hand.apply(Discard(0, hand.seq, T("5m")), now=1002.0)
    hand.apply(Pung(1, hand.seq), now=1003.0)
    hand.apply(Discard(1, hand.seq, T("1s")), now=1004.0)
    hand.apply(Discard(0, hand.seq, T("7z")), now=1005.0)
    hand.apply(AddedKong(1, hand.seq, T("5m")), now=1006.0)
    assert hand.state.phase is Phase.ROB
    hand.apply(Timeout(0, hand.seq), now=1016.0)
    assert [str(m) for m in hand.state.melds[1]] == ["kong:5555m"]


def test_timeout_before_the_deal_declines_the_choices():
    hand = stacked("erren", READY_DEALER, READY_OTHER, answer_pre_deal=False)
    assert hand.state.phase is Phase.PRE_DEAL
    assert hand.state.deadline == 1000.0 + 10
    hand.apply(PreDeal(0, hand.seq, double=True), now=1001.0)
    hand.apply(Timeout(1, hand.seq), now=1010.0)
    assert hand.state.start_double == [True, False]
    assert hand.state.phase is Phase.TURN


def test_timeout_in_the_double_phase_declines():
    hand = stacked("liangren", "3m9m159s1122z34567z", "123456789p3345m", tail="8p")
    assert hand.state.phase is Phase.DOUBLE
    hand.apply(Double(1, hand.seq, True), now=1002.0)
    hand.apply(Timeout(0, hand.seq), now=1011.0)
    assert hand.state.deal_double == [False, True]
    assert hand.state.phase is Phase.TURN and hand.state.turn == 0


# -- refused actions ------------------------------------------------------------


def test_double_submit_is_stale_and_changes_nothing():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m", draws="8s")
    discard = Discard(0, hand.seq, T("9m"))
    hand.apply(discard, now=1002.0)
    before = hand.state.snapshot()
    n = len(hand.events)
    with pytest.raises(StaleActionError):
        hand.apply(discard, now=1002.5)
    assert hand.state.snapshot() == before and len(hand.events) == n


def test_stale_seq_out_of_turn_future_seq_and_unheld_tile():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m", draws="8s")
    before = hand.state.snapshot()
    with pytest.raises(OutOfTurnError):
        hand.apply(Discard(1, hand.seq, T("1p")), now=1002.0)
    with pytest.raises(InvalidActionError):
        hand.apply(Discard(0, hand.seq + 5, T("9m")), now=1002.0)
    with pytest.raises(StaleActionError):
        hand.apply(Discard(0, hand.state.asked_at[0] - 1, T("9m")), now=1002.0)
    with pytest.raises(IllegalActionError):
        hand.apply(Discard(0, hand.seq, T("8m")), now=1002.0)
    with pytest.raises(IllegalActionError):
        hand.apply(Win(0, hand.seq), now=1002.0)
    assert hand.state.snapshot() == before


def test_auto_play_toggle_is_refused_when_already_in_that_state():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p3345m")
    hand.apply(AutoPlay(1, hand.seq, True), now=1001.0)
    with pytest.raises(IllegalActionError):
        hand.apply(AutoPlay(1, hand.seq, True), now=1001.0)
    # the dealer's prompt is still open although seq moved on
    hand.apply(Discard(0, hand.seq - 1, T("9m")), now=1002.0)


def test_actions_after_the_end_are_refused():
    hand = stacked("mcr", "11123456778999m", "123456789p1234z")
    hand.apply(Win(0, hand.seq), now=1002.0)
    with pytest.raises(HandOverError):
        hand.apply(AutoPlay(0, hand.seq, True), now=1003.0)


# -- systems ------------------------------------------------------------------


def test_swap_first_free_at_most_five():
    hand = stacked("erren", READY_DEALER, READY_OTHER, draws="7z7z7z6z6z3z")
    events = hand.apply(Swap(0, hand.seq, T("1z")), now=1002.0)
    swap = events[0]
    assert swap.for_seat(0)["data"] == {"out": "1z", "swaps": 1, "free": True}
    assert swap.for_seat(1)["data"] == {"swaps": 1, "free": True}
    assert hand.state.drawn[0] == T("7z").index
    for n in range(4):
        hand.apply(Swap(0, hand.seq, T("7z") if n < 3 else T("6z")), now=1003.0 + n)
    assert hand.state.swaps[0] == 5
    assert not any(a.kind == "swap" for a in hand.legal_actions(0))
    with pytest.raises(IllegalActionError):
        hand.apply(Swap(0, hand.seq, T("1m")), now=1010.0)
    assert hand.state.phase is Phase.TURN and hand.state.turn == 0


def test_open_hand_shows_the_tiles_to_the_opponent():
    hand = stacked(
        "liangren",
        "3m9m159s1122z34567z",
        "123456789p3345m",
        tail="8p",
        answer_pre_deal=False,
    )
    assert hand.state.phase is Phase.PRE_DEAL
    hand.apply(PreDeal(0, hand.seq, open_hand=True), now=1001.0)
    hand.apply(PreDeal(1, hand.seq), now=1001.0)
    deal0 = next(e for e in hand.events if e.kind == "deal" and e.seat == 0)
    deal1 = next(e for e in hand.events if e.kind == "deal" and e.seat == 1)
    assert "tiles" in deal0.for_seat(1)["data"]
    assert deal1.for_seat(0)["data"] == {"count": 13}
    assert len(hand.view(1)["opponent"]["concealed"]) == 13
    assert "concealed" not in hand.view(0)["opponent"]


def test_wild_is_turned_up_and_cannot_be_discarded():
    hand = stacked("liangren", "5p9m159s1122z34567z", "123456789p3345m", tail="5p")
    for seat in (0, 1):
        hand.apply(Double(seat, hand.seq, False), now=1002.0)
    s = hand.state
    assert s.wild == T("5p").index and s.wild_indicator == T("5p").index
    assert hand.view(1)["indicators"]["wild"] == "5p"
    assert Discard(0, hand.seq, T("5p")) not in hand.legal_actions(0)
    with pytest.raises(IllegalActionError):
        hand.apply(Discard(0, hand.seq, T("5p")), now=1003.0)


def test_bonus_tile_is_shown_in_jj():
    hand = stacked("jj", "11123456789999s", "2233445566z7z1s2s")
    s = hand.state
    assert s.bonus_tile is not None
    ev = next(e for e in hand.events if e.kind == "indicator")
    assert ev.payload == {"bonus_tile": str(Tile(s.bonus_tile))}
    assert hand.view(0)["indicators"]["bonus_tile"] == str(Tile(s.bonus_tile))


def _drain_wall(hand, keep: int, seat: int = 1) -> None:
    """Move wall tiles into a discard pool (tiles stay conserved)."""
    s = hand.state
    while s.wall_count > keep:
        s.discards[seat].append(s.wall[s.head])
        s.head += 1


def test_wall_exhausted_is_a_draw_that_moves_nothing():
    hand = stacked("mcr", "3m9m159s1122z34567z", "123456789p1234z")
    _drain_wall(hand, 0)
    hand.apply(Discard(0, hand.seq, T("9m")), now=1002.0)
    result = hand.state.result
    assert result is not None and result["reason"] == "wall_exhausted"
    assert hand.settlement is not None and hand.settlement.deltas == (0, 0)
    assert next_deal(dealer=0, round_wind=T("1z"), winner=None, round_starter=0) == (
        0,
        T("1z"),
    )


def test_full_discard_pool_ends_youxi():
    hand = stacked("youxi", "3m9m159s1122z34567z", "123456789p1234z")
    pool = hand.ruleset.full_discard_pool
    assert pool is not None
    s = hand.state
    while len(s.discards[0]) < pool - 1:
        s.discards[0].append(s.wall[s.head])
        s.head += 1
    hand.apply(Discard(0, hand.seq, T("9m")), now=1002.0)
    assert hand.state.result is not None
    assert hand.state.result["reason"] == "pool_full"


def test_next_deal_winner_deals_and_the_round_wind_advances():
    east, south = T("1z"), T("2z")
    assert next_deal(dealer=0, round_wind=east, winner=0, round_starter=0) == (0, east)
    assert next_deal(dealer=0, round_wind=east, winner=1, round_starter=0) == (1, east)
    assert next_deal(dealer=1, round_wind=east, winner=0, round_starter=0) == (
        0,
        south,
    )


def test_ready_seat_may_kong_when_the_waits_stay_the_same():
    hand = stacked(
        "erren", "111z2345677895m7z", "22334455z6z258m3z", draws="6z1z", tail="9m"
    )
    hand.apply(Ready(0, hand.seq, T("7z")), now=1002.0)
    hand.apply(Discard(1, hand.seq, T("6z")), now=1003.0)
    s = hand.state
    assert s.phase is Phase.TURN and s.turn == 0 and s.drawn[0] == T("1z").index
    legal = hand.legal_actions(0)
    assert sorted(a.kind for a in legal) == ["auto_play", "concealed_kong", "discard"]
    kong = next(a for a in legal if a.kind == "concealed_kong")
    events = hand.apply(kong, now=1004.0)
    kinds = [(e.kind, e.seat) for e in events]
    assert ("concealed_kong", 0) in kinds
    # the replacement 9m does not win: the engine discards it
    auto = [e for e in events if e.kind == "discard" and e.seat == 0]
    assert auto and auto[0].payload == {"tile": "9m", "auto": True}


def test_ready_seat_may_not_kong_when_the_waits_change():
    hand = ready_hand(draws="3z1m")
    hand.apply(Discard(1, hand.seq, T("7z")), now=1003.0)
    # 1m completes the nine gates: win or discard, but no 暗杠 of 1m
    assert sorted(a.kind for a in hand.legal_actions(0)) == [
        "auto_play",
        "discard",
        "win",
    ]


def test_next_deal_alternating_rotation_passes_the_deal_every_hand():
    east, south = T("1z"), T("2z")
    assert next_deal(
        dealer=0, round_wind=east, winner=0, round_starter=0, rotation="alternate"
    ) == (1, east)
    assert next_deal(
        dealer=1, round_wind=east, winner=None, round_starter=0, rotation="alternate"
    ) == (0, south)
    with pytest.raises(ValueError):
        next_deal(dealer=0, round_wind=east, winner=0, round_starter=0, rotation="x")


def test_task_is_public_and_a_completed_task_adds_its_share():
    import random

    from games.engine.selfplay import play_hand
    from games.rules.rulesets import get

    rs = get("erren")
    done = None
    for n in range(60):
        hand = play_hand(rs, f"task{n}", check=False, rng=random.Random(n))
        task = hand.state.task
        assert task is not None and task.kind in {"pung", "kong", "fan", "double"}
        assert hand.view(0)["task"] == hand.view(1)["task"] == task.to_json()
        result = hand.state.result or {}
        if result.get("task_done"):
            done = hand
            break
    assert done is not None, "no hand completed its task in 60 tries"
    st = done.settlement
    assert st is not None
    lines = {line.key: line.value for line in st.lines}
    base = lines["base"]
    assert lines["task"] == base * 2
