"""Plans: the fan-bearing targets a bot may steer its hand towards.

A :class:`Plan` restricts the winning shapes (only pungs, seven pairs, tiles of
one suit, fixed chows …) and carries the fan it guarantees.  Its *deficiency*
is the number of tiles still to draw to complete it (1 = waiting, 0 = done),
the quantity :func:`games.rules.shanten.min_deficiency` measures for the free
shape.  Plans are built from a rule set's fan table, so a rule set without
清一色 gets no flush plan (issue 5: "a preference for shapes that reach the
rule set's minimum fan and keep high-value fans alive").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...rules.melds import Meld, MeldKind
from ...rules.rulesets import RuleSet
from ...rules.shanten import Shape, min_deficiency

INF = 99
_REGULAR = frozenset({Shape.REGULAR})
# the shapes declared melds allow (built once: admits_melds runs per estimate)
_MELD_SHAPES = frozenset({Shape.REGULAR, Shape.KNITTED_STRAIGHT})


@dataclass(frozen=True, slots=True)
class Plan:
    """A target hand.

    Attributes:
        name: the fan ids it aims at joined by ``+`` (``"FULL_FLUSH"``) or
            ``"FREE"`` for any allowed shape.
        points: fan the plan guarantees when completed (0 for ``FREE``).
        allowed: kinds the plan may use, or ``None`` for any.
        shapes: winning shapes the plan may take.
        pungs_only: no chows (碰碰和).
        chows: first-tile indices of chows the hand must contain (一气通贯,
            花龙, 三色三同顺 …).
        min_pairs: pairs the hand must already hold for the plan to be
            considered (七对 only "when pairs are many", issue 5).
    """

    name: str
    points: int
    allowed: frozenset[int] | None
    shapes: frozenset[Shape]
    pungs_only: bool = False
    chows: tuple[int, ...] = ()
    min_pairs: int = 0

    def admits_melds(self, melds: Sequence[Meld]) -> bool:
        """Whether the declared melds are compatible with the plan."""
        if not melds:
            return True
        if not (self.shapes & _MELD_SHAPES):
            return False
        for m in melds:
            if self.allowed is not None and m.first.index not in self.allowed:
                return False
            if self.pungs_only and m.kind is MeldKind.CHI:
                return False
        if self.chows:
            need = list(self.chows)
            extra = 0
            for m in melds:
                if m.kind is MeldKind.CHI and m.first.index in need:
                    need.remove(m.first.index)
                else:
                    extra += 1
            if len(self.chows) + extra > 4:
                return False
        return True


def pungs_deficiency(counts: Sequence[int], sets: int) -> int:
    """Tiles to add so that ``counts`` hold ``sets`` pungs and a pair.

    Supply is unbounded (as in :mod:`games.rules.shanten`).
    """
    top = sorted(counts, reverse=True)[: sets + 1]
    cost = sum(3 - c if c < 3 else 0 for c in top)
    if any(c <= 2 for c in top):
        cost -= 1
    return cost


def plan_deficiency(
    plan: Plan, counts: Sequence[int], melds: Sequence[Meld], wilds: int = 0
) -> int:
    """Return the tiles still to draw to complete ``plan`` (INF if impossible).

    ``counts`` are the concealed tiles without wilds (any number of them);
    ``melds`` the declared melds.  A wild fills one missing tile.
    """
    if not plan.admits_melds(melds):
        return INF
    if plan.min_pairs and sum(1 for c in counts if c >= 2) < plan.min_pairs:
        return INF
    if plan.allowed is not None:
        allowed = plan.allowed
        t = [c if k in allowed else 0 for k, c in enumerate(counts)]
    else:
        t = list(counts)
    n_melds = len(melds)
    if plan.pungs_only:
        d = pungs_deficiency(t, 4 - n_melds)
    elif plan.chows:
        need = list(plan.chows)
        for m in melds:
            if m.kind is MeldKind.CHI and m.first.index in need:
                need.remove(m.first.index)
        missing = 0
        for start in need:
            for k in (start, start + 1, start + 2):
                if t[k]:
                    t[k] -= 1
                else:
                    missing += 1
        d = missing + min_deficiency(t, n_melds + len(need), _REGULAR)
    else:
        d = min_deficiency(t, n_melds, plan.shapes)
    if d >= INF:
        return INF
    return max(d - wilds, 0)


_cache: dict[str, tuple[Plan, ...]] = {}
# one tuple of plans per rule set name: a small finite domain (the registered
# rule sets and the few a test builds)

SEVEN_PAIRS_MIN_PAIRS = 5
"""Pairs held before 七对 is worth aiming at (fewer: the regular shape is
faster; measured in the duplicate benchmark)."""


def _points(ruleset: RuleSet, *ids: str) -> int | None:
    total = 0
    for fan_id in ids:
        try:
            total += ruleset.fan(fan_id).points
        except KeyError:
            return None
    return total


def plans_for(ruleset: RuleSet) -> tuple[Plan, ...]:
    """Return the plans worth considering under ``ruleset`` (cached).

    The first plan is always ``FREE`` (any allowed shape).  Others appear
    only when the rule set has the fan and the tiles for it.
    """
    got = _cache.get(ruleset.name)
    if got is not None:
        return got
    kinds = {t.index for t in ruleset.kinds}
    suits = [s for s in range(3) if any(9 * s + r in kinds for r in range(9))]
    honors = frozenset(k for k in range(27, 34) if k in kinds)
    regular = frozenset(ruleset.shapes & {Shape.REGULAR})
    # the free plan: the regular shape (other shapes are plans of their own)
    free_shapes = regular or frozenset(ruleset.shapes)
    out: list[Plan] = [Plan("FREE", 0, None, free_shapes)]
    if Shape.REGULAR in ruleset.shapes:
        for s in suits:
            suit = frozenset(range(9 * s, 9 * s + 9))
            p = _points(ruleset, "FULL_FLUSH")
            if p:
                out.append(Plan("FULL_FLUSH", p, suit, regular))
            p = _points(ruleset, "HALF_FLUSH")
            if p and len(suits) > 1 and honors:
                out.append(Plan("HALF_FLUSH", p, suit | honors, regular))
            if len(suits) > 1 or not honors:
                continue
            # one-suit sets (erren): the flush and pungs together
            p = _points(ruleset, "FULL_FLUSH", "ALL_PUNGS")
            if p:
                out.append(Plan("FULL_FLUSH+ALL_PUNGS", p, suit, regular, True))
        p = _points(ruleset, "ALL_PUNGS")
        if p:
            out.append(Plan("ALL_PUNGS", p, None, regular, pungs_only=True))
        if len(suits) > 1:
            p = _points(ruleset, "HALF_FLUSH", "ALL_PUNGS")
            if p and honors:
                for s in suits:
                    allowed = frozenset(range(9 * s, 9 * s + 9)) | honors
                    out.append(Plan("HALF_FLUSH+ALL_PUNGS", p, allowed, regular, True))
        p = _points(ruleset, "PURE_STRAIGHT")
        if p:
            for s in suits:
                out.append(
                    Plan(
                        "PURE_STRAIGHT",
                        p,
                        None,
                        regular,
                        chows=(9 * s, 9 * s + 3, 9 * s + 6),
                    )
                )
        if len(suits) == 3:
            p = _points(ruleset, "MIXED_STRAIGHT")
            if p:
                from itertools import permutations

                for a, b, c in permutations(range(3)):
                    chows = (9 * a, 9 * b + 3, 9 * c + 6)
                    out.append(Plan("MIXED_STRAIGHT", p, None, regular, chows=chows))
            p = _points(ruleset, "MIXED_TRIPLE_CHOW")
            if p:
                for r in range(7):
                    chows = (r, 9 + r, 18 + r)
                    out.append(Plan("MIXED_TRIPLE_CHOW", p, None, regular, chows=chows))
    for shape, fan_id in (
        (Shape.SEVEN_PAIRS, "SEVEN_PAIRS"),
        (Shape.KNITTED_STRAIGHT, "KNITTED_STRAIGHT"),
        (Shape.HONORS_AND_KNITTED, "LESSER_HONORS_AND_KNITTED_TILES"),
        (Shape.THIRTEEN_ORPHANS, "THIRTEEN_ORPHANS"),
    ):
        if shape in ruleset.shapes:
            p = _points(ruleset, fan_id)
            if p:
                pairs = SEVEN_PAIRS_MIN_PAIRS if shape is Shape.SEVEN_PAIRS else 0
                out.append(Plan(fan_id, p, None, frozenset({shape}), min_pairs=pairs))
    plans = tuple(out)
    _cache[ruleset.name] = plans
    return plans
