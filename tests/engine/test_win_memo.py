"""The per-event memo of ``HandRules._win_result`` answers as a fresh computation.

A discard's claim options, the seat's legal actions, its timeout default and
its pass each ask "does this tile complete the hand, and for what score?";
the engine answers once per event (issue 15).  These tests wrap the memoised
method during self-played hands of every rule set and compare every answer
with :meth:`HandRules._fresh_win_result` computed at that moment.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.options import HandRules
from games.engine.selfplay import make_chooser, play_hand
from games.rules.rulesets import NAMES
from games.rules.rulesets import get as get_ruleset


def _score_key(result: Any) -> tuple[object, ...] | None:
    if result is None:
        return None
    return (result.win, result.shape, result.minimum_total, result.total)


@pytest.mark.parametrize("name", NAMES)
def test_memoised_win_result_equals_a_fresh_computation(name, monkeypatch):
    memoised = HandRules._win_result
    calls = {"all": 0, "tenpai": 0, "hits": 0, "scored": 0}

    def checked(self, seat, tile, *, self_drawn, robbing=False):
        before = len(self._win_memo)
        got = memoised(self, seat, tile, self_drawn=self_drawn, robbing=robbing)
        fresh = self._fresh_win_result(
            seat, tile, self_drawn=self_drawn, robbing=robbing
        )
        assert _score_key(got) == _score_key(fresh), (seat, tile, self_drawn)
        assert got == fresh
        calls["all"] += 1
        if self._completed_by(seat, tile, self_drawn=self_drawn) is not None:
            calls["tenpai"] += 1  # only these reach the memo
            calls["hits"] += len(self._win_memo) == before
        calls["scored"] += got is not None
        return got

    monkeypatch.setattr(HandRules, "_win_result", checked)
    ruleset = get_ruleset(name)
    rng = random.Random(7)
    choose = make_chooser("normal", random.Random(8))
    for _ in range(6):
        play_hand(
            ruleset,
            f"{rng.getrandbits(128):032x}",
            check=False,
            rng=rng,
            choose=choose,
        )
    assert calls["all"] > 200
    # the memo is used: more than half of the tenpai questions are asked
    # again between two events (55–64 % with these seeds)
    assert calls["hits"] > calls["tenpai"] // 2 > 0
    assert calls["scored"] > 0


def test_memo_is_bounded_and_keyed_by_the_events_that_change_facts():
    ruleset = get_ruleset("mcr")
    rng = random.Random(3)
    hand = play_hand(ruleset, f"{rng.getrandbits(128):032x}", check=False, rng=rng)
    assert 0 < len(hand._win_memo) <= 16
    prompts = sum(1 for ev in hand.events if ev.kind == "prompt")
    assert hand._facts == hand.seq - prompts
    assert max(key[4] for key in hand._win_memo) <= hand._facts
