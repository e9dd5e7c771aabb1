"""A fan table prepared for scoring, and the evaluation of one split.

Per fan table and shape the fans are grouped by what they need
(``Fan.needs``), groups needing a usually-absent feature are filed under it,
and 不计 is applied as bit masks over the fans' value ranks.  Split out of
:mod:`games.rules.scoring` (issue 15); importable from there as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .fans.base import Fan, FanLine
from .scoring_context import ScoringContext
from .scoring_features import (
    _ALL_SHAPES,
    _SHAPE_BIT,
    _TILE_FEATURES,
    FEATURES,
    _split_features,
    needs_mask,
)
from .shanten import Shape

# -- shared analyses ----------------------------------------------------------

Analysis = Callable[["ScoringContext"], Mapping[str, int]]
"""A shared analysis of a context: ``{fan id: count}`` for the fans it finds."""

_Cond = Callable[["ScoringContext"], int]
_Plain = tuple[tuple[int, Fan, _Cond], ...]
_Batched = tuple[tuple[Analysis, dict[str, tuple[tuple[int, Fan], ...]]], ...]
# Fans grouped by requirement: (features needed, conditions, analyses to run).
_Exact = tuple[tuple[int, Fan, int], ...]  # (rank, fan, 1)
_Groups = tuple[tuple[int, _Plain, _Batched, _Exact], ...]
# Per shape: groups needing only common features, groups keyed by a rare
# feature they need (tried only when the context has it), the rare keys.
_Stage = tuple[_Groups, dict[int, _Groups], int]

# Features most contexts lack: a group needing one is filed under it, so the
# scorer does not even look at it otherwise.  (Any choice is correct; this
# one is fast.)  Tile-set features (tiles_feature) are rare too.
_RARE = tuple(
    FEATURES[name]
    for name in (
        "fallback",
        "last_draw",
        "last_claim",
        "replacement",
        "robbing",
        "last_tile",
        "melded4",
        "concealed_pungs4",
        "triplets4",
        "concealed_pungs3",
        "kongs",
        "melded_kong",
        "concealed_kong",
        "hog",
        "pair_wind",
        "pair_dragon",
        "pair_five",
        "dragon3",
        "round_wind3",
        "seat_wind3",
        "edge_wait",
        "closed_wait",
        "single_wait",
        "concealed_pungs2",
        "no_melds",
        "terminal_or_wind3",
        "pair_terminal_or_honor",
    )
)


class _Plan:
    """A fan table prepared for scoring: each fan's rank (value order),
    requirement, shared analysis and 不计 set (as rank bits), and per shape
    the fans grouped by requirement."""

    __slots__ = ("fans", "entries", "by_shape", "all", "excludes", "lines")

    def __init__(self, fans: Sequence[Fan]) -> None:
        self.fans = fans
        # rank = position in value order (stable): exclusions are applied and
        # lines listed highest value first even if a table is not sorted.
        order = sorted(range(len(fans)), key=lambda i: -fans[i].points)
        self.entries = tuple(
            (rank, fans[i], needs_mask(fans[i])) for rank, i in enumerate(order)
        )
        self.all: _Plain = tuple((r, f, f.condition) for r, f, _ in self.entries)
        ranks: dict[str, int] = {}
        for r, f, _ in self.entries:
            ranks[f.id] = ranks.get(f.id, 0) | 1 << r
        self.excludes = tuple(
            sum(ranks.get(x, 0) for x in set(f.excludes)) for _, f, _ in self.entries
        )
        self.by_shape: dict[Shape, _Stage] = {}
        # counted breakdown lines by rank << 8 | count
        self.lines: dict[int, FanLine] = {}

    def stage(self, shape: Shape) -> _Stage:
        """The fans a split of ``shape`` may have, grouped by requirement
        (the shape's own features left out of the requirement)."""
        got = self.by_shape.get(shape)
        if got is None:
            got = self.by_shape[shape] = self._stage(shape)
        return got

    def _stage(self, shape: Shape) -> _Stage:
        bits = _SHAPE_BIT[shape]
        groups: dict[int, tuple[list[Any], dict[Any, Any], list[Any]]] = {}
        for rank, fan, need in self.entries:
            if need & _ALL_SHAPES & ~bits:
                continue  # needs another shape
            plain, batched, exact = groups.setdefault(need & ~bits, ([], {}, []))
            if fan.exact and fan.needs:
                exact.append((rank, fan, 1))
            elif fan.via is None:
                plain.append((rank, fan, fan.condition))
            else:
                keys = batched.setdefault(fan.via, {})
                keys.setdefault(fan.id, []).append((rank, fan))
        common: list[tuple[int, _Plain, _Batched, _Exact]] = []
        rare: dict[int, list[tuple[int, _Plain, _Batched, _Exact]]] = {}
        rare_bits = [*_RARE, *_TILE_FEATURES]
        for need, (plain, batched, exact) in groups.items():
            group = (
                need,
                tuple(plain),
                tuple(
                    (a, {k: tuple(v) for k, v in keys.items()})
                    for a, keys in batched.items()
                ),
                tuple(exact),
            )
            key = next((b for b in rare_bits if need & b), 0)
            if key:
                rare.setdefault(key, []).append(group)
            else:
                common.append(group)
        rare_t = {k: tuple(v) for k, v in rare.items()}
        rare_mask = 0
        for k in rare_t:
            rare_mask |= k
        return tuple(common), rare_t, rare_mask


# A fan table's plan, by the table's identity (kept alive by the entry).
_PLANS: dict[int, _Plan] = {}


def forget_plans() -> None:
    """Drop every prepared plan (a new tile-set feature changes the gates)."""
    _PLANS.clear()


def _plan(fans: Sequence[Fan]) -> _Plan:
    got = _PLANS.get(id(fans))
    if got is None or got.fans is not fans:
        got = _PLANS[id(fans)] = _Plan(fans)
    return got


# (rank, fan, count) of the fans present, in value order
_Found = list[tuple[int, Fan, int]]


def _evaluate(ctx: ScoringContext, fans: Sequence[Fan]) -> tuple[_Found, int, int]:
    """Evaluate the fans; apply 不计; return (present, total, minimum)."""
    plan = _plan(fans)
    feats = _split_features(ctx) | ctx.hand.features
    found: _Found = []
    add = found.append
    common, rare, rare_mask = plan.stage(ctx.shape)
    groups: Sequence[tuple[int, _Plain, _Batched, _Exact]] = common
    more = feats & rare_mask
    while True:
        for need, plain, batched, exact in groups:
            if need & feats != need:
                continue
            if exact:
                found += exact
            for r, f, cond in plain:
                n = cond(ctx)
                if n:
                    add((r, f, n))
            for analysis, keys in batched:
                for key, n in analysis(ctx).items():
                    hit = keys.get(key)
                    if hit is not None and n:
                        for r, f in hit:
                            add((r, f, n))
        if not more:
            break
        bit = more & -more
        more ^= bit
        groups = rare[bit]
    for _, f, _ in found:
        if f.counts_toward_minimum:
            break
    else:
        ctx.nothing_else = True
        got = {r for r, _, _ in found}
        found += [
            (r, f, n) for r, f, cond in plan.all if r not in got and (n := cond(ctx))
        ]
        ctx.nothing_else = False
    found.sort()  # by rank: ranks are unique, fans are never compared
    excludes = plan.excludes
    out = 0  # ranks not counted (不计)
    total = minimum = 0
    for r, fan, n in found:
        if out >> r & 1:
            continue
        v = fan.points * n
        total += v
        if fan.counts_toward_minimum:
            minimum += v
        out |= excludes[r]
    return found, total, minimum
