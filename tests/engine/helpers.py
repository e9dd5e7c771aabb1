"""Helpers for engine tests: stacked walls in tile notation, quick starts."""

from __future__ import annotations

import importlib

from games.engine.actions import PreDeal
from games.engine.hand import Hand
from games.engine.wall import stacked_wall
from games.rules.rulesets import NAMES, get
from games.rules.tiles import parse_tiles


def available_rulesets() -> list[str]:
    """Rule sets whose module exists (all six once every helper has landed)."""
    out = []
    for name in NAMES:
        try:
            importlib.import_module(f"games.rules.rulesets.{name}")
        except ImportError:
            continue
        out.append(name)
    return out


def idx(text: str) -> list[int]:
    return [t.index for t in parse_tiles(text)]


def stacked(
    ruleset: str,
    dealer: str,
    other: str,
    draws: str = "",
    tail: str = "",
    *,
    answer_pre_deal: bool = True,
    **kwargs: object,
) -> Hand:
    """A hand of ``ruleset`` dealt from a stacked wall (tile notation)."""
    rs = get(ruleset)
    wall = stacked_wall(
        rs, dealer=idx(dealer), other=idx(other), draws=idx(draws), tail=idx(tail)
    )
    hand = Hand.new(rs, now=1000.0, seed="test-seed", wall=wall, **kwargs)  # type: ignore[arg-type]
    if answer_pre_deal and hand.state.phase.value == "pre_deal":
        for seat in (0, 1):
            hand.apply(PreDeal(seat, hand.seq), now=1001.0)
    return hand
