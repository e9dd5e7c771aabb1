"""Context features: cheap facts of a hand or split that gate fan conditions.

A :class:`~games.rules.fans.base.Fan` names the features it needs
(``Fan.needs``); the scorer checks only the fans whose features the context
has.  Split out of :mod:`games.rules.scoring` (issue 15); importable from
there as before.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from .fans.base import Fan
from .shanten import Shape
from .tiles import NUM_KINDS

if TYPE_CHECKING:
    from .scoring_context import HandFacts, ScoringContext
EDGE = "edge"
CLOSED = "closed"
SINGLE = "single"
"""Wait positions of the winning tile (边张, 坎张, 单钓将)."""


# -- requirements: a cheap gate in front of a condition ----------------------
#
# A fan may declare features the context must have for its condition to be
# non-zero (``Fan.needs``, e.g. ``("regular", "chows2")``).  The scorer computes the
# context's features once (most of them once per hand) and calls only the
# conditions whose requirements are all met, so a table of 81 fans costs a
# handful of calls per split.  A requirement is a promise made by the
# condition's author: the condition would return 0 without it.  The fallback
# pass (``nothing_else``) ignores requirements.
#
# A fan may also declare that its condition *is* a look-up into an analysis
# shared by several fans (``Fan.via``): the scorer then runs the analysis once
# and credits the fans it names, instead of calling each condition.

FEATURES: dict[str, int] = {
    name: 1 << i
    for i, name in enumerate(
        (
            "regular",  # shape REGULAR
            "seven_pairs",  # shape SEVEN_PAIRS
            "thirteen_orphans",
            "honors_and_knitted",
            "knitted_straight",
            "chows2",  # at least two chows (declared or concealed)
            "triplets1",  # at least one pung or kong
            "triplets2",  # at least two pungs or kongs
            "kongs",  # at least one kong
            "flags",  # 和绝张 / 杠 / 海底 situation flag in force
            "wait",  # a wait fan position (ctx.wait is set)
            "flowers",  # at least one flower
            "fallback",  # only in the fallback pass
            "honors",  # a wind or dragon in the hand
            "no_honors",  # no wind or dragon
            "one_suit",  # exactly one of 万 筒 条
            "two_suits",  # exactly two
            "three_suits",  # all three
            "self_drawn",  # won on a drawn tile
            "discard",  # won on a discard (incl. 抢杠)
            "hog",  # four of a kind not declared as a kong
            "knitted",  # shape KNITTED_STRAIGHT or HONORS_AND_KNITTED
            "triplets4",  # four pungs or kongs
            "no_triplets",  # no pung or kong
            "edge_wait",  # ctx.wait == "edge"
            "closed_wait",  # ctx.wait == "closed"
            "single_wait",  # ctx.wait == "single"
            "concealed_pungs2",  # ctx.concealed_pungs == 2
            "concealed_pungs3",  # ... == 3
            "concealed_pungs4",  # ... == 4
            "pair_wind",  # the pair (ctx.pair) is a wind
            "pair_dragon",  # ... a dragon
            "pair_suited",  # ... a suited tile
            "pair_terminal_or_honor",  # ... a suited 1 or 9 or an honour
            "pair_five",  # ... a suited 5
            "no_claims",  # no claimed meld (concealed kongs allowed)
            "no_melds",  # no declared meld at all
            "melded4",  # four claimed melds
            "melded_kong",  # at least one melded kong
            "concealed_kong",  # at least one concealed kong
            "last_tile",  # 和绝张 (HandFacts.last_tile)
            "last_draw",  # 妙手回春
            "last_claim",  # 海底捞月
            "replacement",  # 杠上开花
            "robbing",  # 抢杠和
            "dragon3",  # three or more of some dragon (melds included)
            "round_wind3",  # three or more of the round wind
            "seat_wind3",  # three or more of the seat wind
            "terminal_or_wind3",  # three or more of some suited 1/9 or wind
        )
    )
}
"""Feature names usable in ``Fan.needs``, and their bits.

:func:`tiles_feature` adds features of the form "every tile of the hand is
in this set"."""


def needs_mask(fan: Fan) -> int:
    """The feature bits of ``fan.needs`` (see :data:`FEATURES`).

    Raises:
        KeyError: an unknown feature name.
    """
    mask = 0
    for name in fan.needs:
        mask |= FEATURES[name]
    return mask


