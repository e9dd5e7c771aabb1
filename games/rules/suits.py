"""The regular shape (four sets + a pair) solved per suit: splits, completeness
and waits, memoised by each suit's count pattern.

Split out of :mod:`games.rules.decompose` (issue 15); importable from there as
before.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .groups import _CODE_GROUPS, _PAIR_GROUPS, Group
from .shanten import Shape

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


_SplitsOf = tuple[int, int, SuitSplits, PairSplits]


def _splits_of(seg: int, pat: tuple[int, ...]) -> _SplitsOf:
    """``(rem, kinds, plain, paired)`` of one suit's pattern (see
    :class:`_Suit`), with tile indices counted from the suit's first tile:
    from the table :data:`_SPLITS` (the three suited suits share it),
    searched only outside its bounds."""
    got = _SPLITS[seg == 3].get(pat)
    if got is not None:
        return got
    if sum(pat) <= 14 and max(pat) <= 4:  # within the table: fits nowhere
        return sum(pat) % 3, len(pat) - pat.count(0), (), ()
    return _search_splits(seg, pat)


def _search_splits(seg: int, pat: tuple[int, ...]) -> _SplitsOf:
    """:func:`_splits_of` by a search (any pattern; the rule the table keeps)."""
    n = len(pat)
    chows = seg != 3
    rem = sum(pat) % 3
    c = list(pat)
    plain: list[tuple[int, ...]] = []
    paired: list[tuple[int, tuple[int, ...]]] = []
    if rem == 0:
        found: list[tuple[int, ...]] = []
        _seg_sets(c, 0, n, 0, chows, found, [])
        seen: set[tuple[int, ...]] = set()
        for s in found:
            key = tuple(sorted(s))
            if key not in seen:  # 1111+23: pung-then-chow = chow-then-pung
                seen.add(key)
                plain.append(key)
    elif rem == 2:
        seen2: set[tuple[int, tuple[int, ...]]] = set()
        for p in range(n):
            if c[p] >= 2:
                c[p] -= 2
                found = []
                _seg_sets(c, 0, n, 0, chows, found, [])
                c[p] += 2
                for s in found:
                    pkey = (p, tuple(sorted(s)))
                    if pkey not in seen2:
                        seen2.add(pkey)
                        paired.append(pkey)
    return rem, n - pat.count(0), tuple(plain), tuple(paired)


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
        lo = _SEGMENTS[seg][0]
        rem, kinds, plain, paired = _splits_of(seg, pat)
        if lo:  # the shared splits are for tiles from 0: move them to the suit
            lo2 = lo * 2
            plain = tuple([tuple([x + lo2 for x in codes]) for codes in plain])
            paired = tuple(
                [(p + lo, tuple([x + lo2 for x in codes])) for p, codes in paired]
            )
        self.rem = rem
        self.kinds = kinds
        self.plain: SuitSplits = plain
        self.paired: PairSplits = paired
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
            sets: list[Group] = []
            chows: list[Group] = []
            pungs: list[Group] = []
            for code in only:  # one loop: this runs for every new pattern
                g = _CODE_GROUPS[code]
                sets.append(g)
                if code & 1:
                    pungs.append(g)
                else:
                    chows.append(g)
            self.one = (tuple(sets), tuple(chows), tuple(pungs), pair_group)


# Each suit's memo entries, by count pattern.  The patterns of a hand's suit
# are finite (0-4 copies of each kind, at most 14 tiles: 405,350 suited and
# 43,130 honour patterns), but only some tens of thousands occur in play:
# each suit keeps at most _SUIT_BOUND of them (least recently used dropped).
_SUIT_BOUND = 1 << 15


@lru_cache(maxsize=_SUIT_BOUND)
def _suit_m(pat: tuple[int, ...]) -> _Suit:
    return _Suit(0, pat)


@lru_cache(maxsize=_SUIT_BOUND)
def _suit_p(pat: tuple[int, ...]) -> _Suit:
    return _Suit(1, pat)


@lru_cache(maxsize=_SUIT_BOUND)
def _suit_s(pat: tuple[int, ...]) -> _Suit:
    return _Suit(2, pat)


@lru_cache(maxsize=_SUIT_BOUND)
def _suit_z(pat: tuple[int, ...]) -> _Suit:
    return _Suit(3, pat)


def _suits(counts: Sequence[int]) -> tuple[_Suit, _Suit, _Suit, _Suit]:
    """The four suits' memo entries of a count vector (length 34)."""
    if type(counts) is not tuple:
        counts = tuple(counts)
    return (
        _suit_m(counts[0:9]),
        _suit_p(counts[9:18]),
        _suit_s(counts[18:27]),
        _suit_z(counts[27:34]),
    )


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


