"""The 财神 scorer's per-score work, held to what it replaced (issue 15).

``wild_scoring._check_claimed`` and ``meld_faces`` once looked at every tile
of every meld (a generator per meld, on every score of a 财神 hand); they,
and the meld counts ``_meld_counts``, now read a meld's kind and first tile,
which a Meld's own checks make enough (sorted tiles; a chi a run of one
suit, any other meld one kind).  ``_enumerate`` makes the wilds'
assignments by one recursion into a list instead of a generator per wild.
These tests hold each to the old reading: every meld of every kind for
every wild kind, and random hands with wilds for the enumeration.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.rules import wild_scoring
from games.rules.errors import InvalidHandError
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets import get as get_ruleset
from games.rules.shanten import Shape, kinds_below
from games.rules.tiles import ALL_TILES, NUM_KINDS, Tile
from games.rules.waits import waits


def _every_meld() -> list[Meld]:
    out = []
    for k in range(NUM_KINDS):
        t = ALL_TILES[k]
        out.append(Meld(MeldKind.PUNG, (t, t, t), t))
        out.append(Meld(MeldKind.KONG, (t, t, t, t), t))
        out.append(Meld(MeldKind.CONCEALED_KONG, (t, t, t, t)))
        if k < 27 and k % 9 <= 6:
            run = ALL_TILES[k : k + 3]
            for claimed in run:
                out.append(Meld(MeldKind.CHI, run, claimed))
    return out


def _old_refuses(melds: list[Meld], wild: Tile) -> bool:
    """The tile-by-tile test of a claimed meld holding the wild kind."""
    wi = wild.index
    return any(
        not m.is_concealed and any(t.index == wi for t in m.tiles) for m in melds
    )


def _old_faces(melds: list[Meld], wild: Tile) -> list[Meld]:
    """``meld_faces`` tile by tile."""
    white = wild_scoring.WHITE.index
    if wild.index == white:
        return list(melds)
    out = []
    for m in melds:
        if any(t.index == white for t in m.tiles):
            claimed = (
                wild_scoring.face(m.claimed, wild) if m.claimed is not None else None
            )
            out.append(
                Meld(
                    m.kind, tuple(wild_scoring.face(t, wild) for t in m.tiles), claimed
                )
            )
        else:
            out.append(m)
    return out


@pytest.mark.parametrize("wild", range(NUM_KINDS))
def test_claimed_meld_check_is_the_tile_by_tile_one(wild: int) -> None:
    w = ALL_TILES[wild]
    refused = 0
    for m in _every_meld():
        old = _old_refuses([m], w)
        try:
            wild_scoring._check_claimed([m], w)
        except InvalidHandError:
            refused += 1
            assert old, m
        else:
            assert not old, m
    # its pung and kong, and each chi through it (three claimed tiles each)
    runs = [
        s
        for s in range(wild - 2, wild + 1)
        if wild < 27 and s >= 0 and s // 9 == wild // 9 and s % 9 <= 6
    ]
    assert refused == 2 + 3 * len(runs)


@pytest.mark.parametrize("wild", range(NUM_KINDS))
def test_meld_faces_are_the_tile_by_tile_ones(wild: int) -> None:
    w = ALL_TILES[wild]
    melds = _every_meld()
    got = wild_scoring.meld_faces(melds, w)
    assert got == _old_faces(melds, w)
    changed = sum(1 for a, b in zip(got, melds, strict=True) if a is not b)
    assert changed == (0 if wild == wild_scoring.WHITE.index else 3)


def test_meld_counts_are_the_tile_by_tile_counts() -> None:
    melds = _every_meld()
    for m in melds:
        want = [0] * NUM_KINDS
        for t in m.tiles:
            want[t.index] += 1
        assert wild_scoring._meld_counts([m]) == want, m
    assert sum(wild_scoring._meld_counts(melds)) == sum(len(m.tiles) for m in melds)


def _old_enumerate(
    counts: list[int],
    wilds: int,
    melds: int,
    fixed: list[int],
    allowed: frozenset[int],
    shapes: frozenset[Shape],
) -> Iterator[tuple[int, ...]]:
    """The enumeration as it was: a generator per wild."""
    work = list(counts)

    def rec(start: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        if left == 1:
            found = waits(tuple(work), melds=melds, shapes=shapes)
            fits = [
                k
                for k in found
                if k >= start and k in allowed and work[k] + fixed[k] < 4
            ]
        else:
            room = [
                k
                for k in range(start, NUM_KINDS)
                if k in allowed and work[k] + fixed[k] < 4
            ]
            fits = kinds_below(work, melds, shapes, room, left)
        for k in fits:
            work[k] += 1
            for rest in rec(k, left - 1):
                yield (k, *rest)
            work[k] -= 1

    yield from rec(0, wilds)


@pytest.mark.parametrize("name", ["liangren", "mcr"])
def test_enumeration_is_the_generator_one(name: str) -> None:
    """Random hands with 0-4 wilds, 0-2 pungs declared (and 白板 among the
    kinds), and the hands the wilds complete: the same assignments in the
    same order as the generator per wild, and the same error."""
    rs = get_ruleset(name)
    allowed = rs.kind_indices
    shapes = frozenset(rs.shapes)
    rng = random.Random(15)
    found = 0
    for n in range(400):
        n_melds = rng.choice((0, 0, 1, 2))
        wilds = rng.randrange(5) if n % 4 else rng.randrange(1, 3)
        wall = [k for k in sorted(allowed) for _ in range(4)]
        rng.shuffle(wall)
        fixed = [0] * NUM_KINDS
        for k in wall[:n_melds]:
            fixed[k] = min(fixed[k] + 3, 4)
        size = 14 - 3 * n_melds - wilds
        counts = [0] * NUM_KINDS
        if n % 3 == 0:  # near complete: a complete hand less its wilds
            kinds = [k for k in range(0, 27, 3)][: 4 - n_melds]
            hand = [x for k in kinds if k % 9 <= 6 for x in (k, k + 1, k + 2)]
            hand += [rng.choice(wall)] * 2
            rng.shuffle(hand)
            for k in hand[:size]:
                counts[k] += 1
            while sum(counts) < size:
                counts[rng.choice(wall)] += 1
        else:
            for k in wall[n_melds : n_melds + size]:
                counts[k] += 1
        if any(c > 4 for c in counts):
            continue
        try:
            old = list(_old_enumerate(counts, wilds, n_melds, fixed, allowed, shapes))
        except InvalidHandError as exc:
            with pytest.raises(InvalidHandError, match=str(exc)[:20]):
                wild_scoring._enumerate(counts, wilds, n_melds, fixed, allowed, shapes)
            continue
        new = wild_scoring._enumerate(counts, wilds, n_melds, fixed, allowed, shapes)
        assert new == old, (counts, wilds, n_melds)
        kw = {"melds": n_melds, "fixed": fixed, "ruleset": rs}
        assert list(wild_scoring.wild_assignments(counts, wilds, **kw)) == old
        found += bool(old and wilds)
    assert found > 20
