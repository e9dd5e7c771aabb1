"""Shanten numbers (向听数) of every winning shape, with wild tiles.

The shapes (seed 004 "和牌的基本牌型" and "和牌的特殊牌型"; MCR fan texts of
seeds 003/004; the two-player sets use the same shapes):

* :attr:`Shape.REGULAR` — four sets + a pair ("11、123、123、123、123" …);
  declared melds count as sets, a kong as one.
* :attr:`Shape.SEVEN_PAIRS` — 七对, no melds.  Four of a kind counts as two
  pairs (seed 000 "豪华七对子（5对 + 4张相同的牌）"; MCR 四归一 with 七对).
* :attr:`Shape.THIRTEEN_ORPHANS` — 十三幺, no melds.
* :attr:`Shape.HONORS_AND_KNITTED` — 全不靠: "由单张3种花色147、258、369不能
  错位的序数牌及东南西北中发白中的任何14张牌组成" (seed 004 no. 34); 七星不靠
  (all seven honours) is its subcase.  No melds.
* :attr:`Shape.KNITTED_STRAIGHT` — 组合龙 "3种花色的147、258、369不能错位的
  序数牌" (seed 004 no. 35) + one set + a pair; at most one declared meld.

Conventions, shared with :mod:`games.rules.waits`:

* **Deficiency.**  For a shape, the deficiency ``D`` of the concealed tiles
  is the least number of tiles to *add* so that they contain the shape.
  Supply is unbounded: a completion may need a fifth copy of a kind.  That
  is what makes a "formal" wait (all four copies in one's own hand) a wait;
  callers use :func:`games.rules.waits.unseen_counts` to see it is dead.
  ChineseOfficialMahjongHelper (our oracle, pymahjonggb) counts the same way.
* **Shanten** ``= max(D - wilds, 0) - 1``: -1 complete, 0 tenpai (听牌).  For
  a 13−3m-tile hand this is the usual number.  For a 14−3m-tile hand it is
  the shanten *after the best discard* (and -1 when complete) — the oracle's
  per-shape functions refuse 14-tile hands; the tests compare against the
  minimum of the oracle's 13-tile numbers over all discards.
* **Wilds** (seed 002 财神, "可用来在和牌时替代任何牌") are passed as a count,
  not in ``counts``; a wild may stand for any of the 34 kinds, and the
  shanten with ``w`` wilds is the minimum over all their assignments.  Since
  every wild fills exactly one missing tile of a completion, that minimum is
  ``D(counts) - w`` — no enumeration is needed.  Supply being unbounded, a
  wild may also stand for a kind whose four copies are all in the hand; the
  seed does not forbid it.

Speed: the regular shape is solved per suit with lazily built tables (the
known fast way).  For each suit pattern (a 9-tuple of counts, or a 7-tuple
for the honours) a vector ``v[j + 5q]`` gives the least tiles to add to make
``j`` sets (0–4) and ``q`` pairs (0–1) inside the suit, from a memoised
search over runs of tiles (:func:`_cover`).  Vectors are interned to small
ids (a few hundred exist) and the min-plus combination of two ids is
memoised, so a warm hand costs four table look-ups and three memo look-ups;
the knitted shapes and seven pairs / orphans read counters kept in the same
per-suit records.  See ``benchmarks/bench_shanten.py`` for the figures.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from itertools import permutations
from typing import Final

from .errors import InvalidHandError
from .tiles import NUM_KINDS


class Shape(StrEnum):
    """A winning shape; the value is the JSON/CLI spelling."""

    REGULAR = "regular"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_AND_KNITTED = "honors_and_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


ALL_SHAPES: Final[frozenset[Shape]] = frozenset(Shape)
"""Every shape; rule sets with fewer shapes pass their own collection."""

_INF: Final = 99
_SUIT_KNITS: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369
_PERMS: Final = tuple(permutations(range(3)))  # suit -> knitted residue
ORPHANS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""Indices of the 13 terminals and honours (幺九牌) of 十三幺."""


def knitted_tiles(perm: Sequence[int]) -> tuple[int, ...]:
    """Return the nine tile indices of one knitted straight (组合龙).

    ``perm[s]`` is the residue given to suit ``s`` (0 万, 1 筒, 2 条):
    residue 0 is 147, 1 is 258, 2 is 369.  ``(0, 1, 2)`` gives
    147m 258p 369s.
    """
    return tuple(9 * s + k for s in range(3) for k in _SUIT_KNITS[perm[s]])


KNITTED_STRAIGHTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    knitted_tiles(p) for p in _PERMS
)
"""The six knitted straights, as tuples of nine tile indices."""


