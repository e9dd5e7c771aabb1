"""One unit per fan: its names, value, condition and what it excludes (不计).

A rule set's fan table is a tuple of :class:`Fan` values, so a rule set can
enable, re-value (:meth:`Fan.with_points`) or add fans as data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the context type lives with the scorer
    from ..scoring import ScoringContext


@dataclass(frozen=True, slots=True)
class Fan:
    """A scoring pattern (番种).

    Attributes:
        id: MCR's English name in upper snake case (``ALL_PUNGS``); two-player
            extras use the same style (``HEAVENLY_HAND``).
        zh, en: display names.
        points: value of one occurrence, in fan (番).
        condition: ``(context) -> count``; 0 means absent.  Set fans that can
            occur more than once (幺九刻, 暗杠 …) return how many times.
        excludes: ids of fans not counted when this one is (不计, the 不重复
            principle), applied by the scorer.
        counts_toward_minimum: False for flower-like fans that do not count
            toward a rule set's minimum (seed 003 花牌: 不计在起和分内).
        source: the seed and rule the definition comes from.
        needs: what the fan needs in order to be checked: names of the
            scorer's context features (games.rules.scoring.FEATURES, e.g.
            ``("regular", "chows2")``) without which ``condition`` is 0, so
            the scorer skips it.  A promise made by the condition's author.
        exact: with ``needs``, ``condition`` is 1 whenever they hold (the
            scorer credits the fan without calling it).
        via: a shared analysis ``(context) -> {fan id: count}`` the condition
            reads its count from under ``id``; the scorer runs it once per
            split for every fan reading it instead of calling each condition.
    """

    id: str
    zh: str
    en: str
    points: int
    condition: Callable[[ScoringContext], int] = field(compare=False, repr=False)
    excludes: frozenset[str] = frozenset()
    counts_toward_minimum: bool = True
    source: str = ""
    needs: tuple[str, ...] = ()
    exact: bool = False
    via: Callable[[ScoringContext], Mapping[str, int]] | None = field(
        default=None, compare=False, repr=False
    )

    def with_points(self, points: int, *, source: str | None = None) -> Fan:
        """Return a copy worth ``points`` (a rule set re-valuing this fan)."""
        return replace(self, points=points, source=source or self.source)

    def with_excludes(
        self, excludes: frozenset[str], *, source: str | None = None
    ) -> Fan:
        """Return a copy with a different 不计 list."""
        return replace(self, excludes=excludes, source=source or self.source)


@dataclass(frozen=True, slots=True)
class FanLine:
    """One row of a score breakdown.

    ``counted`` is False for a fan that was present but not scored; ``reason``
    then says why, for people (``"不计: excluded by BIG_FOUR_WINDS"``), and
    ``excluded_by`` names the fan that excludes it (``"BIG_FOUR_WINDS"``;
    ``""`` when counted), for programs: callers read this field, never parse
    ``reason``.
    """

    id: str
    zh: str
    en: str
    points: int
    count: int
    counted: bool = True
    reason: str = ""
    excluded_by: str = ""

    @property
    def total(self) -> int:
        """points × count (0 when not counted)."""
        return self.points * self.count if self.counted else 0
