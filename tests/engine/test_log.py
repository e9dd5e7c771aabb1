"""Actions' JSON round trip, events' visibility, the fair wall and replay."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest

from games.engine.actions import (
    ACTION_TYPES,
    Chi,
    Discard,
    Ready,
    action_from_json,
)
from games.engine.errors import InvalidActionError
from games.engine.events import Event, new_event, seat_set
from games.engine.hand import Hand
from games.engine.selfplay import play_hand
from games.engine.wall import build_wall, commitment
from games.rules.rulesets import get
from games.rules.tiles import Tile


def test_every_action_kind_round_trips_through_json():
    samples = {
        "discard": {"tile": "5m"},
        "chi": {"tiles": ["3p", "4p", "5p"]},
        "concealed_kong": {"tile": "1z"},
        "added_kong": {"tile": "9s"},
        "ready": {"tile": None},
        "swap": {"tile": "2m"},
        "pre_deal": {"open_hand": True, "double": False},
        "double": {"double": True},
        "auto_play": {"on": False},
    }
    for kind in ACTION_TYPES:
        data = {"kind": kind, "seat": 1, "seq": 7, **samples.get(kind, {})}
        action = action_from_json(data)
        assert action.kind == kind
        assert action.to_json() == data
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "fly", "seat": 0, "seq": 1},
        {"kind": "discard", "seat": 0, "seq": 1},
        {"kind": "discard", "seat": 2, "seq": 1, "tile": "5m"},
        {"kind": "discard", "seat": 0, "seq": -1, "tile": "5m"},
        {"kind": "discard", "seat": 0, "seq": "1", "tile": "5m"},
        {"kind": "discard", "seat": 0, "seq": 1, "tile": "0m"},
        {"kind": "discard", "seat": 0, "seq": 1, "tile": "5m", "extra": 1},
        {"kind": "chi", "seat": 0, "seq": 1, "tiles": ["3p"]},
        {"kind": "double", "seat": 0, "seq": 1, "double": "yes"},
        ["not", "a", "dict"],
    ],
)
def test_malformed_actions_are_invalid(data):
    with pytest.raises(InvalidActionError):
        action_from_json(data)  # type: ignore[arg-type]


def test_chi_tiles_are_sorted_and_ready_tile_is_optional():
    chi = Chi(0, 1, (Tile.parse("5p"), Tile.parse("3p"), Tile.parse("4p")))
    assert [str(t) for t in chi.tiles] == ["3p", "4p", "5p"]
    assert Ready(0, 1).to_json() == {"kind": "ready", "seat": 0, "seq": 1, "tile": None}


def test_the_wall_is_the_seeded_shuffle_and_the_commitment_its_hash():
    rs = get("erren")
    a, _ = build_wall(rs, "abc")
    b, _ = build_wall(rs, "abc")
    c, _ = build_wall(rs, "abd")
    assert a == b and a != c and len(a) == rs.wall_size == 72
    assert commitment("abc") == hashlib.sha256(b"erren2-wall-v2:abc").hexdigest()
    assert commitment("abc", 1) == hashlib.sha256(b"erren2:abc").hexdigest()
    hand = Hand.new(rs, now=0.0, seed="abc")
    assert hand.state.wall == a
    assert hand.events[0].payload["shuffle"] == 2


@pytest.mark.parametrize("name", ["erren", "mcr", "liangren"])
def test_seed_is_committed_first_and_revealed_only_at_the_end(name):
    hand = play_hand(get(name), "0123456789abcdef", check=False, rng=random.Random(3))
    first, last = hand.events[0], hand.events[-1]
    assert first.payload["commitment"] == commitment("0123456789abcdef")
    assert last.kind == "hand_ended" and last.payload["seed"] == "0123456789abcdef"
    for ev in hand.events[:-1]:
        assert "0123456789abcdef" not in json.dumps(ev.to_json())
        for seat in (0, 1):
            assert "0123456789abcdef" not in json.dumps(ev.for_seat(seat))


@pytest.mark.parametrize("seed", ["s1", "s2", "s3"])
def test_replay_rebuilds_every_step_and_refuses_a_wrong_seed(seed):
    rs = get("erren")
    hand = play_hand(rs, seed, check=True, rng=random.Random(seed))
    again = Hand.replay(seed, hand.events)
    assert again.events == hand.events
    assert again.state.snapshot() == hand.state.snapshot()
    # a prefix gives the state at that step
    cut = len(hand.events) // 2
    part = Hand.replay(seed, hand.events[:cut])
    assert part.events[:cut] == hand.events[:cut]
    with pytest.raises(ValueError):
        Hand.replay("not-the-seed", hand.events)


def test_event_log_round_trips_through_json():
    hand = play_hand(get("jj"), "log", check=False, rng=random.Random(1))
    for ev in hand.events:
        assert Event.from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_private_events_show_the_opponent_only_the_redacted_form():
    hand = Hand.new(get("mcr"), now=0.0, seed="vis")
    deal = next(e for e in hand.events if e.kind == "deal" and e.seat == 0)
    assert len(deal.for_seat(0)["data"]["tiles"]) == 14
    assert deal.for_seat(1)["data"] == {"count": 14}
    assert deal.for_seat(None)["data"] == {"count": 14}
    assert deal.for_seat(1)["seq"] == deal.for_seat(0)["seq"] == deal.seq


def test_discard_is_public():
    hand = Hand.new(get("mcr"), now=0.0, seed="pub")
    tile = Tile(hand.state.drawn[0] or 0)
    events = hand.apply(Discard(0, hand.seq, tile), now=1.0)
    assert events[0].for_seat(1)["data"] == {"tile": str(tile), "auto": False}


def test_event_seat_sets_are_shared_and_round_trip():
    """visible_to sets are shared per combination (fewer objects for the GC)."""
    from games.engine.events import seat_set

    hand = play_hand(
        get("erren"), "shared-seat-sets", check=False, rng=random.Random(5)
    )
    sets = {id(e.visible_to) for e in hand.events}
    assert len(sets) <= 3  # {0, 1}, {0}, {1}
    for ev in hand.events:
        back = Event.from_json(json.loads(json.dumps(ev.to_json())))
        assert back == ev and back.visible_to is ev.visible_to
    assert seat_set([1, 0, 1]) is seat_set((0, 1))
    assert seat_set([2]) == frozenset({2})


def test_new_event_is_the_same_frozen_event_as_the_constructor() -> None:
    args = (7, "discard", 1, {"tile": "5m"}, {"tile": "5m"}, seat_set((1,)), 2.5, None)
    made = new_event(*args)
    assert type(made) is Event
    assert made == Event(*args)
    assert repr(made) == repr(Event(*args))
    assert made.for_seat(0) == {
        "seq": 7,
        "kind": "discard",
        "seat": 1,
        "data": {"tile": "5m"},
        "at": 2.5,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seq = 8  # type: ignore[misc]


def test_a_tampered_discard_is_named_by_seq_field_and_both_tiles():
    """Fresh tester: a discard's tile changed in an exported file was only
    "replay differs from the log at seq 12"; the error now carries where and
    what, for the replay page to say in words (both replays say the same)."""
    from games.engine.errors import LogMismatchError
    from games.engine.walk import walk

    seed = "tamper-1"
    hand = play_hand(get("erren"), seed, check=False, rng=random.Random(1))
    events = list(hand.events)
    i = [k for k, e in enumerate(events) if e.kind == "discard"][2]
    was = str(events[i].payload["tile"])
    now = "9m" if was != "9m" else "8m"
    events[i] = dataclasses.replace(
        events[i], payload={**events[i].payload, "tile": now}
    )
    for replay in (
        lambda: Hand.replay(seed, events),
        lambda: list(walk(seed, events)),
    ):
        with pytest.raises(LogMismatchError) as got:
            replay()
        wrong = got.value
        assert (wrong.seq, wrong.kind, wrong.field) == (
            events[i].seq,
            "discard",
            "payload.tile",
        )
        assert (wrong.logged, wrong.replayed) == (now, was)
