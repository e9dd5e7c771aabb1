"""Scripted hands on stacked walls: every action kind and claim conflict."""

from __future__ import annotations

import pytest

from games.engine.actions import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    Kong,
    Pass,
    Pung,
    Win,
)
from games.engine.errors import IllegalActionError
from games.engine.hand import CLAIM_PRIORITY, resolve_claims
from games.engine.state import Phase
from games.rules.rulesets.base import Claim
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

T = Tile.parse

# seat 1 waits on 3m/6m with a pure straight; a 3m discard can be won, punged
# or chewed (345m)
CLAIM_DEALER = "3m9m159s1122z34567z"
CLAIM_OTHER = "123456789p3345m"


def claim_hand():
    hand = stacked("mcr", CLAIM_DEALER, CLAIM_OTHER, draws="8s2s")
    hand.apply(Discard(0, hand.seq, T("3m")), now=1002.0)
    return hand


def kinds(actions):
    return sorted(a.kind for a in actions)


def test_dealer_starts_with_14_and_the_drawn_tile_apart():
    hand = stacked("mcr", CLAIM_DEALER, CLAIM_OTHER)
    view = hand.view(0)
    assert view["phase"] == "turn" and view["turn"] == 0
    assert view["me"]["concealed_count"] == 14
    assert view["me"]["drawn"] == "7z"  # the dealer's 14th tile
    assert len(view["me"]["concealed"]) == 13
    assert view["opponent"]["concealed_count"] == 13
    assert "concealed" not in view["opponent"]


def test_claim_window_offers_win_pung_chi_and_pass():
    hand = claim_hand()
    assert hand.state.phase is Phase.CLAIM
    legal = hand.legal_actions(1)
    assert kinds(a for a in legal if a.kind != "auto_play") == [
        "chi",
        "pass",
        "pung",
        "win",
    ]
    chis = [a for a in legal if isinstance(a, Chi)]
    assert [str(t) for t in chis[0].tiles] == ["3m", "4m", "5m"]
    # the discarder has nothing to do but may not act
    assert kinds(hand.legal_actions(0)) == ["auto_play"]


def test_claim_priority_hu_beats_pung_beats_chi():
    assert CLAIM_PRIORITY[Claim.WIN] > CLAIM_PRIORITY[Claim.PUNG]
    assert CLAIM_PRIORITY[Claim.PUNG] == CLAIM_PRIORITY[Claim.KONG]
    assert CLAIM_PRIORITY[Claim.PUNG] > CLAIM_PRIORITY[Claim.CHI]
    assert resolve_claims({0: Claim.CHI, 1: Claim.WIN}) == 1
    assert resolve_claims({0: Claim.PUNG, 1: Claim.CHI}) == 0
    assert resolve_claims({}) is None


def test_win_on_discard_ends_the_hand_with_a_breakdown():
    hand = claim_hand()
    events = hand.apply(Win(1, hand.seq), now=1003.0)
    assert events[-1].kind == "hand_ended"
    result = hand.state.result
    assert result is not None
    assert result["winner"] == 1 and result["self_drawn"] is False
    assert result["win_tile"] == "3m"
    ids = {f["id"] for f in result["fans"]}
    assert "PURE_STRAIGHT" in ids
    assert result["fan_total"] >= 16
    assert hand.state.phase is Phase.ENDED
    assert hand.legal_actions(1) == []
    st = hand.settlement
    assert st is not None and st.winner == 1
    assert st.deltas[1] == st.coins - st.rake and st.deltas[0] == -st.coins


def test_pung_takes_the_discard_and_asks_for_a_discard_without_drawing():
    hand = claim_hand()
    wall = hand.state.wall_count
    hand.apply(Pung(1, hand.seq), now=1003.0)
    s = hand.state
    assert s.phase is Phase.TURN and s.turn == 1
    assert s.wall_count == wall
    assert s.drawn[1] is None
    assert [str(m) for m in s.melds[1]] == ["pung:333m"]
    assert s.discards[0] == []
    assert not any(isinstance(a, Win) for a in hand.legal_actions(1))