def _complete_patterns(n: int, chows: bool) -> dict[tuple[int, ...], _SplitsOf]:
    """Every pattern of one suit (``n`` kinds, chows allowed or not) that is
    at most four sets, or at most four sets + a pair, with at most 4 copies
    of a kind, and its splits (as :func:`_search_splits` gives them).

    Each multiset of sets is made once, adding sets lowest tile first (none,
    a pung, chows, or both at each tile); patterns repeat (three chows 123 =
    three pungs).  The search lists a pattern's splits in the order it meets
    them: it takes the lowest tile's pung before its chow, so its order is
    that of the splits' codes with pungs first at each tile (``code ^ 1``,
    sorted and compared in turn); with a pair, by pair tile first.
    """
    plain: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    c = [0] * n
    acc: list[int] = []  # set codes: 2 * tile + 1 a pung, 2 * tile a chow
    last = n - 2 if chows else 0  # chows start below this

    def at(t: int, left: int) -> None:
        # sets starting at tile t: none, a pung, chows, or both
        if t == n or not left:
            plain.setdefault(tuple(c), []).append(tuple(sorted(acc)))
            return
        at(t + 1, left)
        if c[t] <= 1:
            c[t] += 3
            acc.append(2 * t + 1)
            at(t + 1, left - 1)
            acc.pop()
            c[t] -= 3
        if t < last:
            for pung in (0, 1):
                if pung and c[t] > 1:
                    break
                if pung:
                    c[t] += 3
                    acc.append(2 * t + 1)
                k = 0
                while k + pung < left and c[t] < 4 and c[t + 1] < 4 and c[t + 2] < 4:
                    k += 1
                    c[t] += 1
                    c[t + 1] += 1
                    c[t + 2] += 1
                    acc.append(2 * t)
                    at(t + 1, left - k - pung)
                if k:
                    del acc[-k:]
                if pung:
                    acc.pop()
                c[t] -= k + 3 * pung
                c[t + 1] -= k
                c[t + 2] -= k

    at(0, 4)

    def order(codes: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted([x ^ 1 for x in codes]))

    out: dict[tuple[int, ...], _SplitsOf] = {}
    paired: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}
    for pat, splits in plain.items():
        splits.sort(key=order)
        out[pat] = (sum(pat) % 3, n - pat.count(0), tuple(splits), ())
        q = list(pat)
        for p in range(n):
            if q[p] <= 2:
                q[p] += 2
                paired.setdefault(tuple(q), []).extend([(p, s) for s in splits])
                q[p] -= 2
    for pat, pairs in paired.items():
        pairs.sort(key=lambda ps: (ps[0], order(ps[1])))
        out[pat] = (sum(pat) % 3, n - pat.count(0), (), tuple(pairs))
    return out


_SPLITS = (_complete_patterns(9, True), _complete_patterns(7, False))
"""Suited (shared by 万 筒 条) and honour patterns of at most 14 tiles (4
copies a kind at most) that fit a complete hand, with their splits, tiles
counted from the suit's first tile: 21,743 + 498 entries built at import
(some tens of ms, about 8 MB with :data:`_FITS`), so a hand never seen before
never searches a suit.  A pattern within those bounds that is missing fits
nowhere."""
_SUITED_FITS = {
    pat: _FITS_PAIR if v[3] else _FITS_PLAIN for pat, v in _SPLITS[0].items()
}
_HONOR_FITS = {
    pat: _FITS_PAIR if v[3] else _FITS_PLAIN for pat, v in _SPLITS[1].items()
}
_FITS: tuple[dict[tuple[int, ...], int], ...] = (
    _SUITED_FITS,
    _SUITED_FITS,
    _SUITED_FITS,
    _HONOR_FITS,
)
"""Per suit: whether each pattern of :data:`_SPLITS` fits as sets only or
as sets + the pair (a pattern within its bounds that is missing does not)."""
_LO = (0, 9, 18, 27)  # each suit's first tile