# Tile-set features: bit -> the tiles (bit set over indices) allowed.  A
# registry, not a memo: filled at import by the fan modules (12 for MCR, a
# few more for the two-player tables), never by scoring.
_TILE_FEATURES: dict[int, int] = {}
# Per suit segment, segment bits -> the tile-set features they allow: four
# lookup tables of 512, 512, 512 and 128 entries, rebuilt when a feature is
# registered.
_ONLY_TABLES: list[tuple[int, ...]] = []


def tiles_feature(name: str, tiles: int) -> str:
    """Register feature ``name``: every tile of the hand is in ``tiles``.

    ``tiles`` is a bit set over tile indices (bit ``i`` for index ``i``,
    melds included).  Registering the same name with the same tiles again
    is a no-op.  Returns ``name`` (for use in ``Fan.needs``).

    Raises:
        ValueError: ``name`` is already a feature with another meaning.
    """
    bit = FEATURES.get(name)
    if bit is not None:
        if _TILE_FEATURES.get(bit) != tiles:
            raise ValueError(f"feature {name!r} already means something else")
        return name
    bit = 1 << len(FEATURES)
    FEATURES[name] = bit
    _TILE_FEATURES[bit] = tiles
    _ONLY_TABLES.clear()
    from .scoring_plan import forget_plans  # the plans' gates change

    forget_plans()
    return name


def _only_tables() -> list[tuple[int, ...]]:
    """For each suit segment: segment bit pattern -> tile-set features kept."""
    if not _ONLY_TABLES:
        allow = [0] * NUM_KINDS
        every = 0
        for bit, tiles in _TILE_FEATURES.items():
            every |= bit
            for i in range(NUM_KINDS):
                if tiles >> i & 1:
                    allow[i] |= bit
        for lo, n in ((0, 9), (9, 9), (18, 9), (27, 7)):
            table = [every] * (1 << n)
            for v in range(1, 1 << n):
                low = (v & -v).bit_length() - 1
                table[v] = table[v & (v - 1)] & allow[lo + low]
            _ONLY_TABLES.append(tuple(table))
    return _ONLY_TABLES


_F = FEATURES
_F1, _F2, _F3 = _F["one_suit"], _F["two_suits"], _F["three_suits"]
_F_SUITS: tuple[int, ...] = (0, _F1, _F1, _F2, _F1, _F2, _F2, _F3)  # by suit bits
_HONORS_F = (_F["no_honors"], _F["honors"])
_DRAWN_F = (_F["discard"], _F["self_drawn"])
_TERMINAL_OR_WIND = tuple(i for i in range(31) if i >= 27 or i % 9 in (0, 8))


def _hand_features(h: HandFacts) -> int:
    """Features that hold for every split of the hand (see :data:`FEATURES`)."""
    mask = h.mask
    f = _HONORS_F[mask >> 27 != 0] | _F_SUITS[h.suits] | _DRAWN_F[h.self_drawn]
    t0, t1, t2, t3 = _ONLY_TABLES or _only_tables()
    f |= (
        t0[mask & 0x1FF]
        & t1[mask >> 9 & 0x1FF]
        & t2[mask >> 18 & 0x1FF]
        & t3[mask >> 27]
    )
    melded = h.melded
    if melded == 0:
        f |= _NO_MELDS_F if not h.melds else _NO_CLAIMS_F
    elif melded == 4:
        f |= _MELDED4_F
    c = h.counts
    kongs = h.kongs
    if kongs:
        f |= _KONGS_F
        if h.melded_kongs:
            f |= _MELDED_KONG_F
        if h.concealed_kongs:
            f |= _CONCEALED_KONG_F
    if h._four and c.count(4) > kongs:
        f |= _HOG_F
    s = h.situation
    if s.flowers:
        f |= _FLOWERS_F
    if h.last_tile or s.kong or s.wall_last:
        f |= _FLAGS_F
        if h.last_tile:
            f |= _LAST_TILE_F
        if h.last_draw:
            f |= _LAST_DRAW_F
        if h.last_claim:
            f |= _LAST_CLAIM_F
        if h.replacement:
            f |= _REPLACEMENT_F
        if h.robbing:
            f |= _ROBBING_F
    tw = _TERMINALS_HONORS_OF(c)  # six terminals, four winds, three dragons
    if max(tw) >= 3:
        if max(tw[10:]) >= 3:
            f |= _DRAGON3_F
        if c[s.round_wind.index] >= 3:
            f |= _ROUND_WIND3_F
        if c[s.seat_wind.index] >= 3:
            f |= _SEAT_WIND3_F
        if max(tw[:10]) >= 3:
            f |= _TERMINAL_OR_WIND3_F
    return f


