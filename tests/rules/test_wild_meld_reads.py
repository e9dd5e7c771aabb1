"""The 财神 scorer reads a meld by its kind and first tile (issue 15).

``wild_scoring._check_claimed`` and ``meld_faces`` once looked at every tile
of every meld (a generator per meld, on every score of a 财神 hand); they
now read a meld's kind and first tile, which a Meld's own checks make
enough (sorted tiles; a chi a run of one suit, any other meld one kind).
These tests hold them to the tile-by-tile reading on every meld of every
kind and every wild kind.
"""

from __future__ import annotations

import pytest

from games.rules import wild_scoring
from games.rules.errors import InvalidHandError
from games.rules.melds import Meld, MeldKind
from games.rules.tiles import ALL_TILES, NUM_KINDS, Tile


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
