"""Play whole hands between two bots (benchmarks, tests, practice tables).

Each bot sees only ``Hand.view(seat)`` and ``Hand.legal_actions(seat)``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..hand import Hand
from .base import Bot

BIG_BALANCE = 10**9
"""Balances used by default so the seed 002 coin cap never binds."""


def play_hand(
    ruleset: str,
    seed: str,
    bots: Sequence[Bot],
    *,
    dealer: int = 0,
    timings: list[float] | None = None,
    max_steps: int = 2000,
) -> Hand:
    """Play one hand with ``bots[seat]`` answering for each seat; return it.

    ``timings``, when given, receives the seconds each decision took.

    Raises:
        RuntimeError: the hand did not end within ``max_steps`` actions.
        ActionError: a bot chose an action the engine refused (a bug).
    """
    hand = Hand.new(
        ruleset, now=0.0, seed=seed, dealer=dealer, balances=(BIG_BALANCE, BIG_BALANCE)
    )
    clock = 0.0
    for _ in range(max_steps):
        if hand.ended:
            return hand
        s = hand.state
        seat = next(i for i in (0, 1) if s.pending[i])
        view = hand.view(seat)
        legal = hand.legal_actions(seat)
        if timings is None:
            action = bots[seat].choose(view, legal)
        else:
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            timings.append(time.perf_counter() - start)
        clock += 1.0
        hand.apply(action, now=clock)
    if hand.ended:
        return hand
    raise RuntimeError(f"hand {seed} did not end within {max_steps} actions")


def coin_deltas(hand: Hand) -> tuple[int, int]:
    """Return both seats' 游戏币 change in an ended hand (0, 0 for 流局)."""
    if hand.settlement is None:
        return (0, 0)
    d = hand.settlement.deltas
    return (int(d[0]), int(d[1]))