def _fit(seg: int, pat: tuple[int, ...]) -> int:
    """Whether one suit's pattern fits in a complete hand: ``_NO``,
    ``_FITS_PLAIN`` (sets only) or ``_FITS_PAIR`` (sets + the pair); from
    the table :data:`_FITS`, solved only outside its bounds."""
    got = _FITS[seg].get(pat)
    if got is not None:
        return got
    if sum(pat) <= 14 and max(pat) <= 4:
        return _NO
    return _fit_of(seg, pat)


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
    makes ``pat`` fit a complete hand (a fifth copy allowed); tiles are
    counted from the suit's first tile (add ``_LO[seg]``)."""
    n = len(pat)
    c = list(pat)
    out = []
    fits = _FITS[seg]
    # _fit inlined (this runs for every new waiting pattern): a pattern
    # missing from the table fits nowhere when within its bounds.
    within = sum(pat) < 14 and max(pat) <= 4
    for t in range(n):
        if not (
            c[t] or (seg < 3 and ((t >= 1 and c[t - 1]) or (t + 1 < n and c[t + 1])))
        ):
            continue  # a lone tile fits nowhere
        c[t] += 1
        key = tuple(c)
        f = fits.get(key) or (_NO if within and c[t] <= 4 else _fit_of(seg, key))
        c[t] -= 1
        if f != _NO:
            out.append((t, f == _FITS_PAIR))
    return tuple(out)


# _adds per suit, by pattern (the three suited suits share one memo, tiles
# counted from the suit's first tile).  The domain is the patterns of 3k + 1
# or 3k + 2 tiles that occur in waiting hands: finite, some tens of
# thousands in play; bounded.
_ADDS_BOUND = 1 << 16


@lru_cache(maxsize=_ADDS_BOUND)
def _suited_adds(pat: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
    return _adds(0, pat)


@lru_cache(maxsize=_ADDS_BOUND // 8)
def _honor_adds(pat: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
    return _adds(3, pat)


_ADDS = (_suited_adds, _suited_adds, _suited_adds, _honor_adds)


def _waits(counts: Sequence[int], other_than: int = -1) -> list[int]:
    """Tiles completing ``counts`` (``3k + 1`` tiles) into sets + one pair.

    With ``other_than`` >= 0, stop at the first such tile other than it.
    """
    if type(counts) is not tuple:
        counts = tuple(counts)
    pats = (p0, p1, p2, p3) = (
        counts[0:9],
        counts[9:18],
        counts[18:27],
        counts[27:34],
    )
    suited = _SUITED_FITS
    fits = [
        suited.get(p0) or _fit(0, p0),
        suited.get(p1) or _fit(1, p1),
        suited.get(p2) or _fit(2, p2),
        _HONOR_FITS.get(p3) or _fit(3, p3),
    ]
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
        adds = _ADDS[j](p)
        lo = _LO[j]
        for t, paired in adds:
            if paired == need and t + lo != other_than:
                out.append(t + lo)
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


def has_other_wait_of_complete(standing: Sequence[int], win: int, pair: int) -> bool:
    """:func:`has_other_regular_wait` ``(standing, win)`` when ``standing`` +
    ``win`` splits into sets and a pair of tile ``pair`` (any such split).

    Only two suits can hold another wait: the winning tile's (its other
    completing tiles with the pair where it was) and, when the winning tile's
    suit can hold the pair instead, the pair's suit completed as sets only.
    The other suits are complete as they stand; so one or two patterns are
    looked up, not four.
    """
    if type(standing) is not tuple:
        standing = tuple(standing)  # slices are the memos' keys
    j = _SEG_OF[win]
    lo = _LO[j]
    p = standing[lo : lo + 9] if j < 3 else standing[27:34]
    w = win - lo
    jp = _SEG_OF[pair]
    with_pair = jp == j
    for t, paired in _ADDS[j](p):
        if paired is with_pair and t != w:
            return True
    if with_pair or _fit(j, p) != _FITS_PAIR:
        return False
    lo = _LO[jp]
    q = standing[lo : lo + 9] if jp < 3 else standing[27:34]
    return any(not paired for _, paired in _ADDS[jp](q))


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