_NO_CLAIMS_F = _F["no_claims"]
_NO_MELDS_F = _F["no_claims"] | _F["no_melds"]
_MELDED4_F = _F["melded4"]
_KONGS_F = _F["kongs"]
_MELDED_KONG_F = _F["melded_kong"]
_CONCEALED_KONG_F = _F["concealed_kong"]
_HOG_F = _F["hog"]
_FLOWERS_F = _F["flowers"]
_FLAGS_F = _F["flags"]
_LAST_TILE_F = _F["last_tile"]
_LAST_DRAW_F = _F["last_draw"]
_LAST_CLAIM_F = _F["last_claim"]
_REPLACEMENT_F = _F["replacement"]
_ROBBING_F = _F["robbing"]
_DRAGON3_F = _F["dragon3"]
_ROUND_WIND3_F = _F["round_wind3"]
_SEAT_WIND3_F = _F["seat_wind3"]
_TERMINAL_OR_WIND3_F = _F["terminal_or_wind3"]
# 1m 9m 1p 9p 1s 9s, the winds, the dragons (in this order)
_TERMINALS_HONORS_OF = itemgetter(*_TERMINAL_OR_WIND, 31, 32, 33)


_SHAPE_BIT = {
    Shape.REGULAR: FEATURES["regular"],
    Shape.SEVEN_PAIRS: FEATURES["seven_pairs"],
    Shape.THIRTEEN_ORPHANS: FEATURES["thirteen_orphans"],
    Shape.HONORS_AND_KNITTED: FEATURES["honors_and_knitted"] | FEATURES["knitted"],
    Shape.KNITTED_STRAIGHT: FEATURES["knitted_straight"] | FEATURES["knitted"],
}
_CHOWS2 = _F["chows2"]
# by number of pungs and kongs
_TRIPLETS_F = (
    _F["no_triplets"],
    _F["triplets1"],
    _F["triplets1"] | _F["triplets2"],
    _F["triplets1"] | _F["triplets2"],
    _F["triplets1"] | _F["triplets2"] | _F["triplets4"],
)
_WAIT_F = {
    None: 0,
    EDGE: _F["wait"] | _F["edge_wait"],
    CLOSED: _F["wait"] | _F["closed_wait"],
    SINGLE: _F["wait"] | _F["single_wait"],
}
_CPUNGS_F = (
    0,
    0,
    _F["concealed_pungs2"],
    _F["concealed_pungs3"],
    _F["concealed_pungs4"],
)


def _pair_bits(i: int) -> int:
    if i >= 27:
        f = _F["pair_terminal_or_honor"]
        return f | (_F["pair_wind"] if i < 31 else _F["pair_dragon"])
    f = _F["pair_suited"]
    r = i % 9
    if r in (0, 8):
        f |= _F["pair_terminal_or_honor"]
    elif r == 4:
        f |= _F["pair_five"]
    return f


_PAIR_F = tuple(_pair_bits(i) for i in range(NUM_KINDS))


def _split_features(ctx: ScoringContext) -> int:
    """The features of the context that depend on its split."""
    f = _SHAPE_BIT[ctx.shape] | _TRIPLETS_F[len(ctx.triplets)]
    if len(ctx.chows) >= 2:
        f |= _CHOWS2
    pair = ctx.pair
    if pair is not None:
        f |= _PAIR_F[pair.index] | _WAIT_F[ctx.wait] | _CPUNGS_F[ctx.concealed_pungs]
    return f


def _features(ctx: ScoringContext) -> int:
    """Every feature of the context (see :data:`FEATURES`)."""
    return _split_features(ctx) | ctx.hand.features


_ALL_SHAPES = 0
for _bits in _SHAPE_BIT.values():
    _ALL_SHAPES |= _bits