# -- per-suit vectors --------------------------------------------------------
#
# A vector has 10 entries: index j + 5*q is the least number of tiles to add
# to the suit's tiles to make j sets and q pairs out of them (unused tiles
# are simply left over).  That is 3j + 2q minus the most held tiles such
# blocks can use (the "cover"), which a short memoised search gives.

# Caches (issue 15, "a stated bound"):
# * _VEC_IDS/_VECS intern the distinct vectors, a small finite domain: an
#   entry is at most 3j + 2q <= 14, and what play reaches is a few hundred
#   (163 after 400 hands of four rule sets); never emptied, so ids stay valid.
# * The hot tables (_CONV, _SUIT, _HONOR, _UP, _DOWN, _KNIT_RESTS) are dicts read inline
#   on every shanten; each is emptied when it passes _MEMO_LIMIT entries.
#   Their domains are finite but large (877,844 suit patterns of counts 0-5
#   with at most 15 tiles; 92,984 honour patterns), hence the bound.  A
#   functools.lru_cache costs 2.5x a dict look-up per call (157 vs 63 ns,
#   measured) on the paths that make deficiency_each fast, so they stay dicts.
# * The cold builders (_cover, _piece_vid, _suited_vid) run only when a new
#   pattern enters those tables: functools.lru_cache with a stated maxsize.
_VEC_IDS: dict[tuple[int, ...], int] = {}
_VECS: list[tuple[int, ...]] = []
_CONV: dict[int, int] = {}
_MEMO_LIMIT: Final = 200_000
"""Entries a hot memo table holds before it is emptied (some tens of MB in
all at worst; 400 self-played hands of four rule sets fill none past 32,000)."""


def _intern(vec: tuple[int, ...]) -> int:
    vid = _VEC_IDS.get(vec)
    if vid is None:
        vid = len(_VECS)
        _VEC_IDS[vec] = vid
        _VECS.append(vec)
    return vid


_NO_COVER: Final = (0,) * 10


@lru_cache(maxsize=1 << 16)
def _cover(x: tuple[int, ...]) -> tuple[int, ...]:
    """Most held tiles that ``j`` sets and ``q`` pairs can use, at ``j + 5q``.

    ``x`` is a run of counts starting with a held tile.  Its lowest tile is
    either left out or the lowest tile of one block, and a block's held
    part is a sub-multiset of a set (``k``, ``kk``, ``kkk``, ``k k+1``,
    ``k k+2``, ``k k+1 k+2``) or of a pair (``k``, ``kk``); such parts are
    always inside the suit, so the answer does not depend on where the run
    lies.  Memoised on ``x`` (the remainders repeat across patterns) for the
    last 65,536 runs: 14,233 after 400 hands of four rule sets.
    """
    if not x:
        return _NO_COVER
    n = len(x)
    a = x[0]
    b = x[1] if n > 1 else 0
    c = x[2] if n > 2 else 0

    def rest(k0: int, k1: int, k2: int) -> tuple[int, ...]:
        y = [x[0] - k0, *x[1:]]
        if k1:
            y[1] -= k1
        if k2:
            y[2] -= k2
        i = 0
        while i < n and not y[i]:
            i += 1
        return _cover(tuple(y[i:]))

    best = list(rest(1, 0, 0))  # the lowest tile left out
    sets = [(1, 0, 0, 1)]
    if a >= 2:
        sets.append((2, 0, 0, 2))
    if a >= 3:
        sets.append((3, 0, 0, 3))
    if b:
        sets.append((1, 1, 0, 2))
    if c:
        sets.append((1, 0, 1, 2))
    if b and c:
        sets.append((1, 1, 1, 3))
    for k0, k1, k2, size in sets:
        r = rest(k0, k1, k2)
        for q in (0, 5):
            for j in range(q + 1, q + 5):
                v = size + r[j - 1]
                if v > best[j]:
                    best[j] = v
    for k0, size in ((1, 1), (2, 2)) if a >= 2 else ((1, 1),):
        r = rest(k0, 0, 0)
        for j in range(5):
            v = size + r[j]
            if v > best[5 + j]:
                best[5 + j] = v
    return tuple(best)


def _run_vector(x: tuple[int, ...]) -> tuple[int, ...]:
    """Deficiency vector of a run of counts: ``3j + 2q`` minus the cover."""
    m = _cover(x)
    return tuple(3 * j + 2 * q - m[j + 5 * q] for q in range(2) for j in range(5))


def _conv(a: int, b: int) -> int:
    """Return the id of the min-plus combination of vectors ``a`` and ``b``."""
    key = (a << 24) | b
    got = _CONV.get(key)
    if got is not None:
        return got
    va, vb = _VECS[a], _VECS[b]
    out = [_INF] * 10
    for qa in range(2):
        for ja in range(5):
            x = va[ja + 5 * qa]
            if x >= _INF:
                continue
            for qb in range(2 - qa):
                off = 5 * (qa + qb) + ja
                for jb in range(5 - ja):
                    s = x + vb[jb + 5 * qb]
                    if s < out[off + jb]:
                        out[off + jb] = s
    vid = _intern(tuple(out))
    if len(_CONV) > _MEMO_LIMIT:
        _CONV.clear()
    _CONV[key] = vid
    return vid


