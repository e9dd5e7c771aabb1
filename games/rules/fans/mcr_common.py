"""Shared pieces of the MCR fan units: the registering decorator and the
per-decomposition analyses several fans read (see :mod:`.mcr`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..decompose import GroupKind
from ..scoring import FEATURES, Analysis, tiles_feature
from ..shanten import Shape
from .base import Fan
from .mcr_combos import OCODE, chow_fans, pung_fans

if TYPE_CHECKING:
    from ..scoring import ScoringContext

Condition = Callable[["ScoringContext"], int]

_TABLE: list[Fan] = []
"""Every MCR fan, in registration order (the band modules fill it)."""

S3 = "seed 003 番种的分值与计分"


def _fan(
    fan_id: str,
    zh: str,
    en: str,
    points: int,
    excludes: Iterable[str] = (),
    *,
    note: str = "",
    minimum: bool = True,
    needs: tuple[str, ...] = (),
    listed: int | None = None,
    via: Analysis | None = None,
    exact: bool = False,
) -> Callable[[Condition], Condition]:
    """Register the decorated condition as a fan of the MCR table.

    ``needs``, ``via`` and ``exact`` travel with the :class:`Fan` value
    (see there): the context features without which the condition is 0,
    the shared analysis it reads its count from, and whether it is 1
    whenever ``needs`` hold.  ``listed`` is the value seed 003 lists when it
    differs from ``points``.

    Raises:
        KeyError: a name in ``needs`` that is no scorer feature.
    """
    for name in needs:
        FEATURES[name]  # noqa: B018 - fail at import on a misspelt feature

    def deco(fn: Condition) -> Condition:
        src = f"{S3} {listed or points}番 {zh}" + (f"; {note}" if note else "")
        _TABLE.append(
            Fan(
                fan_id,
                zh,
                en,
                points,
                fn,
                frozenset(excludes),
                minimum,
                src,
                needs=tuple(needs),
                exact=exact and bool(needs),
                via=via,
            )
        )
        return fn

    return deco


# ---------------------------------------------------------------------------
# Shared analyses (memoised per decomposition).

_REG = Shape.REGULAR
_TERMINAL_OR_HONOR = tuple(i >= 27 or i % 9 in (0, 8) for i in range(34))
_TERMINAL = tuple(i < 27 and i % 9 in (0, 8) for i in range(34))


def _bits(indices: Iterable[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


# Bit sets over tile indices (bit i = tile i), tested against HandFacts.mask.
_M_TERMINAL = _bits(i for i in range(34) if _TERMINAL[i])
_M_TERMINAL_OR_HONOR = _bits(i for i in range(34) if _TERMINAL_OR_HONOR[i])
_M_HONOR = _bits(range(27, 34))
_M_GREEN = _bits((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 条, 发
_M_REVERSIBLE = _bits((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
_M_EVEN = _bits(i for i in range(27) if i % 9 % 2 == 1)  # 2 4 6 8


# suited ranks r1..r2 in all three suits
def _ranks(lo: int, hi: int) -> int:
    return _bits(s + r - 1 for s in (0, 9, 18) for r in range(lo, hi + 1))


_M_789 = _ranks(7, 9)
_M_456 = _ranks(4, 6)
_M_123 = _ranks(1, 3)
_M_6789 = _ranks(6, 9)
_M_1234 = _ranks(1, 4)
_M_SIMPLES = _ranks(2, 8)

# Tile-set features ("every tile of the hand is in …") for the scorer's gates.
for _name, _tiles in (
    ("only_green", _M_GREEN),
    ("only_terminals", _M_TERMINAL),
    ("only_terminals_or_honors", _M_TERMINAL_OR_HONOR),
    ("only_honors", _M_HONOR),
    ("only_simples", _M_SIMPLES),
    ("only_even", _M_EVEN),
    ("only_reversible", _M_REVERSIBLE),
    ("only_789", _M_789),
    ("only_456", _M_456),
    ("only_123", _M_123),
    ("only_6789", _M_6789),
    ("only_1234", _M_1234),
):
    tiles_feature(_name, _tiles)


_NONE: Mapping[str, int] = MappingProxyType({})


def _chows(ctx: ScoringContext) -> Mapping[str, int]:
    """The chow fans of the split (套算一次 applied), memoised per context."""
    got: Mapping[str, int] | None = ctx.cache.get("mcr.chows")
    if got is None:
        got = ctx.cache["mcr.chows"] = _chow_analysis(ctx)
    return got


def _chow_analysis(ctx: ScoringContext) -> Mapping[str, int]:
    chows = ctx.chows
    if ctx.shape is not _REG or len(chows) < 2:
        return _NONE
    starts = sorted([g.tile.index for g in chows])
    if len(starts) == 4:  # 双龙会 needs the pair: a suited 5
        p = ctx.pair.index if ctx.pair is not None else -1
        starts.append(p if p < 27 and p % 9 == 4 else -1)
    return _chow_fans(tuple(starts))


# Keyed by the chows' sorted first tiles (and the pair of 5, with four
# chows): a finite domain, but about 44,000 keys (multisets of 2-4 of the 21
# chows), of which a few thousand occur in play; bounded.
@lru_cache(maxsize=1 << 14)
def _chow_fans(key: tuple[int, ...]) -> Mapping[str, int]:
    return MappingProxyType(_chow_fans_of(key))


def _chow_fans_of(key: tuple[int, ...]) -> dict[str, int]:
    starts = key[:4]
    if len(key) == 5 and key[4] >= 0:  # 4 chows and a pair of 5
        p = key[4]
        ps = p // 9
        ranks = [s % 9 for s in starts]
        suits = [s // 9 for s in starts]
        if all(r in (0, 6) for r in ranks):
            if all(s == ps for s in suits) and ranks.count(0) == 2:
                return {"PURE_TERMINAL_CHOWS": 1}
            others = {0, 1, 2} - {ps}
            if ps not in suits and {
                (s, r) for s, r in zip(suits, ranks, strict=True)
            } == {(s, r) for s in others for r in (0, 6)}:
                return {"THREE_SUITED_TERMINAL_CHOWS": 1}
    mids = tuple(sorted(OCODE[i] + 1 for i in starts))
    return dict(chow_fans(mids))


# A suited tile's rank as a bit, and the bits of its rank and the ranks
# beside it (any suit).
_RANK_BIT = tuple(1 << (i % 9) for i in range(27))
_NEAR = tuple(7 << (i % 9) >> 1 for i in range(27))


def _pungs(ctx: ScoringContext) -> Mapping[str, int]:
    """The pung fans of the split (套算一次 applied), memoised per context."""
    got: Mapping[str, int] | None = ctx.cache.get("mcr.pungs")
    if got is None:
        got = ctx.cache["mcr.pungs"] = _pung_analysis(ctx)
    return got


def _pung_analysis(ctx: ScoringContext) -> Mapping[str, int]:
    trips = ctx.triplets
    if ctx.shape is not _REG or len(trips) < 2:
        return _NONE
    tiles = [g.tile.index for g in trips]
    # Every pung fan needs two suited pungs at most one rank apart (双同刻,
    # 三同刻, 三节高 …), two dragons or three winds: most pairs of pungs have
    # none of these, and are answered without a key or a memo.
    ranks = 0
    near = False
    dragons = winds = 0
    for i in tiles:
        if i < 27:
            b = _RANK_BIT[i]
            if ranks & _NEAR[i]:
                near = True
                break
            ranks |= b
        elif i >= 31:
            dragons += 1
        else:
            winds += 1
    if not near and dragons < 2 and winds < 3:
        return _NONE
    tiles.sort()
    return _pung_fans(tuple(tiles))


# Keyed by the pungs' sorted tiles: a finite domain, but 73,780 keys
# (multisets of 2-4 of the 34 kinds), of which a few thousand pass the filter
# above in play; bounded.
@lru_cache(maxsize=1 << 14)
def _pung_fans(key: tuple[int, ...]) -> Mapping[str, int]:
    return MappingProxyType(dict(pung_fans(tuple(sorted(OCODE[i] for i in key)))))


def _only(ctx: ScoringContext, allowed: int) -> bool:
    """True when every tile of the hand is in the bit set ``allowed``."""
    return ctx.hand.mask & ~allowed == 0


def _five_groups(ctx: ScoringContext) -> list[tuple[GroupKind, int]]:
    return [(g.kind, g.tile.index) for g in ctx.groups]


def _has_wind_pung(ctx: ScoringContext, wind: int) -> bool:
    return any(g.tile.index == wind for g in ctx.triplets)
