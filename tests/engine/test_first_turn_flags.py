"""The hand engine sets 天胡 地胡 人胡 天听 exactly when the seeds say.

Seed 000 (二人麻将 牌型范例及规则结算, ``erren``) and seed 001 (大众番种, ``jj``)
give the same sentences; each test quotes the one it checks and runs in both
rule sets with the set's suit (erren 万, jj 条), on stacked walls.  The flags
are read from the winner's fans in ``hand_ended``; the predicates are in
games/engine/first_turn.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.actions import (
    Action,
    AddedKong,
    ConcealedKong,
    Discard,
    Pass,
    Pung,
    Ready,
    Swap,
    Timeout,
    Win,
)
from games.engine.hand import Hand
from games.engine.state import Phase
from games.rules.rulesets import get
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

both = pytest.mark.parametrize("name", ["erren", "jj"])
SUIT = {"erren": "m", "jj": "s"}
NOW = 1002.0

# the dealer is dealt a complete hand: 123 456 789 东东东 南南
HEAVEN = "123m456m789m111z22z"
HEAVEN_OTHER = "234m567m888m333z4z"
# the non-dealer waits on 白 (5z) alone: 123 789 东东东 西西西 白
OTHER = "123m789m111z333z5z"
# a dealer hand that is not complete and holds the 白 to deal in with
DEALER = "445566m22z44z66z7z5z"
# the same with four 4 to make a concealed kong
DEALER_KONG = "4444m556677m2z6z7z5z"


def deal(name: str, dealer: str, other: str, draws: str = "", tail: str = "") -> Hand:
    s = SUIT[name]
    return stacked(
        name,
        dealer.replace("m", s),
        other.replace("m", s),
        draws=draws.replace("m", s),
        tail=tail.replace("m", s),
    )


def T(name: str, text: str) -> Tile:
    return Tile.parse(text.replace("m", SUIT[name]))


def act(hand: Hand, action: Action) -> None:
    hand.apply(action, now=NOW)


def pass_claims(hand: Hand) -> None:
    """Pass any claim window left open (a seat with a real option)."""
    s = hand.state
    while s.phase is Phase.CLAIM:
        act(hand, Pass(s.turn, hand.seq))


def won(hand: Hand, seat: int) -> dict[str, Any]:
    result = hand.state.result
    assert result is not None and result["winner"] == seat, result
    return {f["id"]: f["count"] for f in result["fans"] if f["counted"]}


# -- 天胡 ---------------------------------------------------------------------


@both
def test_dealer_winning_on_the_deal_scores_heavenly_hand(name):
    # "天胡 庄家在发完牌就和牌"
    hand = deal(name, HEAVEN, HEAVEN_OTHER)
    act(hand, Win(0, hand.seq))
    fans = won(hand, 0)
    assert fans["HEAVENLY_HAND"] == 1
    assert "EARTHLY_HAND" not in fans and "HEAVENLY_READY" not in fans


@both
def test_dealer_winning_after_flower_replacement_scores_heavenly_hand(name):
    # "如果庄家有补花，在补完花后就和牌也算"
    hand = deal(name, "123m456m789m111z2z1f", HEAVEN_OTHER, tail="2z")
    assert hand.state.flowers[0] == [T(name, "1f").index]
    act(hand, Win(0, hand.seq))
    assert won(hand, 0)["HEAVENLY_HAND"] == 1


@both
def test_dealer_winning_after_a_concealed_kong_is_not_heavenly_hand(name):
    # "如果庄家在发完牌后有暗杠，那么不算天和"
    hand = deal(name, "1111m234m567m999m2z", HEAVEN_OTHER, tail="2z")
    act(hand, ConcealedKong(0, hand.seq, T(name, "1m")))
    act(hand, Win(0, hand.seq))
    fans = won(hand, 0)
    assert "HEAVENLY_HAND" not in fans
    assert fans["OUT_WITH_REPLACEMENT_TILE"] == 1


def test_dealer_winning_after_a_swap_is_not_heavenly_hand():
    # 换牌 (erren only): the hand is no longer the one dealt ("发完牌就和牌")
    hand = deal("erren", "123m456m789m111z2z6z", HEAVEN_OTHER, draws="2z")
    act(hand, Swap(0, hand.seq, T("erren", "6z")))
    act(hand, Win(0, hand.seq))
    fans = won(hand, 0)
    assert "HEAVENLY_HAND" not in fans and hand.state.result["self_drawn"]


# -- 地胡 ---------------------------------------------------------------------


@both
def test_non_dealer_winning_on_its_first_draw_scores_earthly_hand(name):
    # "地胡 闲家摸到第一张牌就和牌,称为地和"
    hand = deal(name, DEALER, OTHER, draws="5z")
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    pass_claims(hand)
    act(hand, Win(1, hand.seq))
    fans = won(hand, 1)
    assert fans["EARTHLY_HAND"] == 1 and "HUMAN_HAND" not in fans


@both
def test_non_dealer_winning_after_a_flower_first_draw_scores_earthly_hand(name):
    # "如果闲家抓的第一张牌是花牌，那么补花之后和牌也算地和"
    hand = deal(name, DEALER, OTHER, draws="4f", tail="5z")
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    pass_claims(hand)
    assert hand.state.flowers[1] == [T(name, "4f").index]
    act(hand, Win(1, hand.seq))
    assert won(hand, 1)["EARTHLY_HAND"] == 1


@both
def test_dealers_concealed_kong_before_the_first_draw_voids_earthly_hand(name):
    # "如果闲家抓牌前有人吃碰杠（包括暗杠），那么不算地和"
    hand = deal(name, DEALER_KONG, OTHER, draws="5z", tail="2z")
    act(hand, ConcealedKong(0, hand.seq, T(name, "4m")))
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    pass_claims(hand)
    act(hand, Win(1, hand.seq))
    assert "EARTHLY_HAND" not in won(hand, 1)


@both
def test_a_claim_before_the_first_wall_draw_voids_earthly_hand(name):
    # "有人吃碰杠": the 闲家 pungs the dealer's first discard; its first draw
    # from the wall then completes the hand — not 地胡
    hand = deal(name, "445566m22z44z7z6z5z3z", "123m789m111z66z5z3z", draws="2z5z")
    # dealer discards 6z, the 闲家 pungs it and discards 3z
    act(hand, Discard(0, hand.seq, T(name, "6z")))
    act(hand, Pung(1, hand.seq))
    act(hand, Discard(1, hand.seq, T(name, "3z")))
    pass_claims(hand)
    act(hand, Discard(0, hand.seq, T(name, "2z")))  # the dealer's draw
    pass_claims(hand)
    assert hand.state.draws[1] == 1  # this is the 闲家's first wall draw
    act(hand, Win(1, hand.seq))
    assert "EARTHLY_HAND" not in won(hand, 1)


# -- 人胡 ---------------------------------------------------------------------


@both
def test_win_on_the_dealers_first_discard_scores_human_hand(name):
    # "人胡 庄家打出的第一张牌闲家就和牌称为人和"
    hand = deal(name, DEALER, OTHER)
    act(hand, Discard(0, hand.seq, T(name, "5z")))
    act(hand, Win(1, hand.seq))
    fans = won(hand, 1)
    assert fans["HUMAN_HAND"] == 1
    assert "READY_HAND" not in fans and "HEAVENLY_READY" not in fans


@both
def test_dealers_concealed_kong_before_its_discard_voids_human_hand(name):
    # "如果庄家出牌前有暗杠，那么不算人和"
    hand = deal(name, DEALER_KONG, OTHER, tail="2z")
    act(hand, ConcealedKong(0, hand.seq, T(name, "4m")))
    act(hand, Discard(0, hand.seq, T(name, "5z")))
    act(hand, Win(1, hand.seq))
    assert "HUMAN_HAND" not in won(hand, 1)


@both
def test_win_on_the_dealers_second_discard_is_not_human_hand(name):
    hand = deal(name, DEALER, OTHER, draws="4z2z")
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    pass_claims(hand)
    act(hand, Discard(1, hand.seq, T(name, "4z")))  # the 闲家's draw
    pass_claims(hand)
    act(hand, Discard(0, hand.seq, T(name, "5z")))
    act(hand, Win(1, hand.seq))
    assert "HUMAN_HAND" not in won(hand, 1)


# -- 天听 ---------------------------------------------------------------------


@both
def test_dealers_ready_with_its_first_discard_is_heavenly_ready(name):
    # "庄家打出第一张牌时报听称为天听"
    hand = deal(name, "123m456m789m111z2z7z", HEAVEN_OTHER)
    events = hand.apply(Ready(0, hand.seq, T(name, "7z")), now=NOW)
    assert events[0].kind == "ready" and events[0].payload["heavenly"] is True
    assert hand.state.heavenly_ready[0]


@both
def test_dealers_ready_after_a_concealed_kong_is_not_heavenly_ready(name):
    # "如果庄家在发完牌后有暗杠，则庄家不算天听"
    hand = deal(name, "1111m234m567m999m7z", HEAVEN_OTHER, tail="3z")
    act(hand, ConcealedKong(0, hand.seq, T(name, "1m")))
    events = hand.apply(Ready(0, hand.seq, T(name, "3z")), now=NOW)
    assert events[0].kind == "ready" and events[0].payload["heavenly"] is False
    assert hand.state.ready[0] and not hand.state.heavenly_ready[0]


@both
def test_dealers_ready_with_a_later_discard_is_not_heavenly_ready(name):
    hand = deal(name, "123m456m789m11z2z7z6z", HEAVEN_OTHER, draws="4z1z")
    act(hand, Discard(0, hand.seq, T(name, "6z")))
    pass_claims(hand)
    act(hand, Discard(1, hand.seq, T(name, "4z")))
    pass_claims(hand)
    events = hand.apply(Ready(0, hand.seq, T(name, "7z")), now=NOW)
    assert events[0].payload["heavenly"] is False


@both
def test_non_dealers_ready_right_after_the_deal_is_heavenly_ready(name):
    # "发完牌后闲家便报听也称为天听": the 闲家 declares (no discard) while the
    # dealer is still on its first turn
    hand = deal(name, DEALER, OTHER)
    assert Ready(1, hand.seq, None) in hand.legal_actions(1)
    events = hand.apply(Ready(1, hand.seq, None), now=NOW)
    assert events[0].payload == {"tile": None, "heavenly": True}
    assert hand.state.heavenly_ready[1]


@both
def test_non_dealers_heavenly_ready_then_human_hand_is_ready_first(name):
    # 天听 "发完牌后闲家便报听" + 人胡 "庄家打出的第一张牌闲家就和牌": the win is
    # on the first discard after the 报听, so 报听一发 "报听后，对家打出的第一张牌
    # 点炮" (erren) — the 报听 of 报听一发 is that 天听
    hand = deal(name, DEALER, OTHER)
    act(hand, Ready(1, hand.seq, None))
    act(hand, Discard(0, hand.seq, T(name, "5z")))
    act(hand, Win(1, hand.seq))
    fans = won(hand, 1)
    assert fans["HUMAN_HAND"] == 1 and fans["HEAVENLY_READY"] == 1
    assert "READY_HAND" not in fans  # 天听 implies it (不重复)
    if name == "erren":
        assert fans["READY_FIRST_DISCARD"] == 1


@both
def test_non_dealers_heavenly_ready_then_earthly_hand(name):
    # 天听 "发完牌后闲家便报听" + 地胡 "闲家摸到第一张牌就和牌"
    hand = deal(name, DEALER, OTHER, draws="5z")
    act(hand, Ready(1, hand.seq, None))
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    # a locked seat that cannot win on the discard is passed for at once
    assert hand.state.turn == 1 and hand.state.phase is Phase.TURN
    act(hand, Win(1, hand.seq))
    fans = won(hand, 1)
    assert fans["EARTHLY_HAND"] == 1 and fans["HEAVENLY_READY"] == 1
    assert "READY_FIRST_DISCARD" not in fans


@both
def test_dealers_concealed_kong_keeps_the_non_dealers_heavenly_ready(name):
    # "如果庄家在发完牌后有暗杠，则庄家不算天听" names only the dealer
    hand = deal(name, DEALER_KONG, OTHER, tail="2z")
    act(hand, ConcealedKong(0, hand.seq, T(name, "4m")))
    events = hand.apply(Ready(1, hand.seq, None), now=NOW)
    assert events[0].payload["heavenly"] is True


@both
def test_ready_in_the_claim_window_of_the_first_discard_is_a_plain_ready(name):
    # Issue 11 §5.1: the 闲家 is dealt a waiting hand, the dealer's first
    # discard is its winning tile, and it declares 报听 (no tile) in that
    # claim window.  That is after the dealer's first discard, not "发完牌后
    # 便报听": a plain 报听, and the win on that discard is 人胡 + 报听 —
    # neither 天听 nor 一发 (the discard came before the 报听).  Every
    # evaluation of the seat keeps working.
    hand = deal(name, DEALER, OTHER)
    act(hand, Discard(0, hand.seq, T(name, "5z")))
    assert hand.state.phase is Phase.CLAIM
    assert Ready(1, hand.seq, None) in hand.legal_actions(1)
    events = hand.apply(Ready(1, hand.seq, None), now=NOW)
    assert events[0].payload == {"tile": None, "heavenly": False}
    for seat in (0, 1):
        hand.view(seat)
        hand.legal_actions(seat)
    assert hand.default_action(1) == Win(1, hand.seq)  # 报听 wins on timeout
    hand.apply(Timeout(1, hand.seq), now=hand.state.deadline or NOW)
    fans = won(hand, 1)
    assert fans["HUMAN_HAND"] == 1 and fans["READY_HAND"] == 1
    assert "HEAVENLY_READY" not in fans and "READY_FIRST_DISCARD" not in fans


@both
def test_non_dealers_ready_after_its_first_draw_is_not_heavenly_ready(name):
    hand = deal(name, DEALER, OTHER.replace("5z", "4z"), draws="6z")
    act(hand, Discard(0, hand.seq, T(name, "7z")))
    pass_claims(hand)
    events = hand.apply(Ready(1, hand.seq, T(name, "6z")), now=NOW)
    assert events[0].payload["heavenly"] is False


def test_ready_first_is_not_scored_on_a_robbed_kong():
    # 报听一发 "报听后，对家打出的第一张牌点炮": a discard; robbing an added kong
    # after passing that first discard is not 一发.  erren: the dealer declares
    # 报听 waiting on 5m (kanchan); the 闲家 pungs 5m first, discards once
    # after the 报听, then adds the fourth 5m, which the dealer robs.
    hand = deal(
        "erren", "123m789m111z2z3z46m5m", "55m89m44z66z77z3z23m", draws="2z8m5z5m"
    )
    act(hand, Discard(0, hand.seq, T("erren", "5m")))
    act(hand, Pung(1, hand.seq))
    act(hand, Discard(1, hand.seq, T("erren", "3z")))
    pass_claims(hand)
    act(hand, Ready(0, hand.seq, T("erren", "3z")))  # drew 2z; waits on 5m
    assert hand.state.ready[0] and not hand.state.heavenly_ready[0]
    act(hand, Discard(1, hand.seq, T("erren", "9m")))  # first discard after 报听
    # the dealer cannot win on 9m, draws 5z and discards it (locked)
    pass_claims(hand)
    assert hand.state.turn == 1 and hand.state.drawn[1] == T("erren", "5m").index
    act(hand, AddedKong(1, hand.seq, T("erren", "5m")))
    assert hand.state.phase is Phase.ROB
    act(hand, Win(0, hand.seq))
    fans = won(hand, 0)
    assert fans["ROBBING_THE_KONG"] == 1 and fans["READY_HAND"] == 1
    assert "READY_FIRST_DISCARD" not in fans


# -- every evaluation works, whatever the 报听 timing --------------------------


@both
@pytest.mark.parametrize("seed", [f"first-turn-{i}" for i in range(40)])
def test_random_hands_with_early_ready_never_fail_to_evaluate(name, seed):
    """Random legal play where a seat declares 报听 without a tile whenever it
    may (the 闲家 right after the deal, or in any claim window): listing
    actions, views and default moves never raise, to the end of the hand."""
    import random

    rng = random.Random(seed)
    hand = Hand.new(get(name), now=0.0, seed=seed)
    clock = 0.0
    for _ in range(400):
        if hand.ended:
            break
        clock += 0.5
        early = [
            a
            for seat in (0, 1)
            for a in hand.legal_actions(seat)
            if isinstance(a, Ready) and a.tile is None
        ]
        if early:
            hand.apply(early[0], now=clock)
            continue
        s = hand.state
        seat = next(i for i in (0, 1) if s.pending[i])
        wins = [a for a in hand.legal_actions(seat) if isinstance(a, Win)]
        options = wins or [
            a for a in hand.legal_actions(seat) if not isinstance(a, Ready)
        ]
        hand.apply(rng.choice(options), now=clock)
        for i in (0, 1):
            hand.view(i)
            hand.default_action(i)
    assert hand.ended
