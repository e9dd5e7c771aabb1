"""The replay board (games.replay.board) against the engine's own state.

The board only moves the tiles the log says moved; at every decision the
engine's replay (games.engine.walk) knows the truth.  They must agree for
every rule set, with timeouts, 托管, random legal moves (吃, 杠, 换牌, 报听 …)
mixed in by the self-play driver.  No database.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.selfplay import make_chooser, play_hand
from games.engine.walk import walk
from games.replay.board import build_steps, step_of
from games.rules.rulesets import NAMES, get
from games.rules.tiles import Tile


def _melds(hand, seat):
    return sorted(
        (m.kind.value, tuple(sorted(str(t) for t in m.tiles)))
        for m in hand.state.melds[seat]
    )


def _board_melds(side):
    return sorted((m.kind, tuple(sorted(m.tiles))) for m in side["melds"])


def _tiles(side):
    return Counter(side["tiles"] + ([side["drawn"]] if side["drawn"] else []))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["simple", "normal"])
def test_the_board_matches_the_engine_before_every_decision(name, level):
    for i in range(4):
        rng = random.Random(f"{name}-{level}-{i}")
        hand = play_hand(
            get(name),
            f"board-{name}-{i}",
            check=False,
            rng=rng,
            choose=make_chooser(level, random.Random(i)),
            prompt_locked=bool(i % 2),
        )
        events = hand.events
        steps = build_steps(events)
        assert steps[0].kind == "start" and steps[-1].kind == "hand_ended"
        assert [s.index for s in steps] == list(range(len(steps)))
        assert all(a.seq < b.seq for a, b in zip(steps[1:], steps[2:], strict=False))
        first_discard = {0: True, 1: True}
        for point in walk(hand.state.seed, events):
            engine = point.hand
            before = [s for s in steps if s.seq < point.event.seq]
            board = before[-1].board
            for seat in (0, 1):
                side = board["seats"][seat]
                assert _tiles(side) == Counter(str(t) for t in engine.tiles_of(seat))
                assert _board_melds(side) == _melds(engine, seat)
                assert [d.tile for d in side["discards"]] == [
                    str(Tile.from_index(t)) for t in engine.state.discards[seat]
                ]
                assert sorted(side["flowers"]) == sorted(
                    str(Tile.from_index(t)) for t in engine.state.flowers[seat]
                )
                assert side["ready"] == engine.state.ready[seat]
                assert side["auto_play"] == engine.state.auto[seat]
                assert side["swaps"] == engine.state.swaps[seat]
                assert side["win_doubles"] == engine.state.win_doubles[seat]
                if side["drawn"] is not None:
                    drawn = engine.state.drawn[seat]
                    assert drawn is not None and side["drawn"] == str(
                        Tile.from_index(drawn)
                    )
            assert board["wall"] == engine.state.wall_count
            # 摸切: the discard is marked as the drawn tile exactly when it is
            # (the dealer's first discard aside: the deal does not say which of
            # its 14 tiles came last)
            a = point.action
            if a.kind == "discard" and not first_discard[a.seat]:
                after = steps[step_of(steps, point.event.seq)].board
                pool = after["seats"][a.seat]["discards"]
                drawn = engine.state.drawn[a.seat]
                assert pool[-1].drawn == (drawn is not None and drawn == a.tile.index)
            if a.kind == "discard":
                first_discard[a.seat] = False
        # the end: both final hands as the log shows them
        final = steps[-1].board
        payload = events[-1].payload
        for seat in (0, 1):
            assert _tiles(final["seats"][seat]) == Counter(payload["hands"][seat])
        assert final["result"]["winner"] == payload["winner"]


def test_a_log_that_does_not_add_up_still_gives_a_board():
    hand = play_hand(get("erren"), "broken", check=False, rng=random.Random(1))
    events = list(hand.events)
    # drop every discard event: the hands keep growing, nothing crashes
    kept = [e for e in events if e.kind != "discard"]
    steps = build_steps(kept)
    assert steps[-1].kind == "hand_ended"
    with pytest.raises(ValueError):
        build_steps(events[1:])
