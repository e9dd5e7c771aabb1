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

Where the parts live: :mod:`.groups` (groups and :class:`Decomposition`),
:mod:`.suits` (the regular shape per suit: splits, completeness, waits);
this module adds the special shapes and lists every decomposition.  The
names in ``__all__`` stay importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter

from .groups import (
    _CODE_GROUPS,
    _MELD_GROUPS,
    _PAIR_GROUPS,
    KNITTED_PATTERNS,
    Decomposition,
    Group,
    GroupKind,
)
from .melds import Meld, MeldKind
from .shanten import Shape
from .suits import (
    _REGULAR,
    _Suit,
    _suits,
    has_other_regular_wait,
    has_other_wait_of_complete,
    is_regular_complete,
    regular_splits,
    regular_waits,
    seven_pairs_waits,
)
from .tiles import ALL_TILES

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
    "has_other_wait_of_complete",
    "is_regular_complete",
    "regular_splits",
    "regular_waits",
    "seven_pairs_waits",
]


# ---------------------------------------------------------------------------
# Special shapes.

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


_ORPHANS_OF = itemgetter(*_ORPHANS)
_TILE_RANGE = range(34)
_ODD = frozenset(range(1, 15, 2))  # odd counts of 14 tiles (one scan in C)
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
_SEVEN_PAIRS = Shape.SEVEN_PAIRS  # Enum attributes are slow to read
_THIRTEEN_ORPHANS = Shape.THIRTEEN_ORPHANS
_HONORS_AND_KNITTED = Shape.HONORS_AND_KNITTED
_KNITTED_STRAIGHT = Shape.KNITTED_STRAIGHT


def _one_split(
    suits: tuple[_Suit, _Suit, _Suit, _Suit], melds: tuple[Group, ...]
) -> Decomposition | None:
    """The regular decomposition when each suit (:func:`_suits` of the
    concealed tiles) splits one way only, built from the suits' memoised
    groups; ``None`` otherwise (none or several)."""
    a, b, c, d = suits
    if not (a.one and b.one and c.one and d.one):
        return None
    pair = None
    sets: tuple[Group, ...] = melds
    chows: tuple[Group, ...] = ()
    trips: tuple[Group, ...] = ()
    for g in melds:
        if g.kind is _CHOW_KIND:
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
    suits = _suits(key)
    if _REGULAR in want:
        one = _one_split(suits, meld_groups)
        if one is not None:
            out.append(one)
        else:
            for pair, codes in regular_splits(key):
                out.append(_regular_of(meld_groups, codes, pair))
    zeros = key.count(0)  # 34 - number of kinds
    if not melds and (zeros >= 27 or zeros in (20, 21)) and sum(key) == 14:
        if _SEVEN_PAIRS in want and zeros >= 27 and _ODD.isdisjoint(key):
            pairs: list[Group] = []
            for i in compress(_TILE_RANGE, key):  # the seven kinds or fewer
                n = key[i]
                if n == 2:
                    pairs.append(_PAIR_GROUPS[i])
                else:  # four of a kind is two pairs
                    pairs.extend([_PAIR_GROUPS[i]] * (n // 2))
            out.append(Decomposition(Shape.SEVEN_PAIRS, tuple(pairs)))
        if (
            _THIRTEEN_ORPHANS in want
            and zeros == 21
            and 0 not in _ORPHANS_OF(key)
            and sum(_ORPHANS_OF(key)) == 14
        ):
            out.append(Decomposition(Shape.THIRTEEN_ORPHANS, ()))
        if _HONORS_AND_KNITTED in want and zeros == 20 and max(key) == 1:
            for pat, _, others in _KNITTED_OF:
                if not any(others(key)):
                    out.append(Decomposition(Shape.HONORS_AND_KNITTED, (), pat))
                    break
    if (
        zeros <= 25
        and len(melds) <= 1
        and _KNITTED_STRAIGHT in want
        and suits[0].kinds >= 3  # 147/258/369 each
        and suits[1].kinds >= 3
        and suits[2].kinds >= 3
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
