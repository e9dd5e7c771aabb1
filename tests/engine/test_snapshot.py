"""A hand loaded from its snapshot plays on exactly as the hand it came from."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.actions import AutoPlay, Discard, Timeout
from games.engine.hand import Hand
from games.engine.selfplay import simple_choose
from games.engine.snapshot import (
    SnapshotError,
    SpentRandom,
    events_from_rows,
    events_to_rows,
    hand_from_snapshot,
    hand_to_snapshot,
    recent_events,
)
from games.engine.state import Phase
from games.rules.rulesets import NAMES


def _round_trip(hand: Hand) -> Hand:
    """The hand as the table loads it: snapshot and recent events through JSON."""
    data = json.loads(json.dumps(hand_to_snapshot(hand)))
    rows = json.loads(json.dumps(events_to_rows(recent_events(hand))))
    return hand_from_snapshot(data, events_from_rows(rows))


def _last_discard(hand: Hand) -> int | None:
    return next((e.seq for e in reversed(hand.events) if e.kind == "discard"), None)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("hand_no", range(3))
def test_a_hand_loaded_from_its_snapshot_applies_every_action_alike(name, hand_no):
    rng = random.Random(f"{name}-{hand_no}")
    live = Hand.new(
        name,
        now=1000.0,
        seed=f"{rng.getrandbits(128):032x}",
        dealer=hand_no % 2,
        balances=(rng.randint(0, 3000), 2000),
        prompt_locked=True,
        turn_from_discard=True,
    )
    clock = 1000.0
    steps = 0
    full = Hand.replay(live.state.seed, live.events)  # holds the whole log
    while not live.ended:
        steps += 1
        assert steps < 2000
        loaded = _round_trip(live)
        assert hand_to_snapshot(loaded) == hand_to_snapshot(live)
        assert loaded.state.snapshot() == live.state.snapshot()
        s = live.state
        seat = next(i for i in (0, 1) if s.pending[i])
        roll = rng.random()
        if roll < 0.04:
            action = AutoPlay(seat, s.seq, not s.auto[seat])
        elif roll < 0.14:
            action = Timeout(seat, s.seq)
            clock = max(clock, s.deadline or clock)
        elif roll < 0.3:
            action = rng.choice(live.legal_actions(seat))
        else:
            action = simple_choose(live, seat)
        clock += rng.choice((0.2, 3.0, 9.0))
        assert loaded.legal_actions(seat) == live.legal_actions(seat)
        assert loaded.view(seat) == live.view(seat)
        # it holds what frames and the veil read: the last discard, the
        # event before it and everything since
        last = _last_discard(full)
        start = 0 if last is None else max(0, last - 2)
        assert loaded.events_after(start) == full.events_after(start)
        assert loaded.events[-40:] == full.events[-len(loaded.events[-40:]) :]
        if last is not None:
            assert loaded.event_at(last) == full.event_at(last)
            assert loaded.event_at(last - 1) == full.event_at(last - 1)
        assert len(loaded.events) == len(full.events_after(start))  # no more
        # the live hand goes on with the one loaded from the snapshot
        assert loaded.apply(action, now=clock) == live.apply(action, now=clock)
        full.apply(action, now=clock)
        live = loaded
    assert hand_to_snapshot(full) == hand_to_snapshot(live)
    assert recent_events(full) == recent_events(live)
    assert full.events[-len(live.events) :] == live.events
    assert hand_to_snapshot(_round_trip(live)) == hand_to_snapshot(live)


def test_a_dealt_hand_has_no_generator_left():
    hand = Hand.new("erren", now=0.0, seed="ab" * 16)
    for seat in (0, 1):  # erren asks 开始加倍 before the deal
        hand.apply(hand.default_action(seat), now=1.0)
    assert hand.state.phase is not Phase.PRE_DEAL
    loaded = _round_trip(hand)
    assert isinstance(loaded._rng, SpentRandom)
    with pytest.raises(RuntimeError):
        loaded._rng.choice([1, 2])
    for draw in (
        loaded._rng.random,
        lambda: loaded._rng.randrange(10),
        lambda: loaded._rng.shuffle([1, 2, 3]),
        lambda: loaded._rng.getrandbits(8),
    ):
        with pytest.raises(RuntimeError):
            draw()


def test_a_loaded_hand_shares_no_list_with_its_snapshot():
    """The snapshot dict the hand was loaded from stays as it was while the
    hand plays on (the table row keeps it as the ROB veil's older state,
    games.services.hands): every list of the state is the hand's own."""

    def play(hand: Hand, clock: float) -> None:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        hand.apply(simple_choose(hand, seat), now=clock)

    hand = Hand.new("erren", now=0.0, seed="cd" * 16)
    clock = 0.0
    while hand.state.phase is Phase.PRE_DEAL or hand.seq < 12:
        clock += 1.0
        play(hand, clock)
    data = json.loads(json.dumps(hand_to_snapshot(hand)))
    rows = json.loads(json.dumps(events_to_rows(recent_events(hand))))
    before = json.dumps(data)
    loaded = hand_from_snapshot(data, events_from_rows(rows))
    for _ in range(30):
        if loaded.ended:
            break
        clock += 1.0
        play(loaded, clock)
    assert loaded.seq > hand.seq
    assert json.dumps(data) == before


