"""Every decomposition (划分) of a complete hand, for scoring.

A complete hand is the concealed tiles (the standing tiles plus the winning
tile) and the declared melds.  The shapes (seed 003 和牌的基本牌型 / 特殊牌型;
组合龙 from the 12-fan table):

* :attr:`Shape.REGULAR` — four sets + a pair; declared melds are sets.  Every
  split of the concealed tiles into chows, pungs and one pair is listed.
* :attr:`Shape.SEVEN_PAIRS` — 七对, no melds; four of a kind is two pairs.
* :attr:`Shape.THIRTEEN_ORPHANS` — 十三幺.
* :attr:`Shape.HONORS_AND_KNITTED` — 全不靠 / 七星不靠: 14 different tiles
  from one knitted 147/258/369 straight and the seven honours.
* :attr:`Shape.KNITTED_STRAIGHT` — 组合龙 + one set + a pair (at most one
  declared meld, which is then the set).

Tiles are handled as indices 0–33 (see :mod:`games.rules.tiles`) and count
vectors of length 34.  Concealed splits are memoised by count vector, so the
same concealed tiles are split only once per process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from .melds import Meld, MeldKind
from .shanten import Shape
from .tiles import ALL_TILES, Tile, format_tiles

__all__ = [
    "Decomposition",
    "Group",
    "GroupKind",
    "KNITTED_PATTERNS",
    "decompose",
    "decompositions",
    "meld_signature",
    "split_hand",
    "has_other_regular_wait",
    "is_regular_complete",
    "regular_splits",
    "regular_waits",
    "seven_pairs_waits",
]


class GroupKind(StrEnum):
    """What a group of tiles is inside a decomposition."""

    CHOW = "chow"  # 顺子
    PUNG = "pung"  # 刻子
    KONG = "kong"  # 杠 (declared, melded or concealed)
    PAIR = "pair"  # 将 / 对子
    KNITTED = "knitted"  # 组合龙: 147/258/369 in three suits (9 tiles)


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a decomposition.

    Attributes:
        kind: chow, pung, kong, pair or knitted.
        tile: the lowest tile (a chow's first tile; the tile of a pung, kong or
            pair; for a knitted straight the ``1`` of its 147 suit).
        knitted: for a KNITTED group, its nine tile indices.
        concealed: True when no tile of it was claimed (暗): concealed-hand
            groups and concealed kongs.  A pung completed by a discarded
            winning tile is *not* concealed for 暗刻 counting; that is decided
            by the scorer (it depends on where the winning tile sits), not
            here.
        declared: True for a declared meld (吃/碰/明杠/暗杠).
    """

    kind: GroupKind
    tile: Tile
    concealed: bool = True
    declared: bool = False
    knitted: tuple[int, ...] = ()

    @property
    def index(self) -> int:
        """The tile index of :attr:`tile`."""
        return self.tile.index

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the group, sorted."""
        i = self.tile.index
        k = self.kind
        if k is GroupKind.CHOW:
            return (ALL_TILES[i], ALL_TILES[i + 1], ALL_TILES[i + 2])
        if k is GroupKind.PUNG:
            return (self.tile,) * 3
        if k is GroupKind.KONG:
            return (self.tile,) * 4
        if k is GroupKind.PAIR:
            return (self.tile,) * 2
        return tuple(ALL_TILES[j] for j in self.knitted)

    @property
    def claimed(self) -> bool:
        """True for a declared meld made with an opponent's tile (吃 碰 明杠)."""
        return self.declared and not self.concealed

    @property
    def is_triplet(self) -> bool:
        """Pung or kong (刻子, 杠 counts as a 刻子 for most fans)."""
        return self.kind is GroupKind.PUNG or self.kind is GroupKind.KONG

    def __str__(self) -> str:
        return _group_text(self)


@lru_cache(maxsize=4096)
def _group_text(g: Group) -> str:
    text = format_tiles(g.tiles)
    if g.declared:
        return f"[{text}]" if not g.concealed else f"[{text}]暗"
    return text


