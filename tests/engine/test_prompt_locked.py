"""The ``prompt_locked`` hand option: a locked 报听 seat is prompted for its
forced discard instead of the engine making it inside ``apply``."""

from __future__ import annotations

import random

from games.engine.actions import Discard, Ready, Timeout
from games.engine.hand import Hand
from games.engine.selfplay import make_chooser, run
from games.engine.state import Phase
from games.engine.wall import stacked_wall
from games.rules.rulesets import get
from games.rules.tiles import Tile
from tests.engine.helpers import idx, stacked

T = Tile.parse

# erren: the dealer declares 报听 with its first discard (nine gates, any 万 wins)
READY_DEALER = "1112345678999m1z"
READY_OTHER = "22334455z67z258m"


def locked_hand(draws: str = "3z6z4z", **kwargs: object) -> Hand:
    """Seat 0 declares 报听 discarding 1z; seat 1 discards 7z; seat 0 draws."""
    hand = stacked("erren", READY_DEALER, READY_OTHER, draws=draws, **kwargs)
    hand.apply(Ready(0, hand.seq, T("1z")), now=1002.0)
    hand.apply(Discard(1, hand.seq, T("7z")), now=1003.0)
    return hand


def test_locked_seat_is_prompted_for_its_drawn_tile():
    hand = locked_hand(prompt_locked=True)
    s = hand.state
    assert hand.events[0].payload["prompt_locked"] is True
    # seat 0 drew 6z, cannot win or kong: asked, not discarded for
    assert s.phase is Phase.TURN and s.turn == 0 and s.pending == [True, False]
    assert s.drawn[0] == T("6z").index
    assert hand.events[-1].kind == "prompt"
    assert hand.events[-1].payload["seats"] == [0]
    assert s.deadline == 1003.0 + hand.ruleset.timers.discard
    assert not [e for e in hand.events if e.kind == "discard" and e.seat == 0][1:]
    forced = Discard(0, hand.seq, T("6z"))
    assert sorted(a.kind for a in hand.legal_actions(0)) == ["auto_play", "discard"]
    assert forced in hand.legal_actions(0)
    assert hand.locked_discard(0) == forced
    assert hand.default_action(0) == forced
    assert hand.locked_discard(1) is None
    with_other = Discard(0, hand.seq, T("9m"))
    assert with_other not in hand.legal_actions(0)
    events = hand.apply(forced, now=1004.0)
    assert events[0].kind == "discard" and events[0].payload == {
        "tile": "6z",
        "auto": False,
    }
    # one discard per apply: seat 1 (not locked) is asked next
    assert [e.kind for e in events].count("discard") == 1
    assert hand.state.turn == 1 and hand.state.pending == [False, True]


def test_locked_seat_timeout_discards_the_drawn_tile():
    hand = locked_hand(prompt_locked=True)
    deadline = hand.state.deadline
    assert deadline is not None
    events = hand.apply(Timeout(0, hand.seq), now=deadline)
    assert [e.kind for e in events[:2]] == ["timeout", "discard"]
    assert events[1].seat == 0 and events[1].payload == {"tile": "6z", "auto": False}


def test_locked_seat_that_can_win_is_asked_as_without_the_option():
    for prompt_locked in (False, True):
        hand = locked_hand(draws="3z1m", prompt_locked=prompt_locked)
        # 1m completes the nine gates: win or discard, no forced move
        assert hand.state.pending[0]
        assert hand.locked_discard(0) is None
        assert sorted(a.kind for a in hand.legal_actions(0)) == [
            "auto_play",
            "discard",
            "win",
        ]


def test_without_the_option_the_engine_discards_and_the_log_has_no_key():
    hand = locked_hand()
    assert "prompt_locked" not in hand.events[0].payload
    auto = [e for e in hand.events if e.kind == "discard" and e.seat == 0]
    assert auto[-1].payload == {"tile": "6z", "auto": True}
    assert hand.state.turn == 1 and hand.state.pending == [False, True]


def test_prompted_hand_replays_identically_from_its_log():
    wall = stacked_wall(
        get("erren"),
        dealer=idx(READY_DEALER),
        other=idx(READY_OTHER),
        draws=idx("3z6z4z"),
    )
    hand = locked_hand(prompt_locked=True)  # the same wall, via stacked()
    hand.apply(Discard(0, hand.seq, T("6z")), now=1004.0)
    again = Hand.replay("test-seed", hand.events, wall=wall)
    assert again.prompt_locked is True
    assert again.events == hand.events
    assert again.state.snapshot() == hand.state.snapshot()
    # a prefix up to the locked prompt stops there, the seat still asked
    cut = next(
        i
        for i, e in enumerate(hand.events)
        if e.kind == "discard" and e.payload["tile"] == "6z"
    )
    part = Hand.replay("test-seed", hand.events[:cut], wall=wall)
    assert part.state.pending == [True, False] and part.locked_discard(0) is not None


def _play(seed: str, prompt_locked: bool) -> tuple[Hand, int, int]:
    """A bot-vs-bot erren hand; returns it, the most discards one ``apply``
    made that left both seats locked, and the forced discards prompted then."""
    choose = make_chooser("normal", random.Random(2))
    hand = Hand.new("erren", now=0.0, seed=seed, prompt_locked=prompt_locked)
    most = prompted = 0
    clock = 0.0
    while not hand.ended:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        both = all(hand.state.ready)
        if both and hand.locked_discard(seat) is not None:
            prompted += 1
        clock += 1.0
        events = hand.apply(choose(hand, seat), now=clock)
        if all(hand.state.ready):  # both locked by the end of this apply
            most = max(most, sum(e.kind == "discard" for e in events))
    return hand, most, prompted


def test_two_locked_seats_play_one_discard_per_apply_and_replay():
    both = 0
    for i in range(40):
        seed = f"s{i}"
        hand, most, prompted = _play(seed, prompt_locked=True)
        assert not [e for e in hand.events if e.kind == "discard" and e.payload["auto"]]
        again = Hand.replay(seed, hand.events)
        assert again.events == hand.events and again.ended
        assert most <= 1, (seed, most)
        if prompted >= 2:  # rounds with both seats locked, one per apply
            both += 1
    assert both >= 3  # the seeds do reach two locked seats


def test_without_the_option_two_locked_seats_play_out_in_one_apply():
    # the behaviour prompt_locked exists for (and which stays the default)
    assert any(_play(f"s{i}", prompt_locked=False)[1] > 1 for i in range(40))


def test_selfplay_with_prompt_locked_passes_every_check():
    summary = run("erren", 6, 3, check=True, prompt_locked=True)
    assert summary["errors"] == 0, summary.get("first_errors")
    assert summary["prompt_locked"] is True and summary["hands"] == 6