def test_a_hand_before_its_deal_gets_its_generator_from_the_seed():
    # liangren asks 明牌 before the deal; 加番牌/财神 come from the generator
    seed = "cd" * 16
    live = Hand.new("liangren", now=0.0, seed=seed, turn_from_discard=True)
    assert live.state.phase is Phase.PRE_DEAL
    loaded = _round_trip(live)
    for hand in (live, loaded):
        for seat in (0, 1):
            hand.apply(hand.default_action(seat), now=5.0)
    assert loaded.events == live.events
    assert hand_to_snapshot(loaded) == hand_to_snapshot(live)


def test_a_snapshot_of_another_version_or_seq_is_refused():
    hand = Hand.new("erren", now=0.0, seed="ef" * 16)
    data = hand_to_snapshot(hand)
    with pytest.raises(SnapshotError):
        hand_from_snapshot({**data, "v": 0}, hand.events)
    with pytest.raises(SnapshotError):
        hand_from_snapshot(data, hand.events[:-1])
    with pytest.raises(SnapshotError):
        hand_from_snapshot({**data, "state": {}}, hand.events)


def test_the_snapshot_is_plain_json():
    hand = Hand.new("erren", now=0.0, seed="01" * 16)
    for seat in (0, 1):
        hand.apply(hand.default_action(seat), now=1.0)
    seat = hand.state.turn
    hand.apply(
        next(a for a in hand.legal_actions(seat) if isinstance(a, Discard)), now=1.0
    )
    data = hand_to_snapshot(hand)
    assert json.loads(json.dumps(data)) == data
    assert data["seq"] == hand.seq


def test_the_log_round_trips_through_compact_rows():
    hand = Hand.new("liangren", now=0.0, seed="23" * 16)
    for seat in (0, 1):
        hand.apply(hand.default_action(seat), now=1.0)
    rows = json.loads(json.dumps(events_to_rows(hand.events)))
    assert events_from_rows(rows) == hand.events
    with pytest.raises(SnapshotError):
        events_from_rows([[1, "x"]])


def test_a_loaded_hand_holds_its_recent_events_only():
    hand = Hand.new("erren", now=0.0, seed="45" * 16, turn_from_discard=True)
    for seat in (0, 1):
        hand.apply(hand.default_action(seat), now=1.0)
    assert recent_events(hand) == hand.events  # no discard yet: the whole log
    for k in range(6):  # one move a second: each discard a write of its own
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        hand.apply(simple_choose(hand, seat), now=2.0 + k)
    last = _last_discard(hand)
    assert last is not None
    kept = recent_events(hand)
    assert kept[0].seq == last - 1 and kept[-1].seq == hand.seq
    loaded = _round_trip(hand)
    assert loaded.log_from == last - 2
    assert loaded.event_at(last - 1) == hand.event_at(last - 1)
    assert loaded.event_at(last - 2) is None
    assert loaded.events_after(hand.seq) == []
    with pytest.raises(LookupError):
        loaded.events_after(last - 3)
    gap = json.loads(json.dumps(hand_to_snapshot(hand)))
    with pytest.raises(SnapshotError):  # not consecutive
        hand_from_snapshot(gap, [kept[0], *kept[2:]])


def test_a_snapshot_keeps_the_discard_answered_in_the_same_write():
    """A bot answers a timed-out discard at once (the same ``at``): the
    snapshot keeps both discards, so the frame can still show the timeout
    notice of the first (games.presenters.events.timeout_notice)."""
    hand = Hand.new("erren", now=0.0, seed="45" * 16, turn_from_discard=True)
    for seat in (0, 1):
        hand.apply(hand.default_action(seat), now=1.0)
    discards: list[int] = []
    while len(discards) < 3:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        at = 3.0 if len(discards) >= 1 else 2.0  # the 2nd and 3rd: one write
        hand.apply(simple_choose(hand, seat), now=at)
        discards = [e.seq for e in hand.events if e.kind == "discard"]
    kept = recent_events(hand)
    assert kept[0].seq == discards[1] - 1 and kept[-1].seq == hand.seq
    assert _round_trip(hand).event_at(discards[1]) == hand.event_at(discards[1])