# The six knitted straights, as the suit offsets of the 147, 258, 369 rows.
_PERMS = ((0, 9, 18), (0, 18, 9), (9, 0, 18), (9, 18, 0), (18, 0, 9), (18, 9, 0))
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(off + r for row, off in enumerate(p) for r in (row, row + 3, row + 6))
    for p in _PERMS
)
"""Tile indices of the six 组合龙 (147 in one suit, 258 in another, 369)."""


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a complete hand.

    Attributes:
        shape: the winning shape.
        groups: the groups; declared melds first, then concealed sets, the
            pair(s) last.  Seven pairs has seven pair groups; thirteen orphans
            and honours-and-knitted have none.  A knitted straight has one
            KNITTED group (its tiles in :attr:`knitted`).
        knitted: the nine tile indices of the 组合龙, or ``()``.
    """

    shape: Shape
    groups: tuple[Group, ...]
    knitted: tuple[int, ...] = ()
    # Derived once (decompositions are memoised), for the scorer's speed.
    sets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    chows: tuple[Group, ...] = field(default=(), init=False, compare=False)
    triplets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    pair: Tile | None = field(default=None, init=False, compare=False)
    text: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        chows: list[Group] = []
        trips: list[Group] = []
        sets: list[Group] = []
        texts: list[str] = []
        chow, pung, kong = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG
        for g in self.groups:
            k = g.kind
            if k is chow:
                sets.append(g)
                chows.append(g)
            elif k is pung or k is kong:
                sets.append(g)
                trips.append(g)
            texts.append(_group_text(g))
        setattr_ = object.__setattr__
        setattr_(self, "sets", tuple(sets))
        setattr_(self, "chows", tuple(chows))
        setattr_(self, "triplets", tuple(trips))
        shape = self.shape
        if shape is Shape.REGULAR or shape is Shape.KNITTED_STRAIGHT:
            setattr_(self, "pair", self.groups[-1].tile)
        if shape is Shape.THIRTEEN_ORPHANS:
            text = "十三幺"
        elif shape is Shape.HONORS_AND_KNITTED:
            text = "全不靠"
        else:
            text = " ".join(texts)
        setattr_(self, "text", text)

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------------------
# Regular shape: sets + pair from a count vector.

_SUITED = tuple(i < 27 and i % 9 <= 6 for i in range(34))  # may start a chow


def _sets(c: list[int], i: int, out: list[tuple[int, ...]], acc: list[int]) -> None:
    """Split ``c`` (no pair left) into sets; append each split as codes.

    A code is ``tile * 2 + 1`` for a pung, ``tile * 2`` for a chow's first tile.
    """
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        out.append(tuple(acc))
        return
    n = c[i]
    if n >= 3:
        c[i] -= 3
        acc.append(i * 2 + 1)
        _sets(c, i, out, acc)
        acc.pop()
        c[i] += 3
    if _SUITED[i] and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append(i * 2)
        _sets(c, i, out, acc)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


@lru_cache(maxsize=1 << 16)
def regular_splits(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return every split of ``counts`` (length 34) into sets and one pair.

    Each split is ``(pair_tile, set_codes)`` with set codes as in
    :func:`_sets` (``2*t`` chow starting at ``t``, ``2*t+1`` pung of ``t``),
    sorted.  ``()`` when there is none.  The tile count must be ``3k + 2``.
    """
    out: list[tuple[int, tuple[int, ...]]] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    c = list(counts)
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            found: list[tuple[int, ...]] = []
            _sets(c, 0, found, [])
            c[p] += 2
            for s in found:
                key = (p, tuple(sorted(s)))
                if key not in seen:  # 1111+23: pung-then-chow = chow-then-pung
                    seen.add(key)
                    out.append(key)
    return tuple(out)


def _suit_ok(c: Sequence[int], lo: int, hi: int, chows: bool) -> bool:
    """True when tiles ``lo..hi-1`` of ``c`` split into sets only."""
    c = list(c[lo:hi])
    n = len(c)
    for i in range(n):
        k = c[i]
        if k < 0:
            return False
        k %= 3
        if k:
            if not chows or i + 2 >= n or c[i + 1] < k or c[i + 2] < k:
                return False
            c[i + 1] -= k
            c[i + 2] -= k
    return True


@lru_cache(maxsize=1 << 16)
def _suit_complete(pattern: tuple[int, ...], chows: bool) -> tuple[bool, bool]:
    """(sets only?, sets + one pair?) for one suit's count pattern.

    Greedy is exact for sets-only per suit: the lowest tile's count mod 3 must
    start chows (a pung of three equal chows is the same tiles).
    """
    n = len(pattern)
    plain = sum(pattern) % 3 == 0 and _suit_ok(pattern, 0, n, chows)
    paired = False
    if sum(pattern) % 3 == 2:
        c = list(pattern)
        for p in range(n):
            if c[p] >= 2:
                c[p] -= 2
                ok = _suit_ok(c, 0, n, chows)
                c[p] += 2
                if ok:
                    paired = True
                    break
    return plain, paired