_EMPTY_VID: Final = _intern(_run_vector(()))  # only fresh blocks


@lru_cache(maxsize=1 << 15)
def _piece_vid(piece: tuple[int, ...]) -> int:
    """The vector id of a run of counts (a piece of a suit pattern), kept for
    the last 32,768 pieces (10,371 after 400 hands of four rule sets)."""
    return _intern(_run_vector(piece))


@lru_cache(maxsize=1 << 16)
def _suited_vid(c: tuple[int, ...]) -> int:
    """Return the vector id of a suit pattern (9 counts).

    Tiles separated by two or more empty ranks cannot share a block, so the
    pattern splits into pieces whose vectors are combined with
    :func:`_conv`; a piece's vector depends only on its counts.  Kept for
    the last 65,536 patterns (a pattern and its knitted remainders are asked
    once each when _SUIT builds its record: 30,981 after 400 hands).
    """
    n = len(c)
    vid = _EMPTY_VID
    i = 0
    while i < n:
        if not c[i]:
            i += 1
            continue
        end = i
        k = i + 1
        while k < n:
            if c[k]:
                end = k
                k += 1
            elif k + 1 < n and c[k + 1]:
                end = k + 1
                k += 2
            else:
                break
        vid = _conv(vid, _piece_vid(c[i : end + 1]))
        i = end + 1
    return vid


# one honour kind alone: a run of length 1 has no chows
_HONOR_KIND_VIDS: Final = tuple(
    _intern(_run_vector((x,) if x else ())) for x in range(6)
)


def _honor_vid(c: tuple[int, ...]) -> int:
    """Return the vector id of the honours (7 counts): kinds are independent."""
    vid = _EMPTY_VID
    for x in c:
        if x:
            vid = _conv(vid, _HONOR_KIND_VIDS[x])
    return vid


# Suited record: (vector id, pairs, odd kinds, orphans held, orphan pair,
#   knitted held for residue 0/1/2, most knitted held for any residue, the
#   pattern as one int (3 bits a rank) for _knit_rests)
# Honour record: (vector id, pairs, odd kinds, kinds held, any pair)


_KNIT_RESTS: dict[int, tuple[int, int, int]] = {}
# pattern code -> _knit_rests; a hot table like _SUIT (read inline by the
# knitted straight), emptied past _MEMO_LIMIT


def _knit_rests(code: int) -> tuple[int, int, int]:
    """The vector ids of a suit pattern (``code``: 3 bits a rank) less one
    tile of each of its knitted ranks, for residue 0/1/2 (147/258/369).

    Only the knitted straight asks, so they are computed when asked rather
    than for every pattern: the rule sets without 组合龙 never pay for them.
    """
    got = _KNIT_RESTS.get(code)
    if got is not None:
        return got
    c = [(code >> (3 * i)) & 7 for i in range(9)]
    ids = []
    for knit in _SUIT_KNITS:
        rest = list(c)
        for k in knit:
            if rest[k]:
                rest[k] -= 1
        ids.append(_suited_vid(tuple(rest)))
    got = (ids[0], ids[1], ids[2])
    if len(_KNIT_RESTS) > _MEMO_LIMIT:
        _KNIT_RESTS.clear()
    _KNIT_RESTS[code] = got
    return got