def test_chi_melds_the_chosen_sequence():
    hand = claim_hand()
    hand.apply(Chi(1, hand.seq, (T("3m"), T("4m"), T("5m"))), now=1003.0)
    assert [str(m) for m in hand.state.melds[1]] == ["chi:345m"]
    assert hand.state.concealed[1][T("4m").index] == 0


def test_chi_of_a_sequence_not_held_is_illegal_and_changes_nothing():
    hand = claim_hand()
    before = hand.state.snapshot()
    with pytest.raises(IllegalActionError):
        hand.apply(Chi(1, hand.seq, (T("1m"), T("2m"), T("3m"))), now=1003.0)
    assert hand.state.snapshot() == before


def test_pass_declines_the_win_and_draws_from_the_front():
    hand = claim_hand()
    events = hand.apply(Pass(1, hand.seq), now=1003.0)
    names = [e.kind for e in events]
    # mcr has no 胡加倍: the declined win leaves no trace (issue 6)
    assert names == ["pass", "draw", "prompt"]
    assert hand.state.drawn[1] == T("8s").index
    assert hand.state.win_doubles == [0, 0]
    draw = events[1]
    assert draw.for_seat(1)["data"]["tile"] == "8s"
    assert "tile" not in draw.for_seat(0)["data"]


def test_a_discard_nobody_can_claim_still_opens_and_passes_the_window():
    # the same deal, but the dealer throws 9m: seat 1 can do nothing with it
    hand = stacked("mcr", CLAIM_DEALER, CLAIM_OTHER, draws="8s2s")
    start = hand.seq
    events = hand.apply(Discard(0, hand.seq, T("9m")), now=1002.0)
    assert [(e.kind, e.seat) for e in events] == [
        ("discard", 0),
        ("prompt", None),
        ("pass", 1),
        ("draw", 1),
        ("prompt", None),
    ]
    prompt, passed = events[1], events[2]
    assert prompt.payload["phase"] == "claim" and prompt.payload["seats"] == [1]
    assert passed.seq == start + 3
    assert passed.for_seat(0)["data"] == {}  # exactly a seat's own pass
    assert passed.for_seat(1)["data"] == {"auto": True}
    assert passed.action is None  # the engine's move, not seat 1's
    assert hand.state.phase is Phase.TURN and hand.state.turn == 1
    assert hand.state.pending == [False, True]
    # seat 0 sees the same kinds, seats and payloads as when seat 1 could
    # have won, punged or chewed the 3m and passed
    other = claim_hand()
    other.apply(Pass(1, other.seq), now=1003.0)
    seen = [{**e.for_seat(0), "at": 0} for e in hand.events[start:]]
    seen_claim = [{**e.for_seat(0), "at": 0} for e in other.events[start:]]
    for a, b in zip(seen, seen_claim, strict=True):
        if a["kind"] == "discard":
            a["data"] = b["data"] = {}
        if a["kind"] == "prompt":
            a["data"] = {**a["data"], "deadline": 0}
            b["data"] = {**b["data"], "deadline": 0}
    assert seen == seen_claim


def test_kong_on_a_discard_draws_a_replacement_from_the_end():
    hand = stacked("mcr", CLAIM_DEALER, "333m123456789p5m", draws="8s", tail="6p")
    hand.apply(Discard(0, hand.seq, T("3m")), now=1002.0)
    legal = kinds(a for a in hand.legal_actions(1) if a.kind != "auto_play")
    assert legal == ["kong", "pass", "pung"]
    hand.apply(Kong(1, hand.seq), now=1003.0)
    s = hand.state
    assert [str(m) for m in s.melds[1]] == ["kong:3333m"]
    assert s.drawn[1] == T("6p").index  # from the wall's end
    assert s.phase is Phase.TURN and s.after_kong


def test_concealed_kong_hides_its_tile_from_the_opponent():
    hand = stacked("mcr", "11115z159m159p159s", CLAIM_OTHER, tail="2p")
    assert ConcealedKong(0, hand.seq, T("1z")) in hand.legal_actions(0)
    events = hand.apply(ConcealedKong(0, hand.seq, T("1z")), now=1002.0)
    ev = events[0]
    assert ev.kind == "concealed_kong"
    assert ev.for_seat(0)["data"] == {"tile": "1z"}
    assert ev.for_seat(1)["data"] == {}
    assert hand.view(1)["opponent"]["melds"] == [
        {"kind": "concealed_kong", "tiles": None}
    ]
    assert hand.state.drawn[0] == T("2p").index


