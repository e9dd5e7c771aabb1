"""The review (复盘): decisions against the hard bot on the seat's own view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.actions import AutoPlay, Discard, Pass, Pung
from games.engine.bots import make_bot
from games.engine.hand import Hand
from games.engine.review import Review, decision_from_json, review_hand
from games.engine.walk import walk
from games.engine.wall import stacked_wall
from games.rules.rulesets import get
from games.rules.tiles import Tile
from tests.engine.helpers import available_rulesets, idx

# The dealer's 14 tiles: 123m 456m 789p 11z 55s and a lone 7z.  Throwing the
# 7z leaves 听牌 on 1z/5s (2 + 2 unseen copies); anything else breaks a set.
DEALER = "123456m789p11z55s7z"
OTHER = "23456p234s6789s9s"


def _hand(dealer: str = DEALER, other: str = OTHER, draws: str = "") -> Hand:
    rs = get("mcr")
    wall = stacked_wall(rs, dealer=idx(dealer), other=idx(other), draws=idx(draws))
    return Hand.new(rs, now=1000.0, seed="review-seed", wall=wall)


def _wall(hand: Hand) -> list[int]:
    return list(hand.state.wall)


def test_known_best_discard_agrees_with_the_bot_and_counts_useful_tiles():
    hand = _hand()
    wall = _wall(hand)
    hand.apply(Discard(0, hand.seq, Tile.parse("7z")), now=1003.0)
    review = review_hand("review-seed", hand.events, wall=wall)
    first = review.decisions[0]
    assert (first.seat, first.phase) == (0, "turn")
    assert first.player.action == {"kind": "discard", "tile": "7z"}
    assert first.bot.action == {"kind": "discard", "tile": "7z"}
    assert first.agreed
    # tenpai on 1z and 5s: two unseen copies of each
    assert (first.player.shanten, first.player.useful) == (0, 4)
    assert (first.bot.shanten, first.bot.useful) == (0, 4)
    assert first.seconds == pytest.approx(3.0)
    assert review.counts(0) == (1, 1)
    assert review.costly(0) == []


def test_a_worse_discard_is_measured_against_the_bots():
    hand = _hand()
    wall = _wall(hand)
    hand.apply(Discard(0, hand.seq, Tile.parse("1m")), now=1001.0)
    review = review_hand("review-seed", hand.events, wall=wall)
    first = review.decisions[0]
    assert first.player.action == {"kind": "discard", "tile": "1m"}
    assert first.bot.action == {"kind": "discard", "tile": "7z"}
    assert not first.agreed
    # 23m 456m 789p 11z 55s 7z: one step from 听牌; 1m/4m (3 unseen each)
    # complete 23m, 7m (4) makes 234m 567m, 1z/5s (2 each) make a pung
    assert (first.player.shanten, first.player.useful) == (1, 14)
    assert (first.bot.shanten, first.bot.useful) == (0, 4)
    assert first.shanten_lost == 1 and first.useful_lost == 0
    assert review.counts(0) == (0, 1)
    assert review.costly(0) == [first]


def test_claim_decisions_are_reviewed_with_the_pung_measured_after_its_discard():
    # seat 1 holds 9s9s; the dealer throws a 9s (in place of the lone 7z)
    hand = _hand(dealer="123456m789p11z55s9s")
    wall = _wall(hand)
    hand.apply(Discard(0, hand.seq, Tile.parse("9s")), now=1001.0)
    assert hand.state.pending[1]
    legal = hand.legal_actions(1)
    assert Pung(1, hand.seq) in legal
    hand.apply(Pass(1, hand.seq), now=1004.5)
    review = review_hand("review-seed", hand.events, wall=wall)
    claim = [d for d in review.decisions if d.seat == 1]
    assert len(claim) == 1
    d = claim[0]
    assert d.phase == "claim"
    assert d.player.action == {"kind": "pass"}
    assert d.bot.action["kind"] in {"pass", "pung"}
    assert d.seconds == pytest.approx(3.5)
    # passing keeps 23456p 234s 6789s 9s: 1 from 听牌 (two sets, 23p/56p/99s …)
    assert d.player.shanten is not None and d.player.useful is not None
    assert d.agreed == (d.bot.action == {"kind": "pass"})


def test_the_bot_sees_only_the_seats_observation():
    """The opponent's hidden tiles do not change the bot's advice."""
    first = []
    for other in (OTHER, "1234p5678p1234s9s"):
        hand = _hand(other=other)
        wall = _wall(hand)
        hand.apply(Discard(0, hand.seq, Tile.parse("2m")), now=1001.0)
        first.append(review_hand("review-seed", hand.events, wall=wall).decisions[0])
    assert first[0] == first[1]


def test_auto_played_and_forced_moves_are_not_reviewed():
    hand = _hand()
    wall = _wall(hand)
    hand.apply(AutoPlay(0, hand.seq, True), now=1001.0)
    # 托管: the seat's moves from here are the server's, not the player's
    while not hand.ended and hand.state.pending[0]:
        hand.apply(hand.default_action(0) or Pass(0, hand.seq), now=1002.0)
    review = review_hand("review-seed", hand.events, wall=wall)
    assert [d for d in review.decisions if d.seat == 0] == []


def test_a_tampered_log_is_refused():
    hand = _hand()
    wall = _wall(hand)
    hand.apply(Discard(0, hand.seq, Tile.parse("7z")), now=1001.0)
    events = list(hand.events)
    draw = next(i for i, e in enumerate(events) if e.kind == "draw")
    real = events[draw].payload["tile"]
    fake = "9m" if real != "9m" else "8m"
    events[draw] = replace(events[draw], payload={**events[draw].payload, "tile": fake})
    with pytest.raises(ValueError, match="differs"):
        review_hand("review-seed", events, wall=wall)
    with pytest.raises(ValueError):
        review_hand("another-seed", hand.events)


def test_decisions_round_trip_through_json():
    hand = _hand()
    wall = _wall(hand)
    hand.apply(Discard(0, hand.seq, Tile.parse("1m")), now=1001.0)
    review = review_hand("review-seed", hand.events, wall=wall)
    assert [decision_from_json(d.to_json()) for d in review.decisions] == (
        review.decisions
    )


@pytest.mark.parametrize("ruleset", available_rulesets())
def test_every_rule_set_reviews_a_bot_hand(ruleset):
    """A whole self-play hand: decisions in order, counts add up, the walk
    stops before every logged action with the hand as the seat saw it."""
    hand = Hand.new(ruleset, now=0.0, seed=f"review-{ruleset}")
    bots = [make_bot("normal", random.Random(1)), make_bot("easy", random.Random(2))]
    t = 0.0
    while not hand.ended:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        t += 1.5
        hand.apply(bots[seat].choose(hand.view(seat), hand.legal_actions(seat)), t)
    review = review_hand(hand.state.seed, hand.events)
    assert isinstance(review, Review)
    seqs = [d.seq for d in review.decisions]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert sum(review.counts(s)[1] for s in (0, 1)) == len(review.decisions) > 0
    for d in review.decisions:
        assert d.player.shanten is None or d.player.shanten >= -1
        assert d.agreed == (d.player.action == d.bot.action)
        assert d.seconds == pytest.approx(1.5)
    points = list(walk(hand.state.seed, hand.events))
    assert [p.event.seq for p in points] == [
        e.seq for e in hand.events[1:] if e.action is not None
    ]


def test_a_swap_is_not_measured_as_a_discard_of_the_same_tile():
    """Issue 12 tester fault 11: 换牌 was reviewed as a discard (shanten of the
    hand minus the tile), ignoring the draw that follows; it has no numbers
    now, so it never counts as a cost, and it is still compared by choice."""
    from games.engine.actions import Swap
    from games.engine.review import outcome

    bots = [make_bot("easy", random.Random(1)), make_bot("easy", random.Random(2))]
    hand = Hand.new("erren", now=0.0, seed="swap-review", shuffle=2)
    t = 0.0
    while not any(isinstance(a, Swap) for s in (0, 1) for a in hand.legal_actions(s)):
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        t += 1
        hand.apply(bots[seat].choose(hand.view(seat), hand.legal_actions(seat)), t)
    seat = next(i for i in (0, 1) if hand.state.pending[i])
    swap = next(a for a in hand.legal_actions(seat) if isinstance(a, Swap))
    unseen = [4] * 34
    swapped = outcome(hand, seat, swap, unseen)
    assert swapped.action["kind"] == "swap"
    assert (swapped.shanten, swapped.useful) == (None, None)
    discard = outcome(
        hand, seat, Discard(seat=seat, seq=swap.seq, tile=swap.tile), unseen
    )
    assert discard.shanten is not None and discard.useful is not None
