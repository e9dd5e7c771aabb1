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
vectors of length 34.  Each suit's splits and waits are memoised by the
suit's count pattern (a few thousand patterns occur in play), so a hand never
seen before is solved mostly from those tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter

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
    _text: str = field(default="", init=False, compare=False, repr=False)

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


def _group_text(g: Group) -> str:
    text = g._text
    if not text:
        text = format_tiles(g.tiles)
        if g.declared:
            text = f"[{text}]" if not g.concealed else f"[{text}]暗"
        object.__setattr__(g, "_text", text)  # groups are shared: kept once
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
    # Derived once per decomposition, for the scorer's speed.
    sets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    chows: tuple[Group, ...] = field(default=(), init=False, compare=False)
    triplets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    pair: Tile | None = field(default=None, init=False, compare=False)
    _text: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        chows: list[Group] = []
        trips: list[Group] = []
        sets: list[Group] = []
        chow, pung, kong = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG
        for g in self.groups:
            k = g.kind
            if k is chow:
                sets.append(g)
                chows.append(g)
            elif k is pung or k is kong:
                sets.append(g)
                trips.append(g)
        setattr_ = object.__setattr__
        setattr_(self, "sets", tuple(sets))
        setattr_(self, "chows", tuple(chows))
        setattr_(self, "triplets", tuple(trips))
        shape = self.shape
        if shape is Shape.REGULAR or shape is Shape.KNITTED_STRAIGHT:
            setattr_(self, "pair", self.groups[-1].tile)

    @classmethod
    def _make(
        cls,
        shape: Shape,
        groups: tuple[Group, ...],
        sets: tuple[Group, ...],
        chows: tuple[Group, ...],
        triplets: tuple[Group, ...],
        pair: Tile | None,
    ) -> Decomposition:
        """Build one whose derived fields the caller already has (no checks)."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "shape", shape)
        setattr_(self, "groups", groups)
        setattr_(self, "knitted", ())
        setattr_(self, "sets", sets)
        setattr_(self, "chows", chows)
        setattr_(self, "triplets", triplets)
        setattr_(self, "pair", pair)
        setattr_(self, "_text", "")
        return self

    @property
    def text(self) -> str:
        """The split in tile notation, e.g. ``"123m 456m 789m 111z 55p"``;
        declared melds in brackets (``[777z]``, ``[5555p]暗``)."""
        text = self._text
        if not text:
            shape = self.shape
            if shape is Shape.THIRTEEN_ORPHANS:
                text = "十三幺"
            elif shape is Shape.HONORS_AND_KNITTED:
                text = "全不靠"
            else:
                text = " ".join([g._text or _group_text(g) for g in self.groups])
            object.__setattr__(self, "_text", text)
        return text

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------------------
# Regular shape: sets + pair from a count vector, solved per suit.
#
# A hand's suits (万 筒 条 and the honours) never share a set, so every split
# of a hand is one split per suit, and a hand waits on a tile when that tile's
# suit completes and the other suits are complete already.  Each suit's
# answers are memoised by its count pattern (a few thousand patterns occur),
# so a hand never seen before is mostly solved from these tables.

_REGULAR = Shape.REGULAR
_SEGMENTS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
_SEG_OF = tuple(min(i // 9, 3) for i in range(34))

SuitSplits = tuple[tuple[int, ...], ...]
PairSplits = tuple[tuple[int, tuple[int, ...]], ...]


def _seg_sets(
    c: list[int],
    i: int,
    n: int,
    lo: int,
    chows: bool,
    out: list[tuple[int, ...]],
    acc: list[int],
) -> None:
    """Split a suit's counts ``c`` (no pair left) into sets; append each split.

    Set codes are ``tile * 2 + 1`` for a pung, ``tile * 2`` for a chow's first
    tile (global tile indices: ``lo`` + position); pungs are tried first.
    """
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        out.append(tuple(acc))
        return
    if c[i] >= 3:
        c[i] -= 3
        acc.append((lo + i) * 2 + 1)
        _seg_sets(c, i, n, lo, chows, out, acc)
        acc.pop()
        c[i] += 3
    if chows and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append((lo + i) * 2)
        _seg_sets(c, i, n, lo, chows, out, acc)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


class _Suit:
    """Everything about one suit's count pattern (memoised per pattern).

    Attributes:
        rem: tile count mod 3 (0: sets only, 2: sets + the pair, 1: never).
        plain: every split into sets only (sorted codes), first found first.
        paired: every split into sets + a pair, as ``(pair tile, codes)``,
            ordered by pair tile then as found.
        fits: the pattern can be part of a complete hand (``plain`` or
            ``paired`` not empty, as ``rem`` says); ``pair``: it holds the pair.
        one: when the pattern has exactly one split, its groups as
            ``(sets, chows, pungs, pair group or None)``; else ``None``.
        kinds: how many kinds of the suit are held.
    """

    __slots__ = ("rem", "plain", "paired", "fits", "pair", "one", "kinds")

    def __init__(self, seg: int, pat: tuple[int, ...]) -> None:
        lo, hi, chows = _SEGMENTS[seg]
        n = hi - lo
        self.rem = sum(pat) % 3
        self.kinds = n - pat.count(0)
        c = list(pat)
        plain: list[tuple[int, ...]] = []
        paired: list[tuple[int, tuple[int, ...]]] = []
        if self.rem == 0:
            found: list[tuple[int, ...]] = []
            _seg_sets(c, 0, n, lo, chows, found, [])
            seen: set[tuple[int, ...]] = set()
            for s in found:
                key = tuple(sorted(s))
                if key not in seen:  # 1111+23: pung-then-chow = chow-then-pung
                    seen.add(key)
                    plain.append(key)
        elif self.rem == 2:
            seen2: set[tuple[int, tuple[int, ...]]] = set()
            for p in range(n):
                if c[p] >= 2:
                    c[p] -= 2
                    found = []
                    _seg_sets(c, 0, n, lo, chows, found, [])
                    c[p] += 2
                    for s in found:
                        pkey = (lo + p, tuple(sorted(s)))
                        if pkey not in seen2:
                            seen2.add(pkey)
                            paired.append(pkey)
        self.plain: SuitSplits = tuple(plain)
        self.paired: PairSplits = tuple(paired)
        self.fits = bool(plain) if self.rem == 0 else bool(paired)
        self.pair = self.rem == 2
        self.one: (
            tuple[tuple[Group, ...], tuple[Group, ...], tuple[Group, ...], Group | None]
            | None
        ) = None
        only: tuple[int, ...] | None = None
        pair_group: Group | None = None
        if self.rem == 0 and len(plain) == 1:
            only = plain[0]
        elif self.rem == 2 and len(paired) == 1:
            only = paired[0][1]
            pair_group = _PAIR_GROUPS[paired[0][0]]
        if only is not None:
            sets = tuple([_CODE_GROUPS[code] for code in only])
            self.one = (
                sets,
                tuple([g for code, g in zip(only, sets, strict=True) if not code & 1]),
                tuple([g for code, g in zip(only, sets, strict=True) if code & 1]),
                pair_group,
            )


_SUITS: tuple[dict[tuple[int, ...], _Suit], ...] = ({}, {}, {}, {})


def _suit(seg: int, pat: tuple[int, ...]) -> _Suit:
    table = _SUITS[seg]
    got = table.get(pat)
    if got is None:
        if len(table) >= 1 << 16:  # far more than the patterns that occur
            table.clear()
        got = table[pat] = _Suit(seg, pat)
    return got


def _suits(counts: Sequence[int]) -> tuple[_Suit, _Suit, _Suit, _Suit]:
    """The four suits' memo entries of a count vector (length 34)."""
    t0, t1, t2, t3 = _SUITS
    if type(counts) is not tuple:
        counts = tuple(counts)
    p = counts[0:9]
    a = t0.get(p) or _suit(0, p)
    p = counts[9:18]
    b = t1.get(p) or _suit(1, p)
    p = counts[18:27]
    c = t2.get(p) or _suit(2, p)
    p = counts[27:34]
    d = t3.get(p) or _suit(3, p)
    return a, b, c, d


