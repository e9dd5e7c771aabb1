"""The bots' self-draw shortcut is sound (games.engine.bots.wins).

A bot skips scoring a self-drawn win when the same win on a discard fell
short of the minimum by more than a self-draw can add (``_gain_of``: the
fans that need ``self_drawn``; and when the winning tile can complete a
pung, ``_pung_gain_of``: the concealed-pung fans the hand has room for,
``_pung_room``).  If a fan that a self-draw changes were missing from that
gain, the bot would refuse real wins.  On random winning hands of every rule
set (none to three claimed melds, and 财神 where the rule set has it),
whenever the shortcut would say "short", the rules engine must score the
self-drawn win as no win.
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots.wins import (
    NO_WIN,
    _engine_score,
    _gain_of,
    _pung_gain_of,
    _pung_room,
    _situation,
)
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


def _pung_gain(
    counts: list[int], melds: list[Meld], tile: int, wild: int | None, pungs
) -> int | None:
    """What the shortcut adds for the winning tile's pung (wins._self_draw_short):
    0 when it completes none, ``None`` when the shortcut scores anyway (a
    wild winning tile)."""
    if wild is not None and tile == wild:
        return None
    faces, wilds = split_counts(counts, wild)
    face = wild if wild is not None and tile == WHITE.index != wild else tile
    if faces[face] + wilds < 2:
        return 0
    faces[face] += 1
    return pungs[_pung_room(faces, wilds, melds)]


def _claim_some(rng: random.Random, full: list[int], melds: list[Meld]) -> None:
    """Move up to three of the hand's sets into claimed melds (pungs, chows)."""
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        pungs = [i for i, n in enumerate(full) if n >= 3]
        chows = [
            i
            for i in range(27)
            if i % 9 < 7 and full[i] and full[i + 1] and full[i + 2]
        ]
        if chows and (not pungs or rng.random() < 0.5):
            i = rng.choice(chows)
            for j in (i, i + 1, i + 2):
                full[j] -= 1
            tiles = tuple(Tile.from_index(j) for j in (i, i + 1, i + 2))
            melds.append(Meld(MeldKind.CHI, tiles, claimed=tiles[0]))
        elif pungs:
            i = rng.choice(pungs)
            full[i] -= 3
            tile = Tile.from_index(i)
            melds.append(Meld(MeldKind.PUNG, (tile, tile, tile), claimed=tile))


@pytest.mark.parametrize("name", NAMES)
def test_a_win_the_shortcut_calls_short_is_no_win_self_drawn(name: str) -> None:
    ruleset = get(name)
    kinds = sorted(ruleset.kind_indices)
    suits = set(kinds)
    has_wild = System.WILD in ruleset.systems
    rng = random.Random(name)
    pungs = _pung_gain_of(ruleset)
    checked = with_pung = 0
    for _ in range(3000):
        full = _winning_hand(rng, kinds, suits)
        if full is None:
            continue
        melds: list[Meld] = []
        _claim_some(rng, full, melds)
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
            extra = _pung_gain(standing, melds, tile, wild, pungs)
            if extra is None or short + gain + extra >= ruleset.min_fan:
                continue
            drawn, _ = _engine_score(
                full, melds, _situation(tile, True, *args[1:]), ruleset
            )
            assert drawn == NO_WIN, (name, full, melds, tile, wild, short, gain, extra)
            checked += 1
            with_pung += _pung_gain(standing, melds, tile, wild, (1,) * 5) == 1
    # the shortcut applies where a self-draw can add less than the minimum
    # (jj's 自摸 and 不求人 add 12 of its 8, youxi's 1 of its 1: never)
    if min(_gain_of(ruleset)) < ruleset.min_fan:
        assert checked >= 100, checked
        assert with_pung >= 20, with_pung  # the winning tile's pung, with room
    else:
        assert checked == 0, checked


def test_pung_gain_of_mcr_counts_the_concealed_pung_fans() -> None:
    # 双暗刻 2, 三暗刻 16, 四暗刻 64 (seed 003): room 0 and 1 reach none
    assert _pung_gain_of(get("mcr")) == (0, 0, 2, 16, 64)


def test_pung_room_counts_pungs_the_wilds_can_make() -> None:
    faces = [0] * 34
    faces[0] = 3  # 1m 1m 1m
    faces[9] = 2  # 1p 1p
    faces[18] = 1  # 1s
    claimed = [Meld(MeldKind.CHI, tuple(Tile.from_index(i) for i in (3, 4, 5)))]
    assert _pung_room(faces, 0, []) == 1
    assert _pung_room(faces, 1, []) == 2  # 1p with one wild
    assert _pung_room(faces, 3, []) == 3  # and 1s with two
    assert _pung_room(faces, 6, []) == 4  # and three wilds alone: four sets
    assert _pung_room(faces, 6, claimed) == 3  # one set is claimed