class _SuitTable(dict[tuple[int, ...], tuple[int, ...]]):
    def __missing__(self, c: tuple[int, ...]) -> tuple[int, ...]:
        vid = _suited_vid(c)
        pairs = sum(x // 2 for x in c)
        odds = sum(x & 1 for x in c)
        orph = (c[0] > 0) + (c[8] > 0)
        orph_pair = int(c[0] > 1 or c[8] > 1)
        h0 = (c[0] > 0) + (c[3] > 0) + (c[6] > 0)
        h1 = (c[1] > 0) + (c[4] > 0) + (c[7] > 0)
        h2 = (c[2] > 0) + (c[5] > 0) + (c[8] > 0)
        code = 0
        for i, x in enumerate(c):
            code |= x << (3 * i)
        rec = (vid, pairs, odds, orph, orph_pair, h0, h1, h2, max(h0, h1, h2), code)
        if len(self) > _MEMO_LIMIT:
            self.clear()
        self[c] = rec
        return rec


class _HonorTable(dict[tuple[int, ...], tuple[int, ...]]):
    def __missing__(self, c: tuple[int, ...]) -> tuple[int, ...]:
        vid = _honor_vid(c)
        rec = (
            vid,
            sum(x // 2 for x in c),
            sum(x & 1 for x in c),
            sum(1 for x in c if x),
            int(any(x > 1 for x in c)),
        )
        if len(self) > _MEMO_LIMIT:
            self.clear()
        self[c] = rec
        return rec


_SUIT: Final = _SuitTable()
_HONOR: Final = _HonorTable()


def _records(
    t: Sequence[int],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return (
        _SUIT[tuple(t[0:9])],
        _SUIT[tuple(t[9:18])],
        _SUIT[tuple(t[18:27])],
        _HONOR[tuple(t[27:34])],
    )


def _regular(vm: int, vp: int, vs: int, vz: int, sets: int) -> int:
    return _VECS[_conv(_conv(vm, vp), _conv(vs, vz))][sets + 5]


def _deficiencies(
    r0: tuple[int, ...],
    r1: tuple[int, ...],
    r2: tuple[int, ...],
    rz: tuple[int, ...],
    melds: int,
    shapes: Collection[Shape],
    cutoff: int,
    best_only: bool,
) -> dict[Shape, int]:
    """Return the deficiency of each allowed, possible shape.

    A shape whose deficiency is certainly >= ``cutoff`` may be left out;
    with ``best_only`` also one that certainly does no better than a shape
    already found.  ``_INF`` and ``False`` give every allowed, possible
    shape.
    """
    out: dict[Shape, int] = {}
    if Shape.REGULAR in shapes:
        out[Shape.REGULAR] = _regular(r0[0], r1[0], r2[0], rz[0], 4 - melds)
    if melds == 0:
        if Shape.SEVEN_PAIRS in shapes:
            pairs = r0[1] + r1[1] + r2[1] + rz[1]
            if pairs >= 7:
                out[Shape.SEVEN_PAIRS] = 0
            else:
                odds = r0[2] + r1[2] + r2[2] + rz[2]
                need = 7 - pairs
                out[Shape.SEVEN_PAIRS] = need + (need - odds if need > odds else 0)
        if Shape.THIRTEEN_ORPHANS in shapes:
            held = r0[3] + r1[3] + r2[3] + rz[3]
            pair = r0[4] | r1[4] | r2[4] | rz[4]
            out[Shape.THIRTEEN_ORPHANS] = 14 - held - pair
        if Shape.HONORS_AND_KNITTED in shapes:
            best = max(r0[5 + a] + r1[5 + b] + r2[5 + c] for a, b, c in _PERMS)
            out[Shape.HONORS_AND_KNITTED] = 14 - best - rz[3]
    if melds <= 1 and Shape.KNITTED_STRAIGHT in shapes:
        limit = min(cutoff, min(out.values(), default=_INF)) if best_only else cutoff
        best_ks = _INF
        k0, k1, k2 = _knit_rests(r0[9]), _knit_rests(r1[9]), _knit_rests(r2[9])
        for a, b, c in _PERMS:
            missing = 9 - r0[5 + a] - r1[5 + b] - r2[5 + c]
            if missing >= best_ks or missing >= limit:
                continue
            d = missing + _regular(k0[a], k1[b], k2[c], rz[0], 1 - melds)
            if d < best_ks:
                best_ks = d
        if best_ks < _INF:
            out[Shape.KNITTED_STRAIGHT] = best_ks
    return out


_SHAPE_BITS: Final = tuple((shape, 1 << i) for i, shape in enumerate(Shape))
_REG_BIT, _SP_BIT, _TO_BIT, _HK_BIT, _KS_BIT = (bit for _, bit in _SHAPE_BITS)
_MASKS: dict[object, int] = {}
# shape collections seen (a small finite domain: one per rule set and the
# few sets the callers build), at most 1,024 kept


def _mask_of(shapes: Collection[Shape]) -> int:
    """The shapes as a bit set (memoised for hashable collections)."""
    try:
        got = _MASKS.get(shapes)
    except TypeError:  # a list: not memoised
        got = None
        hashable = False
    else:
        hashable = True
    if got is None:
        got = 0
        for shape, bit in _SHAPE_BITS:
            if shape in shapes:
                got |= bit
        if hashable and len(_MASKS) < 1024:
            _MASKS[shapes] = got
    return got


def _least(
    r0: tuple[int, ...],
    r1: tuple[int, ...],
    r2: tuple[int, ...],
    rz: tuple[int, ...],
    melds: int,
    mask: int,
    cutoff: int,
) -> int:
    """The least deficiency over the shapes in ``mask`` if it is below
    ``cutoff``, else ``cutoff`` (``_INF``: no allowed shape is possible).

    Same numbers as :func:`_deficiencies`; a shape is skipped as soon as a
    lower bound shows it cannot beat the best so far (the most knitted tiles
    any residue holds, per suit, bounds both knitted shapes).
    """
    best = cutoff
    if mask & _REG_BIT:
        # _conv(_conv(r0, r1), _conv(r2, rz)) with _CONV read inline
        conv = _CONV
        a, b = r0[0], r1[0]
        ab = conv.get(a << 24 | b)
        if ab is None:
            ab = _conv(a, b)
        a, b = r2[0], rz[0]
        cd = conv.get(a << 24 | b)
        if cd is None:
            cd = _conv(a, b)
        x = conv.get(ab << 24 | cd)
        if x is None:
            x = _conv(ab, cd)
        d = _VECS[x][9 - melds]
        if d < best:
            best = d
    if not melds:
        if mask & _SP_BIT:
            pairs = r0[1] + r1[1] + r2[1] + rz[1]
            if pairs >= 7:
                return 0
            odds = r0[2] + r1[2] + r2[2] + rz[2]
            need = 7 - pairs
            d = need + (need - odds if need > odds else 0)
            if d < best:
                best = d
        if mask & _TO_BIT:
            d = 14 - (r0[3] + r1[3] + r2[3] + rz[3]) - (r0[4] | r1[4] | r2[4] | rz[4])
            if d < best:
                best = d
        if mask & _HK_BIT:
            hz = 14 - rz[3]
            if hz - r0[8] - r1[8] - r2[8] < best:
                a0, a1, a2 = r0[5], r0[6], r0[7]
                b0, b1, b2 = r1[5], r1[6], r1[7]
                c0, c1, c2 = r2[5], r2[6], r2[7]
                d = hz - max(
                    a0 + b1 + c2,
                    a0 + b2 + c1,
                    a1 + b0 + c2,
                    a1 + b2 + c0,
                    a2 + b0 + c1,
                    a2 + b1 + c0,
                )
                if d < best:
                    best = d
    if melds <= 1 and mask & _KS_BIT and 9 - r0[8] - r1[8] - r2[8] < best:
        col = 6 - melds  # one set (none with the meld) and the pair
        vz = rz[0]
        rests = _KNIT_RESTS
        k0 = rests.get(r0[9]) or _knit_rests(r0[9])
        k1 = rests.get(r1[9]) or _knit_rests(r1[9])
        k2 = rests.get(r2[9]) or _knit_rests(r2[9])
        for a, b, c in _PERMS:
            missing = 9 - r0[5 + a] - r1[5 + b] - r2[5 + c]
            if missing >= best:
                continue
            d = missing + _VECS[_conv(_conv(k0[a], k1[b]), _conv(k2[c], vz))][col]
            if d < best:
                best = d
    return best


_UP: dict[tuple[int, ...], list[tuple[int, ...] | None]] = {}
_DOWN: dict[tuple[int, ...], list[tuple[int, ...] | None]] = {}
# Per suit pattern, the record of the pattern with one more (_UP) / one fewer
# (_DOWN) tile at each rank, filled as asked: the same patterns as _SUIT and
# _HONOR, emptied like them past _MEMO_LIMIT.

_SEG_OF: Final = tuple(min(k // 9, 3) for k in range(NUM_KINDS))
_POS_OF: Final = tuple(k - 9 * _SEG_OF[k] for k in range(NUM_KINDS))


def kinds_below(
    t: Sequence[int],
    melds: int,
    shapes: Collection[Shape],
    kinds: Iterable[int],
    cutoff: int,
) -> list[int]:
    """The kinds ``k`` of ``kinds`` (in their order) for which the least
    deficiency of ``t`` plus one ``k`` is below ``cutoff``.

    Same numbers as calling :func:`min_deficiency` once per kind, on already
    validated counts (a fifth copy allowed); see :func:`deficiency_each`.
    The waits of a hand, its useful tiles and the kinds a wild may stand for
    are all this question.
    """
    ks = list(kinds)
    each = deficiency_each(t, melds, shapes, ks, 1, cutoff)
    return [k for k, d in zip(ks, each, strict=True) if d < cutoff]


def deficiency_each(
    t: Sequence[int],
    melds: int,
    shapes: Collection[Shape],
    kinds: Sequence[int],
    delta: int,
    cutoff: int = _INF,
) -> list[int]:
    """For each kind of ``kinds``: the least deficiency of ``t`` with one
    more (``delta`` 1) or one fewer (``delta`` -1) tile of that kind, capped
    at ``cutoff`` (see :func:`min_deficiency`).

    Each kind changes one suit only, so the other three suits' records and
    their min-plus combination are computed once: this is several times
    faster than a :func:`min_deficiency` call per kind.  Counts are not
    validated (they must stay between 0 and 5).
    """
    if type(t) is not tuple:
        t = tuple(t)
    mask = _mask_of(shapes)
    pats = (t[0:9], t[9:18], t[18:27], t[27:34])
    r0, r1, r2, rz = (_SUIT[pats[0]], _SUIT[pats[1]], _SUIT[pats[2]], _HONOR[pats[3]])
    col = 9 - melds
    regular = bool(mask & _REG_BIT)
    # the other shapes, where the meld count allows them
    if melds == 0:
        special = mask & ~_REG_BIT
    elif melds == 1:
        special = mask & _KS_BIT
    else:
        special = 0
    vecs = _VECS
    conv = _CONV
    steps = _UP if delta == 1 else _DOWN if delta == -1 else None
    seg_of = _SEG_OF
    pos_of = _POS_OF
    # seven pairs and thirteen orphans add counters over the suits: per
    # suit, the sum of the three unchanged suits' counters; the knitted
    # shapes go to _least only when their bound can beat the best so far
    pairs_sp = special & _SP_BIT
    orphans = special & _TO_BIT
    knit = special & (_HK_BIT | _KS_BIT)
    o_pairs = o_odds = o_orph = o_opair = o_knit = (0, 0, 0, 0)
    if pairs_sp:
        tp = r0[1] + r1[1] + r2[1] + rz[1]
        to = r0[2] + r1[2] + r2[2] + rz[2]
        o_pairs = (tp - r0[1], tp - r1[1], tp - r2[1], tp - rz[1])
        o_odds = (to - r0[2], to - r1[2], to - r2[2], to - rz[2])
    if orphans:
        th = r0[3] + r1[3] + r2[3] + rz[3]
        o_orph = (th - r0[3], th - r1[3], th - r2[3], th - rz[3])
        o_opair = (
            r1[4] | r2[4] | rz[4],
            r0[4] | r2[4] | rz[4],
            r0[4] | r1[4] | rz[4],
            r0[4] | r1[4] | r2[4],
        )
    if knit:
        tk = r0[8] + r1[8] + r2[8]
        o_knit = (tk - r0[8], tk - r1[8], tk - r2[8], tk)
    hk = melds == 0 and bool(knit & _HK_BIT)
    ks = bool(knit & _KS_BIT)
    others = (0, 0, 0, 0)
    if regular:
        # per suit, the min-plus combination of the three unchanged suits
        # (the combination is associative and commutative: one look-up per
        # kind then gives the same vector as combining all four)
        v0, v1, v2, vz = r0[0], r1[0], r2[0], rz[0]
        # (_CONV read inline, _conv on a miss: the same ids, without six
        # function calls per call)
        ab = _CONV.get(v0 << 24 | v1)
        if ab is None:
            ab = _conv(v0, v1)
        cd = _CONV.get(v2 << 24 | vz)
        if cd is None:
            cd = _conv(v2, vz)
        o0 = _CONV.get(v1 << 24 | cd)
        if o0 is None:
            o0 = _conv(v1, cd)
        o1 = _CONV.get(v0 << 24 | cd)
        if o1 is None:
            o1 = _conv(v0, cd)
        o2 = _CONV.get(ab << 24 | vz)
        if o2 is None:
            o2 = _conv(ab, vz)
        o3 = _CONV.get(ab << 24 | v2)
        if o3 is None:
            o3 = _conv(ab, v2)
        others = (o0, o1, o2, o3)
    out: list[int] = []
    # each suit's row of steps, looked up once (a pattern's hash is not kept)
    rows: list[list[tuple[int, ...] | None] | None] = [None, None, None, None]
    for k in kinds:
        seg = seg_of[k]
        pos = pos_of[k]
        p = pats[seg]
        row = rows[seg]
        if row is None:
            row = steps.get(p) if steps is not None else None
            if row is None:
                row = [None] * len(p)
                if steps is not None:
                    if len(steps) > _MEMO_LIMIT:
                        steps.clear()
                    steps[p] = row
            rows[seg] = row
        rec = row[pos]
        if rec is None:
            q = (*p[:pos], p[pos] + delta, *p[pos + 1 :])
            rec = row[pos] = _HONOR[q] if seg == 3 else _SUIT[q]
        best = cutoff
        if regular:
            key = rec[0] << 24 | others[seg]
            x = conv.get(key)
            if x is None:
                x = _conv(rec[0], others[seg])
            d = vecs[x][col]
            if d < best:
                best = d
        if pairs_sp:
            pairs = o_pairs[seg] + rec[1]
            if pairs >= 7:
                out.append(0)
                continue
            need = 7 - pairs
            odds = o_odds[seg] + rec[2]
            d = need + (need - odds if need > odds else 0)
            if d < best:
                best = d
        if orphans:
            d = 14 - (o_orph[seg] + rec[3]) - (o_opair[seg] | rec[4])
            if d < best:
                best = d
        if knit:
            if seg == 3:
                most = o_knit[3]
                a, b, c, z = r0, r1, r2, rec
            else:
                most = o_knit[seg] + rec[8]
                if seg == 0:
                    a, b, c, z = rec, r1, r2, rz
                elif seg == 1:
                    a, b, c, z = r0, rec, r2, rz
                else:
                    a, b, c, z = r0, r1, rec, rz
            if hk:
                hz = 14 - z[3]
                if hz - most < best:
                    a0, a1, a2 = a[5], a[6], a[7]
                    b0, b1, b2 = b[5], b[6], b[7]
                    c0, c1, c2 = c[5], c[6], c[7]
                    d = hz - max(
                        a0 + b1 + c2,
                        a0 + b2 + c1,
                        a1 + b0 + c2,
                        a1 + b2 + c0,
                        a2 + b0 + c1,
                        a2 + b1 + c0,
                    )
                    if d < best:
                        best = d
            if ks and 9 - most < best:
                best = _least(a, b, c, z, melds, _KS_BIT, best)
        out.append(best)
    return out


def special_floor(t: Sequence[int], melds: int, shapes: Collection[Shape]) -> int:
    """A lower bound on the least deficiency over the shapes of ``shapes``
    other than :attr:`Shape.REGULAR`, for the counts ``t`` and for ``t``
    less any one tile (``_INF`` when none of them is possible with
    ``melds`` melds).

    Removing a tile never adds a pair, a held orphan or a knitted tile, so
    the bounds of the whole hand hold for each of its discards: 七对 needs
    at least ``7 - pairs``, 十三幺 ``14 - orphan kinds held - a pair``, 全不靠
    ``14 - honour kinds - the most knitted tiles per suit`` and 组合龙
    ``9 - the most knitted tiles per suit``.  Counts are not validated.
    """
    if type(t) is not tuple:
        t = tuple(t)
    mask = _mask_of(shapes)
    if melds > 1 or not mask & (_SP_BIT | _TO_BIT | _HK_BIT | _KS_BIT):
        return _INF
    r0, r1, r2, rz = _records(t)
    knitted = r0[8] + r1[8] + r2[8]
    best = 9 - knitted if mask & _KS_BIT else _INF
    if melds:
        return best
    if mask & _SP_BIT:
        pairs = r0[1] + r1[1] + r2[1] + rz[1]
        best = min(best, 7 - pairs if pairs < 7 else 0)
    if mask & _TO_BIT:
        held = r0[3] + r1[3] + r2[3] + rz[3]
        best = min(best, 14 - held - (r0[4] | r1[4] | r2[4] | rz[4]))
    if mask & _HK_BIT:
        best = min(best, 14 - knitted - rz[3])
    return best


# -- input checks ------------------------------------------------------------


_VALID_COUNTS: Final = bytes(range(5))


def check_hand(
    counts: Sequence[int], melds: int, wilds: int, sizes: tuple[int, ...]
) -> tuple[int, ...]:
    """Validate a concealed hand and return it as a tuple of 34 counts.

    ``sizes`` are the allowed numbers of concealed tiles *with* wilds before
    subtracting ``3 * melds`` (``(13, 14)``, ``(13,)`` or ``(14,)``).

    Raises:
        InvalidHandError: wrong length, a negative count or one above 4, a
            meld or wild count out of range, or a tile total that does not
            fit the number of melds.
    """
    t = counts if type(counts) is tuple else tuple(counts)
    if len(t) != NUM_KINDS:
        raise InvalidHandError(
            f"counts must have {NUM_KINDS} entries (one per kind), got {len(t)}"
        )
    try:  # bytes() refuses what is not 0–255; translate drops 0–4 (fast)
        bad_counts = bool(bytes(t).translate(None, _VALID_COUNTS))
    except (TypeError, ValueError):
        bad_counts = True
    if bad_counts:
        bad = next(
            i for i, x in enumerate(t) if not (isinstance(x, int) and 0 <= x <= 4)
        )
        raise InvalidHandError(f"count {t[bad]} for tile index {bad} is outside 0–4")
    if not 0 <= melds <= 4:
        raise InvalidHandError(f"melds must be 0–4, got {melds}")
    if wilds < 0:
        raise InvalidHandError(f"wilds must be >= 0, got {wilds}")
    total = sum(t) + wilds
    if total + 3 * melds not in sizes:
        want = " or ".join(str(s - 3 * melds) for s in sizes)
        raise InvalidHandError(
            f"{total} concealed tiles ({total - wilds} + {wilds} wild) with "
            f"{melds} meld(s); expected {want}"
        )
    return t


def _shanten_of(d: int, wilds: int) -> int:
    d -= wilds
    return (d if d > 0 else 0) - 1


# -- public API --------------------------------------------------------------


def shanten(
    counts: Sequence[int],
    *,
    melds: int = 0,
    wilds: int = 0,
    shapes: Collection[Shape] = ALL_SHAPES,
) -> int:
    """Return the least shanten over the allowed shapes.

    Args:
        counts: 34 counts of the concealed tiles, wild tiles excluded;
            with the wilds they total ``13 - 3*melds`` or ``14 - 3*melds``.
        melds: declared melds (a kong counts as one).
        wilds: wild tiles held (seed 002 财神), each standing for any kind.
        shapes: the shapes the rule set allows.  Shapes other than
            REGULAR and KNITTED_STRAIGHT need ``melds == 0``;
            KNITTED_STRAIGHT needs ``melds <= 1``.

    Returns:
        -1 complete, 0 tenpai, n: n tiles from tenpai.  For 14−3m tiles,
        the shanten after the best discard (see the module docstring).

    Raises:
        InvalidHandError: see :func:`check_hand`; also when no allowed
            shape is possible with this many melds.
    """
    t = check_hand(counts, melds, wilds, (13, 14))
    d = _least(
        _SUIT[t[0:9]],
        _SUIT[t[9:18]],
        _SUIT[t[18:27]],
        _HONOR[t[27:34]],
        melds,
        _mask_of(shapes),
        _INF,
    )
    if d >= _INF:
        raise InvalidHandError(
            f"no allowed shape is possible with {melds} meld(s): "
            f"{sorted(s.value for s in shapes)}"
        )
    d -= wilds
    return (d if d > 0 else 0) - 1


def shanten_by_shape(
    counts: Sequence[int], *, melds: int = 0, wilds: int = 0
) -> dict[Shape, int]:
    """Return the shanten of every shape possible with ``melds`` melds.

    Same arguments, conventions and errors as :func:`shanten`; shapes that
    the meld count rules out are absent from the result.
    """
    t = check_hand(counts, melds, wilds, (13, 14))
    r0, r1, r2, rz = _records(t)
    found = _deficiencies(r0, r1, r2, rz, melds, ALL_SHAPES, _INF, False)
    return {s: _shanten_of(d, wilds) for s, d in found.items()}


def min_deficiency(
    t: Sequence[int], melds: int, shapes: Collection[Shape], cutoff: int = _INF
) -> int:
    """Least deficiency over the allowed shapes of already validated counts.

    Counts of 5 are allowed here (a formal wait adds a fifth copy).  Returns
    ``_INF`` (99) when no allowed shape is possible, and ``cutoff`` when the
    least is not below it.  Internal helper of :mod:`games.rules.waits`.
    """
    if type(t) is not tuple:
        t = tuple(t)
    return _least(
        _SUIT[t[0:9]],
        _SUIT[t[9:18]],
        _SUIT[t[18:27]],
        _HONOR[t[27:34]],
        melds,
        _mask_of(shapes),
        cutoff,
    )


def deficiencies(
    t: Sequence[int], melds: int, shapes: Collection[Shape], cutoff: int = _INF
) -> dict[Shape, int]:
    """Deficiency of each allowed shape of validated counts (internal).

    Shapes certainly at or above ``cutoff`` may be missing.
    """
    r0, r1, r2, rz = _records(t)
    return _deficiencies(r0, r1, r2, rz, melds, shapes, cutoff, False)


def useful_tiles(
    counts: Sequence[int],
    *,
    melds: int = 0,
    wilds: int = 0,
    shapes: Collection[Shape] = ALL_SHAPES,
) -> list[int]:
    """Return the kinds whose draw lowers the shanten (有效牌 / 受入), sorted.

    Only for a hand waiting to draw (``13 - 3*melds`` tiles with wilds).  A
    kind is useful when the 14-tile hand after drawing it has a lower
    shanten (after its best discard) than this hand.  Kinds of which all
    four copies are already in ``counts`` cannot be drawn and are left out,
    except at tenpai, where the result is :func:`games.rules.waits.waits`
    (formal waits included, as the oracle does).  Drawing a wild tile is
    always useful until the hand is complete; it has no kind index here.

    Raises:
        InvalidHandError: see :func:`shanten`.
    """
    t = check_hand(counts, melds, wilds, (13,))
    base = min_deficiency(t, melds, shapes)
    if base >= _INF:
        raise InvalidHandError(f"no allowed shape is possible with {melds} meld(s)")
    tenpai = base - wilds <= 1
    # drawing a tile lowers the deficiency by at most one
    kinds = range(NUM_KINDS) if tenpai else [k for k in range(NUM_KINDS) if t[k] < 4]
    return kinds_below(t, melds, shapes, kinds, base)
