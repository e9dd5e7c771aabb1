"""The bots' self-draw shortcut is sound (games.engine.bots.wins).

A bot skips scoring a self-drawn win when the same win on a discard fell
short of the minimum by more than a self-draw can add (``_gain_of``: the
fans that need ``self_drawn``) and the winning tile completes no pung.  If a
fan that a self-draw changes were missing from that gain, the bot would
refuse real wins.  On random winning hands of every rule set (none, one
claimed meld, and 财神 where the rule set has it), whenever the shortcut
would say "short", the rules engine must score the self-drawn win as no win.
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots.wins import NO_WIN, _engine_score, _gain_of, _situation
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets import NAMES, System, get
from games.rules.tiles import Tile
from games.rules.wild_scoring import WHITE, split_counts

EAST = Tile.parse("1z").index


def _winning_hand(rng: random.Random, kinds: list[int], suits: set[int]):
    """14 counts of four sets and a pair drawn from ``kinds``, or None."""
    counts = [0] * 34
    for _ in range(4):
        start = rng.choice(kinds)
        if start < 27 and start % 9 < 7 and start + 2 in suits and rng.random() < 0.6:
            for i in (start, start + 1, start + 2):
                counts[i] += 1
        else:
            counts[start] += 3
    counts[rng.choice(kinds)] += 2
    return counts if max(counts) <= 4 else None


def _no_pung(counts: list[int], tile: int, wild: int | None) -> bool:
    """The shortcut's second condition (wins._self_draw_short)."""
    if wild is None:
        return counts[tile] < 2
    if tile == wild:
        return False
    faces, wilds = split_counts(counts, wild)
    return (
        faces[wild if tile == WHITE.index and wild != WHITE.index else tile] + wilds < 2
    )


@pytest.mark.parametrize("name", NAMES)
def test_a_win_the_shortcut_calls_short_is_no_win_self_drawn(name: str) -> None:
    ruleset = get(name)
    kinds = sorted(ruleset.kind_indices)
    suits = set(kinds)
    has_wild = System.WILD in ruleset.systems
    rng = random.Random(name)
    checked = 0
    for _ in range(1500):
        full = _winning_hand(rng, kinds, suits)
        if full is None:
            continue
        melds: list[Meld] = []
        pungs = [i for i, n in enumerate(full) if n >= 3]
        if pungs and rng.random() < 0.4:  # one claimed pung
            i = rng.choice(pungs)
            full[i] -= 3
            tile = Tile.from_index(i)
            melds.append(Meld(MeldKind.PUNG, (tile, tile, tile), claimed=tile))
        wild = rng.choice(kinds) if has_wild and rng.random() < 0.5 else None
        if wild is not None and any(t.index == wild for m in melds for t in m.tiles):
            wild = None  # 财神 is never in a claimed meld (seed 002)
        gain = _gain_of(ruleset)[1 if melds else 0]
        for tile in sorted({i for i, n in enumerate(full) if n}):
            standing = list(full)
            standing[tile] -= 1
            args = (tile, EAST, EAST, (), False, wild, None)
            on_discard, short = _engine_score(
                full, melds, _situation(tile, False, *args[1:]), ruleset
            )
            if on_discard != NO_WIN or short + gain >= ruleset.min_fan:
                continue
            if not _no_pung(standing, tile, wild):
                continue
            drawn, _ = _engine_score(
                full, melds, _situation(tile, True, *args[1:]), ruleset
            )
            assert drawn == NO_WIN, (name, full, melds, tile, wild, short, gain)
            checked += 1
    # the shortcut applies where a self-draw can add less than the minimum
    # (jj's 自摸 and 不求人 add 12 of its 8, youxi's 1 of its 1: never)
    if min(_gain_of(ruleset)) < ruleset.min_fan:
        assert checked >= 50, checked
    else:
        assert checked == 0, checked