def is_regular_complete(counts: Sequence[int]) -> bool:
    """True when ``counts`` (length 34, any number of copies) is sets + one pair."""
    pairs = 0
    for lo, hi, chows in ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False)):
        pat = tuple(counts[lo:hi])
        if not any(pat):
            continue
        plain, paired = _suit_complete(pat, chows)
        if paired:
            pairs += 1
            if pairs > 1:
                return False
        elif not plain:
            return False
    return pairs == 1


def _candidates(counts: Sequence[int]) -> list[int]:
    """Tiles that could complete a regular hand: held tiles and their neighbours."""
    out: set[int] = set()
    for i in range(34):
        if counts[i]:
            out.add(i)
            if i < 27:
                r = i % 9
                if r >= 1:
                    out.add(i - 1)
                    if r >= 2:
                        out.add(i - 2)
                if r <= 7:
                    out.add(i + 1)
                    if r <= 6:
                        out.add(i + 2)
    return sorted(out)


_SEGMENTS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
_SEG_OF = tuple(min(i // 9, 3) for i in range(34))


def _seg_ok(pat: tuple[int, ...], chows: bool) -> tuple[bool, bool]:
    """(fits, has the pair) for one suit's pattern inside a complete hand."""
    n = sum(pat)
    if n == 0:
        return True, False
    plain, paired = _suit_complete(pat, chows)
    r = n % 3
    if r == 0:
        return plain, False
    if r == 2:
        return paired, True
    return False, False


def _completing(counts: tuple[int, ...], only_other_than: int = -1) -> set[int]:
    """Tiles completing ``counts``; with ``only_other_than`` >= 0, stop at the
    first completing tile other than that one (a uniqueness test)."""
    status = [_seg_ok(tuple(counts[lo:hi]), ch) for lo, hi, ch in _SEGMENTS]
    out = set()
    for t in _candidates(counts):
        if t == only_other_than:
            continue
        j = _SEG_OF[t]
        lo, hi, ch = _SEGMENTS[j]
        pat = list(counts[lo:hi])
        pat[t - lo] += 1
        fits, paired = _seg_ok(tuple(pat), ch)
        if not fits:
            continue
        pairs = int(paired)
        for k in range(4):
            if k != j:
                if not status[k][0]:
                    break
                pairs += status[k][1]
        else:
            if pairs == 1:
                out.add(t)
                if only_other_than >= 0:
                    break
    return out


@lru_cache(maxsize=1 << 16)
def regular_waits(counts: tuple[int, ...]) -> frozenset[int]:
    """Tiles that complete ``counts`` (``3k + 1`` tiles) into sets + a pair.

    A fifth copy is allowed (a formal wait on a tile whose four copies are
    all held is still a wait, as in the oracle's convention).  Solved per
    suit: adding a tile changes one suit's pattern only.
    """
    return frozenset(_completing(counts))


def has_other_regular_wait(counts: tuple[int, ...], tile: int) -> bool:
    """True when some tile other than ``tile`` completes ``counts`` (3k + 1).

    The uniqueness test of 独听, stopping at the first other wait.
    """
    return bool(_completing(counts, tile))


def seven_pairs_waits(counts: Sequence[int]) -> frozenset[int]:
    """The seven-pairs wait of 13 concealed tiles (four of a kind = two pairs)."""
    pairs = 0
    odd = -1
    for i, n in enumerate(counts):
        pairs += n // 2
        if n % 2 and odd < 0:
            odd = i
    if pairs == 6 and odd >= 0:
        return frozenset((odd,))
    return frozenset()


# ---------------------------------------------------------------------------
# Special shapes.

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _make_meld_group(kind: MeldKind, first: Tile) -> Group:
    if kind is MeldKind.CHI:
        return Group(GroupKind.CHOW, first, concealed=False, declared=True)
    if kind is MeldKind.PUNG:
        return Group(GroupKind.PUNG, first, concealed=False, declared=True)
    return Group(
        GroupKind.KONG,
        first,
        concealed=kind is MeldKind.CONCEALED_KONG,
        declared=True,
    )


# Groups are immutable values: one shared instance per (kind, tile, flags).
_MELD_GROUPS = {
    (kind, t.index): _make_meld_group(kind, t)
    for kind in MeldKind
    for t in ALL_TILES[:34]
}
_CODE_GROUPS = tuple(
    Group(GroupKind.PUNG if code & 1 else GroupKind.CHOW, ALL_TILES[code >> 1])
    for code in range(68)
)
_PAIR_GROUPS = tuple(Group(GroupKind.PAIR, t) for t in ALL_TILES[:34])


def _code_group(code: int) -> Group:
    return _CODE_GROUPS[code]


def _knitted_match(counts: Sequence[int]) -> tuple[int, ...] | None:
    for pat in KNITTED_PATTERNS:
        if all(counts[i] for i in pat):
            return pat
    return None


def decompose(
    counts: Sequence[int],
    melds: Sequence[Meld] = (),
    shapes: frozenset[Shape] | None = None,
) -> list[Decomposition]:
    """Return every decomposition of a complete hand (see :func:`decompositions`)."""
    return list(decompositions(tuple(counts), tuple(melds), shapes))


MeldSignature = tuple[tuple[MeldKind, int], ...]
"""Declared melds as ``(kind, first tile index)`` pairs: all a split needs."""


def meld_signature(melds: Sequence[Meld]) -> MeldSignature:
    """Return the :data:`MeldSignature` of ``melds``."""
    return tuple((m.kind, m.tiles[0].index) for m in melds)


def decompositions(
    counts: tuple[int, ...],
    melds: tuple[Meld, ...] = (),
    shapes: frozenset[Shape] | None = None,
) -> tuple[Decomposition, ...]:
    """Return every decomposition of a complete hand.

    Args:
        counts: count vector (34) of the concealed tiles *including* the
            winning tile: ``14 - 3 * len(melds)`` tiles.
        melds: the declared melds, each one set.
        shapes: shapes to consider (all when ``None``).

    Returns:
        Every decomposition, regular ones first; empty when the hand is not
        complete.  Regular splits differ in their concealed groups only.
        Memoised by (counts, melds, shapes) — see :func:`split_hand`.
    """
    return split_hand(counts, meld_signature(melds), shapes)


@lru_cache(maxsize=1 << 15)
def split_hand(
    counts: tuple[int, ...],
    melds: MeldSignature = (),
    shapes: frozenset[Shape] | None = None,
) -> tuple[Decomposition, ...]:
    """:func:`decompositions` keyed by a :data:`MeldSignature` (cheap to hash)."""
    out: list[Decomposition] = []
    want = shapes if shapes is not None else frozenset(Shape)
    meld_groups = tuple(_MELD_GROUPS[sig] for sig in melds)
    key = tuple(counts)
    if Shape.REGULAR in want:
        for pair, codes in regular_splits(key):
            groups = (
                meld_groups
                + tuple(_code_group(c) for c in codes)
                + (_PAIR_GROUPS[pair],)
            )
            out.append(Decomposition(Shape.REGULAR, groups))
    if not melds:
        total = sum(key)
        if total == 14:
            if Shape.SEVEN_PAIRS in want and all(n % 2 == 0 for n in key):
                pairs: list[Group] = []
                for i, n in enumerate(key):
                    pairs.extend([_PAIR_GROUPS[i]] * (n // 2))
                out.append(Decomposition(Shape.SEVEN_PAIRS, tuple(pairs)))
            if (
                Shape.THIRTEEN_ORPHANS in want
                and all(key[i] for i in _ORPHANS)
                and sum(key[i] for i in _ORPHANS) == 14
            ):
                out.append(Decomposition(Shape.THIRTEEN_ORPHANS, ()))
            if Shape.HONORS_AND_KNITTED in want and max(key) == 1:
                for pat in KNITTED_PATTERNS:
                    if all(key[i] == 0 or i in pat for i in range(27)):
                        out.append(Decomposition(Shape.HONORS_AND_KNITTED, (), pat))
                        break
    if Shape.KNITTED_STRAIGHT in want and len(melds) <= 1:
        kpat = _knitted_match(key)
        if kpat is not None:
            rest = list(key)
            for i in kpat:
                rest[i] -= 1
            for pair, codes in regular_splits(tuple(rest)):
                groups = (
                    (Group(GroupKind.KNITTED, ALL_TILES[kpat[0]], knitted=kpat),)
                    + meld_groups
                    + tuple(_code_group(c) for c in codes)
                    + (_PAIR_GROUPS[pair],)
                )
                out.append(Decomposition(Shape.KNITTED_STRAIGHT, groups, kpat))
    return tuple(out)