# seat 1 pungs 5m, then draws the fourth 5m and adds it; seat 0 waits on 5m
ROB_DEALER = "5m7z123456789p46m9m"
ROB_OTHER = "55m13579s12346z2m"


def rob_hand():
    hand = stacked("mcr", ROB_DEALER, ROB_OTHER, draws="9m5m", tail="1p")
    hand.apply(Discard(0, hand.seq, T("5m")), now=1002.0)
    hand.apply(Pung(1, hand.seq), now=1003.0)
    hand.apply(Discard(1, hand.seq, T("1s")), now=1004.0)
    hand.apply(Discard(0, hand.seq, T("7z")), now=1005.0)
    assert AddedKong(1, hand.seq, T("5m")) in hand.legal_actions(1)
    hand.apply(AddedKong(1, hand.seq, T("5m")), now=1006.0)
    return hand


def test_added_kong_can_be_robbed():
    hand = rob_hand()
    assert hand.state.phase is Phase.ROB and hand.state.turn == 0
    assert kinds(hand.legal_actions(0)) == ["auto_play", "pass", "win"]
    hand.apply(Win(0, hand.seq), now=1007.0)
    result = hand.state.result
    assert result is not None and result["winner"] == 0
    assert result["robbed_kong"] is True
    assert "ROBBING_THE_KONG" in {f["id"] for f in result["fans"]}
    assert [str(m) for m in hand.state.melds[1]] == ["pung:555m"]


def test_added_kong_not_robbed_completes_with_a_replacement():
    hand = rob_hand()
    events = hand.apply(Pass(0, hand.seq), now=1007.0)
    assert [e.kind for e in events] == ["pass", "kong_completed", "draw", "prompt"]
    s = hand.state
    assert [str(m) for m in s.melds[1]] == ["kong:5555m"]
    assert s.drawn[1] == T("1p").index
    assert s.phase is Phase.TURN and s.turn == 1


def test_added_kong_nobody_can_rob_still_opens_and_passes_the_window():
    # seat 0 no longer waits on 5m (9m for 6m): the 加杠 cannot be robbed
    dealer = ROB_DEALER.replace("46m", "49m")
    hand = stacked("mcr", dealer, ROB_OTHER, draws="9m5m", tail="1p")
    hand.apply(Discard(0, hand.seq, T("5m")), now=1002.0)
    hand.apply(Pung(1, hand.seq), now=1003.0)
    hand.apply(Discard(1, hand.seq, T("1s")), now=1004.0)
    hand.apply(Discard(0, hand.seq, T("7z")), now=1005.0)
    events = hand.apply(AddedKong(1, hand.seq, T("5m")), now=1006.0)
    assert [(e.kind, e.seat) for e in events] == [
        ("added_kong", 1),
        ("prompt", None),
        ("pass", 0),
        ("kong_completed", 1),
        ("draw", 1),
        ("prompt", None),
    ]
    assert events[1].payload["phase"] == "rob" and events[1].payload["seats"] == [0]
    assert events[2].for_seat(1)["data"] == {}
    # the same kinds as when seat 0 could rob and passed
    robbed = rob_hand()
    start = robbed.seq - 2  # added_kong, prompt
    robbed.apply(Pass(0, robbed.seq), now=1007.0)
    assert [e.kind for e in robbed.events[start:]] == [e.kind for e in events]
    s = hand.state
    assert [str(m) for m in s.melds[1]] == ["kong:5555m"]
    assert s.rob_tile is None
    assert s.phase is Phase.TURN and s.turn == 1


def test_self_drawn_win_on_the_deal():
    hand = stacked("mcr", "11123456778999m", CLAIM_OTHER.replace("3345m", "1z2z3z4z"))
    assert Win(0, hand.seq) in hand.legal_actions(0)
    hand.apply(Win(0, hand.seq), now=1002.0)
    result = hand.state.result
    assert result is not None and result["self_drawn"] is True
    assert "FULL_FLUSH" in {f["id"] for f in result["fans"]}
