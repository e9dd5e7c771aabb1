"""A fan table prepared for scoring, and the evaluation of one split.

Per fan table and shape the fans are grouped by what they need
(``Fan.needs``), groups needing a usually-absent feature are filed under it,
and 不计 is applied as bit masks over the fans' value ranks.  Split out of
:mod:`games.rules.scoring` (issue 15); importable from there as before.

A split is checked in three table look-ups (issue 15 speed work): the checks
of the fans needing only common features, flattened per combination of those
features (:meth:`_Plan.stage`, a few hundred combinations in play); the fans
present, gathered as one int (:data:`Found`: each fan's count in its rank's
byte, so nothing is sorted); and what they come to once 不计 is applied, with
the breakdown lines (:class:`Outcome`, by :data:`Found`), so that the best
split's result is read, not rebuilt.
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
# A counted breakdown line with its value, its value toward the minimum and
# the ranks it excludes (as bits).
_Cell = tuple[FanLine, int, int, int]
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

    __slots__ = (
        "fans",
        "entries",
        "by_shape",
        "calls",
        "all",
        "excludes",
        "info",
        "tail",
        "lines",
        "cells",
        "to_minimum",
        "outcomes",
    )

    def __init__(self, fans: Sequence[Fan]) -> None:
        self.fans = fans
        # rank = position in value order (stable): exclusions are applied and
        # lines listed highest value first even if a table is not sorted.
        order = sorted(range(len(fans)), key=lambda i: -fans[i].points)
        self.entries = tuple(
            (rank, fans[i], needs_mask(fans[i])) for rank, i in enumerate(order)
        )
        self.all: _Plain = tuple(
            (r * _COUNT_BITS, f, f.condition) for r, f, _ in self.entries
        )
        ranks: dict[str, int] = {}
        for r, f, _ in self.entries:
            ranks[f.id] = ranks.get(f.id, 0) | 1 << r
        self.excludes = tuple(
            sum(ranks.get(x, 0) for x in set(f.excludes)) for _, f, _ in self.entries
        )
        # The last fan in value order when nothing excludes it and it
        # excludes nothing (MCR's 花牌): kept out of the Outcome table's key,
        # its line added after (its counts would multiply the keys).
        last = len(self.entries) - 1
        self.tail = -1
        if (
            last >= 0
            and not self.excludes[last]
            and not any(x >> last & 1 for x in self.excludes)
        ):
            self.tail = last
        # by rank: (fan, its points, counts toward the minimum, its 不计 bits)
        self.info = tuple(
            (f, f.points, f.counts_toward_minimum, self.excludes[r])
            for r, f, _ in self.entries
        )
        # Lookup tables: one entry per shape (five at most).
        self.by_shape: dict[Shape, _Stage] = {}
        self.calls: dict[Shape, _Calls] = {}
        # Breakdown lines by rank << 8 | count (counted), and by
        # (excluding rank + 1) << 16 | rank << 8 | count (not counted).  A
        # lookup table bounded by the table: fans × the counts a fan can have
        # (at most 4 of a set fan, 8 flowers) × (1 + the fans excluding it);
        # a few hundred lines for MCR.
        self.lines: dict[int, FanLine] = {}
        # The same per counted line with what it adds (see cell): as bounded.
        self.cells: dict[int, _Cell] = {}
        self.to_minimum = tuple(to_min for _, _, to_min, _ in self.info)
        # Outcome by the fans found (see _outcome for the bound).
        self.outcomes: dict[Found, Outcome] = {}

    def line(
        self, fan: Fan, count: int, rank: int, by: str | None = None, by_rank: int = -1
    ) -> FanLine:
        """The breakdown line of ``fan`` (of ``rank``) × ``count``, not
        counted when ``by`` (of ``by_rank``) excludes it; made once."""
        key = (by_rank + 1) << 16 | rank << 8 | count
        got = self.lines.get(key)
        if got is None:
            if by is None:
                got = FanLine(fan.id, fan.zh, fan.en, fan.points, count)
            else:
                reason = f"不计: excluded by {by}"
                got = FanLine(
                    fan.id, fan.zh, fan.en, fan.points, count, False, reason, by
                )
            self.lines[key] = got
        return got

    def cell(self, rank: int, count: int) -> _Cell:
        """Fan ``rank`` × ``count`` counted: its line, its value, its value
        toward the minimum and its 不计 bits; made once."""
        fan, points, to_minimum, excludes = self.info[rank]
        v = points * count
        got = self.cells[rank << 8 | count] = (
            self.line(fan, count, rank),
            v,
            v if to_minimum else 0,
            excludes,
        )
        return got

    def stage(self, shape: Shape) -> _Calls:
        """The checks of ``shape``'s fans: ``(mask, entries, rare,
        rare_mask)``.  ``mask``: the features the fans needing only common
        features need; ``entries``: their :data:`_Entry` filled so far per
        ``features & mask`` (see :meth:`entry`); ``rare``: per rare feature,
        the checks of the fans needing it (:data:`_Check`, each behind its
        own requirement); ``rare_mask``: the rare features."""
        got = self.calls.get(shape)
        if got is None:
            common, rare, rare_mask = self._groups(shape)
            mask = 0
            for need, _, _, _ in common:
                mask |= need
            got = self.calls[shape] = (
                mask,
                {},
                {
                    bit: tuple((group[0], *_flat([group])) for group in groups)
                    for bit, groups in rare.items()
                },
                rare_mask,
            )
        return got

    def entry(self, shape: Shape, feats: int) -> _Entry:
        """The :data:`_Entry` of a split of ``shape`` whose common features
        are ``feats`` (masked as :meth:`stage` says), made and filed."""
        common, _, _ = self._groups(shape)
        got = _flat([g for g in common if g[0] & feats == g[0]])
        table = self.stage(shape)[1]
        if len(table) >= _ENTRIES_BOUND:
            table.clear()
        table[feats] = got
        return got

    def _groups(self, shape: Shape) -> _Stage:
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


# A stage's entries: the combinations of common features that occur (a
# few hundred for MCR); past the bound the table starts again.
_ENTRIES_BOUND = 1 << 12
# What a split is checked by: (the fans credited without a call, as Found
# bits and as (rank, 1); conditions to call, with their count's shift and
# their rank; analyses to run, each with {fan id: (shift, rank) of the fans it
# credits}).
_Entry = tuple[
    int,
    tuple[tuple[int, int], ...],
    tuple[tuple[_Cond, int, int], ...],
    tuple[tuple[Analysis, dict[str, tuple[tuple[int, int], ...]]], ...],
]
# An _Entry behind a requirement: (features needed, *entry).
_Check = tuple[
    int,
    int,
    tuple[tuple[int, int], ...],
    tuple[tuple[_Cond, int, int], ...],
    tuple[tuple[Analysis, dict[str, tuple[tuple[int, int], ...]]], ...],
]
_Calls = tuple[int, dict[int, _Entry], dict[int, tuple[_Check, ...]], int]


def _flat(groups: Sequence[tuple[int, _Plain, _Batched, _Exact]]) -> _Entry:
    """The checks of ``groups`` in one :data:`_Entry` (one call per analysis)."""
    found = 0
    exact: list[tuple[int, int]] = []
    plain: list[tuple[_Cond, int, int]] = []
    merged: dict[Analysis, dict[str, tuple[tuple[int, int], ...]]] = {}
    for _, g_plain, g_batched, g_exact in groups:
        for r, _, _ in g_exact:
            found |= 1 << r * _COUNT_BITS
            exact.append((r, 1))
        plain += [(cond, r * _COUNT_BITS, r) for r, _, cond in g_plain]
        for analysis, keys in g_batched:
            into = merged.setdefault(analysis, {})
            for k, v in keys.items():
                into[k] = into.get(k, ()) + tuple((r * _COUNT_BITS, r) for r, _ in v)
    return found, tuple(exact), tuple(plain), tuple(merged.items())


# A fan table's plan, by the table's identity (kept alive by the entry).  A
# lookup table: one entry per fan table in use, i.e. per rule set (about a
# dozen); held to _PLANS_BOUND entries all the same, so code that makes
# tables on the fly (tests re-valuing fans) cannot grow it.
_PLANS: dict[int, _Plan] = {}
_PLANS_BOUND = 64


def forget_plans() -> None:
    """Drop every prepared plan (a new tile-set feature changes the gates)."""
    _PLANS.clear()


def _plan(fans: Sequence[Fan]) -> _Plan:
    got = _PLANS.get(id(fans))
    if got is None or got.fans is not fans:
        if len(_PLANS) >= _PLANS_BOUND:
            _PLANS.clear()
        got = _PLANS[id(fans)] = _Plan(fans)
    return got


# The fans present in a split, as one int: fan ``rank``'s count in bits
# ``8 * rank`` to ``8 * rank + 7`` (a count is below 256: at most 4 of a set
# fan, 8 flowers).  Built without sorting (ranks are bit places), and the key
# of :attr:`_Plan.outcomes`.
Found = int
_COUNT_BITS = 8


class Outcome:
    """What a split's fans come to once 不计 is applied (one per
    :data:`Found` value, shared by every split with those fans).

    Attributes:
        total: sum of the counted fans; ``minimum``: the same without fans
            that do not count toward the minimum (flowers).
        any_minimum: some fan present counts toward the minimum (if not,
            the scorer runs the fallback pass).
        counted, skipped: the breakdown lines, highest value first.
    """

    __slots__ = ("total", "minimum", "any_minimum", "counted", "skipped")

    def __init__(self, plan: _Plan, present: list[tuple[int, int]]) -> None:
        # present: (rank, count) of the fans found, ascending.
        info = plan.info
        cells = plan.cells
        to_min = plan.to_minimum
        counted: list[FanLine] = []
        skipped: list[FanLine] = []
        by: list[int] = []  # ranks counted so far
        out = 0  # ranks not counted (不计)
        total = minimum = 0
        any_minimum = False
        for r, n in present:
            if to_min[r]:
                any_minimum = True
            if out >> r & 1:
                for r2 in by:
                    if info[r2][3] >> r & 1:
                        key = (r2 + 1) << 16 | r << 8 | n
                        line = plan.lines.get(key)
                        if line is None:
                            line = plan.line(info[r][0], n, r, info[r2][0].id, r2)
                        skipped.append(line)
                        break
                continue
            cell = cells.get(r << 8 | n)
            if cell is None:
                cell = plan.cell(r, n)
            line, v, v_min, excludes = cell
            counted.append(line)
            by.append(r)
            out |= excludes
            total += v
            minimum += v_min
        self.total = total
        self.minimum = minimum
        self.any_minimum = any_minimum
        self.counted = tuple(counted)
        self.skipped = tuple(skipped)

    def plus(self, plan: _Plan, rank: int, count: int) -> Outcome:
        """This outcome with fan ``rank`` × ``count`` counted as well (a fan
        nothing excludes, ranked after every fan here)."""
        fan, points, to_minimum, _ = plan.info[rank]
        line = plan.lines.get(rank << 8 | count)
        if line is None:
            line = plan.line(fan, count, rank)
        got: Outcome = _new(Outcome)
        got.total = self.total + points * count
        got.minimum = self.minimum + points * count if to_minimum else self.minimum
        got.any_minimum = self.any_minimum or to_minimum
        got.counted = (*self.counted, line)
        got.skipped = self.skipped
        return got


# How many outcomes a plan keeps: the domain is the fan combinations that
# occur (thousands for MCR on random hands, about a third met again within
# 20,000 new hands); past the bound the table starts again.
_OUTCOMES_BOUND = 1 << 15


_new = object.__new__


def _outcome(
    plan: _Plan,
    found: Found,
    exact: list[tuple[tuple[int, int], ...]],
    hits: list[tuple[int, int]],
) -> Outcome:
    """The :class:`Outcome` of ``found`` under ``plan`` (a table look-up;
    ``exact`` and ``hits``, the same fans as (rank, count), make it)."""
    tail = plan.tail
    n = 0
    if tail >= 0:
        n = found >> tail * _COUNT_BITS & 0xFF
        if n:
            found ^= n << tail * _COUNT_BITS
    got = plan.outcomes.get(found)
    if got is None:
        if len(plan.outcomes) >= _OUTCOMES_BOUND:
            plan.outcomes.clear()
        for e in exact:
            hits += e
        if n:
            hits = [h for h in hits if h[0] != tail]
        hits.sort()
        got = plan.outcomes[found] = Outcome(plan, hits)
    if n:
        got = got.plus(plan, tail, n)
    return got


def _decode(found: Found) -> list[tuple[int, int]]:
    """(rank, count) of each fan in ``found``, ascending."""
    out = []
    while found:
        r = ((found & -found).bit_length() - 1) // _COUNT_BITS
        n = found >> r * _COUNT_BITS & 0xFF
        found ^= n << r * _COUNT_BITS
        out.append((r, n))
    return out


def _evaluate(
    ctx: ScoringContext, fans: Sequence[Fan], plan: _Plan | None = None
) -> tuple[Found, Outcome]:
    """Evaluate the fans (``plan``: their :func:`_plan`, when the caller has
    it); return the fans present and their :class:`Outcome` (不计 applied)."""
    if plan is None:
        plan = _plan(fans)
    feats = _split_features(ctx) | ctx.hand.features
    shape = ctx.shape
    calls = plan.calls.get(shape)  # plan.stage(shape), read directly
    if calls is None:
        calls = plan.stage(shape)
    mask, entries, rare, rare_mask = calls
    entry = entries.get(feats & mask)
    if entry is None:
        entry = plan.entry(shape, feats & mask)
    found, exact, plain, batched = entry
    exacts = [exact]
    hits: list[tuple[int, int]] = []
    add = hits.append
    for cond, shift, r in plain:
        n = cond(ctx)
        if n:
            found |= n << shift
            add((r, n))
    for analysis, keys in batched:
        for fid, n in analysis(ctx).items():
            if n:
                fit = keys.get(fid)
                if fit is not None:
                    for shift, r in fit:
                        found |= n << shift
                        add((r, n))
    more = feats & rare_mask
    while more:
        bit = more & -more
        more ^= bit
        for need, bits, exact, plain, batched in rare[bit]:
            if need & feats != need:
                continue
            if bits:
                found |= bits
                exacts.append(exact)
            for cond, shift, r in plain:
                n = cond(ctx)
                if n:
                    found |= n << shift
                    add((r, n))
            for analysis, keys in batched:
                for fid, n in analysis(ctx).items():
                    if n:
                        fit = keys.get(fid)
                        if fit is not None:
                            for shift, r in fit:
                                found |= n << shift
                                add((r, n))
    got = _outcome(plan, found, exacts, hits)
    if not got.any_minimum:
        hits = _decode(found)
        ctx.nothing_else = True
        for shift, _, cond in plan.all:
            if not found >> shift & 0xFF:
                n = cond(ctx)
                if n:
                    found |= n << shift
                    hits.append((shift // _COUNT_BITS, n))
        ctx.nothing_else = False
        got = _outcome(plan, found, [], hits)
    return found, got