def regular_splits(counts: Sequence[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return every split of ``counts`` (length 34) into sets and one pair.

    Each split is ``(pair_tile, set_codes)`` with set codes ``2*t`` (chow
    starting at ``t``) and ``2*t+1`` (pung of ``t``), sorted; splits are
    ordered by pair tile.  ``()`` when there is none.  Any number of copies
    is accepted (supply is not checked here).
    """
    suits = _suits(counts)
    pair_suit = None
    for s in suits:
        r = s.rem
        if r == 1 or not s.fits:
            return ()
        if r == 2:
            if pair_suit is not None:
                return ()
            pair_suit = s
    if pair_suit is None:
        return ()
    codes: tuple[int, ...] = ()
    for s in suits:
        if s is pair_suit:
            if len(s.paired) != 1:
                return _product(suits, pair_suit)
            codes += s.paired[0][1]
        else:
            if len(s.plain) != 1:
                return _product(suits, pair_suit)
            codes += s.plain[0]
    return ((pair_suit.paired[0][0], codes),)


def _product(
    suits: tuple[_Suit, ...], pair_suit: _Suit
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every combination of the suits' splits, ordered by pair tile, then by
    suit in order (the order a whole-hand search finds them in)."""
    by_pair: dict[int, list[tuple[int, ...]]] = {}
    for p, codes in pair_suit.paired:
        by_pair.setdefault(p, []).append(codes)
    out: list[tuple[int, tuple[int, ...]]] = []
    for p, pair_codes in by_pair.items():
        combos: list[tuple[int, ...]] = [()]
        for s in suits:
            opts = pair_codes if s is pair_suit else s.plain
            combos = [x + y for x in combos for y in opts]
        out.extend((p, codes) for codes in combos)
    return tuple(out)


def is_regular_complete(counts: Sequence[int]) -> bool:
    """True when ``counts`` (length 34, any number of copies) is sets + one pair."""
    pairs = 0
    for s in _suits(counts):
        if not s.fits:
            return False
        pairs += s.pair
    return pairs == 1


def _suit_ok(c: list[int], chows: bool) -> bool:
    """True when one suit's counts ``c`` split into sets only (greedy: the
    lowest tile's count mod 3 must start chows; three equal chows are the
    same tiles as three pungs).  ``c`` is consumed."""
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


_NO, _FITS_PLAIN, _FITS_PAIR = 1, 2, 3
_FITS: tuple[dict[tuple[int, ...], int], ...] = ({}, {}, {}, {})
_ADDS: tuple[dict[tuple[int, ...], tuple[tuple[int, bool], ...]], ...] = (
    {},
    {},
    {},
    {},
)


def _fit(seg: int, pat: tuple[int, ...]) -> int:
    """Whether one suit's pattern fits in a complete hand: ``_NO``,
    ``_FITS_PLAIN`` (sets only) or ``_FITS_PAIR`` (sets + the pair);
    memoised (for the patterns of standing hands)."""
    table = _FITS[seg]
    got = table.get(pat)
    if got is None:
        got = _fit_of(seg, pat)
        if len(table) >= 1 << 17:
            table.clear()
        table[pat] = got
    return got


def _fit_of(seg: int, pat: tuple[int, ...]) -> int:
    """:func:`_fit` without the memo."""
    chows = seg < 3
    rem = sum(pat) % 3
    if rem == 0:
        return _FITS_PLAIN if _suit_ok(list(pat), chows) else _NO
    if rem == 2:
        c = list(pat)
        for p in range(len(c)):
            if c[p] >= 2:
                c[p] -= 2
                ok = _suit_ok(list(c), chows)
                c[p] += 2
                if ok:
                    return _FITS_PAIR
    return _NO


def _adds(seg: int, pat: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
    """``(tile, with the pair)`` for each tile of the suit whose addition
    makes ``pat`` fit a complete hand (a fifth copy allowed)."""
    table = _ADDS[seg]
    got = table.get(pat)
    if got is None:
        lo = _SEGMENTS[seg][0]
        n = len(pat)
        c = list(pat)
        out = []
        for t in range(n):
            if not (
                c[t]
                or (seg < 3 and ((t >= 1 and c[t - 1]) or (t + 1 < n and c[t + 1])))
            ):
                continue  # a lone tile fits nowhere
            c[t] += 1
            f = _fit_of(seg, tuple(c))  # not memoised: these are one-offs
            c[t] -= 1
            if f != _NO:
                out.append((lo + t, f == _FITS_PAIR))
        got = tuple(out)
        if len(table) >= 1 << 17:
            table.clear()
        table[pat] = got
    return got


def _waits(counts: Sequence[int], other_than: int = -1) -> list[int]:
    """Tiles completing ``counts`` (``3k + 1`` tiles) into sets + one pair.

    With ``other_than`` >= 0, stop at the first such tile other than it.
    """
    if type(counts) is not tuple:
        counts = tuple(counts)
    pats = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    fits = [_FITS[j].get(p) or _fit(j, p) for j, p in enumerate(pats)]
    bad = fits.count(_NO)
    out: list[int] = []
    if bad > 1:
        return out
    pairs = fits.count(_FITS_PAIR)
    for j in range(4):
        f = fits[j]
        if f == _NO:
            need = 1 - pairs  # pairs the changed suit must bring
        elif bad:
            continue
        else:
            need = 1 - pairs + (f == _FITS_PAIR)
        if need < 0 or need > 1:
            continue
        p = pats[j]
        adds = _ADDS[j].get(p)
        if adds is None:
            adds = _adds(j, p)
        for t, paired in adds:
            if paired == need and t != other_than:
                out.append(t)
                if other_than >= 0:
                    return out
    return out


@lru_cache(maxsize=1 << 16)
def regular_waits(counts: tuple[int, ...]) -> frozenset[int]:
    """Tiles that complete ``counts`` (``3k + 1`` tiles) into sets + a pair.

    A fifth copy is allowed (a formal wait on a tile whose four copies are
    all held is still a wait, as in the oracle's convention).  Solved per
    suit: adding a tile changes one suit's pattern only.
    """
    return frozenset(_waits(counts))


def has_other_regular_wait(counts: Sequence[int], tile: int) -> bool:
    """True when some tile other than ``tile`` completes ``counts`` (3k + 1).

    The uniqueness test of 独听, stopping at the first other wait.
    """
    return bool(_waits(counts, tile))


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


_ORPHANS_OF = itemgetter(*_ORPHANS)
# (pattern, its nine counts, the counts of the other 18 suited tiles)
_KNITTED_OF = tuple(
    (pat, itemgetter(*pat), itemgetter(*(i for i in range(27) if i not in pat)))
    for pat in KNITTED_PATTERNS
)


def _knitted_match(counts: Sequence[int]) -> tuple[int, ...] | None:
    for pat, nine, _ in _KNITTED_OF:
        if 0 not in nine(counts):
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
        Each suit's splits are memoised (see :func:`split_hand`).
    """
    return split_hand(counts, meld_signature(melds), shapes)


_ALL_SHAPES = frozenset(Shape)
_KINDS = (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)


def _one_split(
    counts: tuple[int, ...], melds: tuple[Group, ...]
) -> Decomposition | None:
    """The regular decomposition when each suit splits one way only, built
    from the suits' memoised groups; ``None`` otherwise (none or several)."""
    a, b, c, d = _suits(counts)
    if not (a.one and b.one and c.one and d.one):
        return None
    pair = None
    sets: tuple[Group, ...] = melds
    chows: tuple[Group, ...] = ()
    trips: tuple[Group, ...] = ()
    for g in melds:
        if g.kind is GroupKind.CHOW:
            chows += (g,)
        else:
            trips += (g,)
    for s in (a, b, c, d):
        g_sets, g_chows, g_trips, g_pair = s.one  # type: ignore[misc]
        if g_pair is not None:
            if pair is not None:
                return None
            pair = g_pair
        if g_sets:
            sets += g_sets
            chows += g_chows
            trips += g_trips
    if pair is None:
        return None
    return Decomposition._make(_REGULAR, sets + (pair,), sets, chows, trips, pair.tile)


_PUNG_KIND = GroupKind.PUNG


def _regular_of(
    melds: tuple[Group, ...], codes: tuple[int, ...], pair: int
) -> Decomposition:
    """The regular decomposition of declared ``melds``, concealed set
    ``codes`` and the ``pair`` tile (what ``Decomposition(...)`` derives,
    built directly)."""
    sets = melds + tuple([_CODE_GROUPS[c] for c in codes])
    chows = tuple([g for g in sets if g.kind is _CHOW_KIND])
    trips = tuple([g for g in sets if g.kind is not _CHOW_KIND])
    p = _PAIR_GROUPS[pair]
    return Decomposition._make(_REGULAR, (*sets, p), sets, chows, trips, p.tile)


_CHOW_KIND = GroupKind.CHOW


def split_hand(
    counts: tuple[int, ...],
    melds: MeldSignature = (),
    shapes: frozenset[Shape] | None = None,
) -> tuple[Decomposition, ...]:
    """:func:`decompositions` with the melds as a :data:`MeldSignature`.

    Not memoised as a whole (a hand seen once would only fill memory): each
    suit's splits are, so a new hand is mostly solved from those tables.
    """
    out: list[Decomposition] = []
    want = shapes if shapes is not None else _ALL_SHAPES
    key = counts if type(counts) is tuple else tuple(counts)
    meld_groups: tuple[Group, ...] = ()
    if melds:
        meld_groups = tuple([_MELD_GROUPS[sig] for sig in melds])
    if _REGULAR in want:
        one = _one_split(key, meld_groups)
        if one is not None:
            out.append(one)
        else:
            for pair, codes in regular_splits(key):
                out.append(_regular_of(meld_groups, codes, pair))
    zeros = key.count(0)  # 34 - number of kinds
    if not melds and (zeros >= 27 or zeros in (20, 21)) and sum(key) == 14:
        if Shape.SEVEN_PAIRS in want and zeros >= 27 and all(n % 2 == 0 for n in key):
            pairs: list[Group] = []
            for i, n in enumerate(key):
                pairs.extend([_PAIR_GROUPS[i]] * (n // 2))
            out.append(Decomposition(Shape.SEVEN_PAIRS, tuple(pairs)))
        if (
            Shape.THIRTEEN_ORPHANS in want
            and zeros == 21
            and 0 not in _ORPHANS_OF(key)
            and sum(_ORPHANS_OF(key)) == 14
        ):
            out.append(Decomposition(Shape.THIRTEEN_ORPHANS, ()))
        if Shape.HONORS_AND_KNITTED in want and zeros == 20 and max(key) == 1:
            for pat, _, others in _KNITTED_OF:
                if not any(others(key)):
                    out.append(Decomposition(Shape.HONORS_AND_KNITTED, (), pat))
                    break
    if (
        zeros <= 25
        and len(melds) <= 1
        and Shape.KNITTED_STRAIGHT in want
        and min(s.kinds for s in _suits(key)[:3]) >= 3  # 147/258/369 each
    ):
        kpat = _knitted_match(key)
        if kpat is not None:
            rest = list(key)
            for i in kpat:
                rest[i] -= 1
            for pair, codes in regular_splits(rest):
                groups = (
                    (Group(GroupKind.KNITTED, ALL_TILES[kpat[0]], knitted=kpat),)
                    + meld_groups
                    + tuple([_CODE_GROUPS[c] for c in codes])
                    + (_PAIR_GROUPS[pair],)
                )
                out.append(Decomposition(Shape.KNITTED_STRAIGHT, groups, kpat))
    return tuple(out)
