"""The engine's only door into hand analysis and scoring (games.rules).

Keeping the calls in one place lets the state machine stay about turns and
claims.  Counts are 34-entry vectors of the concealed tiles; the 财神 kind
(seed 002), when a hand has one, is taken out of the vector and passed as a
number of wilds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..rules.api import score_counts
from ..rules.fans.base import FanLine
from ..rules.melds import Meld
from ..rules.rulesets.base import RuleSet
from ..rules.shanten import deficiency_each, shanten
from ..rules.situation import WinSituation
from ..rules.waits import is_winning, waits
from ..rules.wild_scoring import split_counts


class ScoreLike(Protocol):
    """What the engine reads of the rules engine's ``ScoreResult``."""

    @property
    def win(self) -> bool: ...

    @property
    def total(self) -> int: ...

    @property
    def fans(self) -> tuple[FanLine, ...]: ...

    @property
    def minimum_total(self) -> int: ...

    @property
    def shape(self) -> str: ...


WHITE = 31


def shape_complete(
    counts: Sequence[int], melds: int, wild: int | None, ruleset: RuleSet
) -> bool:
    """Whether 14−3m concealed tiles (``counts``) complete an allowed shape."""
    c, w = split_counts(counts, wild)
    return is_winning(c, melds=melds, wilds=w, shapes=ruleset.shapes)


def hand_shanten(
    counts: Sequence[int], melds: int, wild: int | None, ruleset: RuleSet
) -> int:
    """Shanten of 13−3m or 14−3m concealed tiles (-1 complete, 0 tenpai)."""
    c, w = split_counts(counts, wild)
    return shanten(c, melds=melds, wilds=w, shapes=ruleset.shapes)


def shanten_after_discards(
    counts: Sequence[int],
    melds: int,
    wild: int | None,
    ruleset: RuleSet,
    discards: Sequence[int],
) -> list[int]:
    """Shanten of 14−3m concealed tiles after each of ``discards`` (held kinds).

    The same numbers as :func:`hand_shanten` of the hand without that tile,
    one per discard, computed together (one suit changes per discard).  With
    a 财神: a discarded wild leaves one wild fewer; a discarded 白板 is taken
    off the wild kind's face (:func:`~games.rules.wild_scoring.split_counts`).
    """
    c, w = split_counts(counts, wild)
    shapes = ruleset.shapes
    faces = [
        wild if k == WHITE and wild is not None and wild != WHITE else k
        for k in discards
        if k != wild
    ]
    each = iter(deficiency_each(c, melds, shapes, faces, -1))
    base = None
    out = []
    for k in discards:
        if k == wild:
            if base is None:
                base = shanten(c, melds=melds, wilds=w - 1, shapes=shapes)
            out.append(base)
            continue
        d = next(each) - w
        out.append((d if d > 0 else 0) - 1)
    return out


def hand_waits(
    counts: Sequence[int], melds: int, wild: int | None, ruleset: RuleSet
) -> list[int]:
    """Kinds that complete 13−3m concealed tiles (empty: not tenpai)."""
    c, w = split_counts(counts, wild)
    return waits(c, melds=melds, wilds=w, shapes=ruleset.shapes)


def score_result(
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreLike:
    """Score a complete hand whether or not it is a legal win.

    ``counts`` are the 14−3m concealed tiles including the winning tile
    (``situation.win_tile``); the scorer gets the standing tiles without it.
    The result's ``win`` is False below the rule set's minimum (its
    ``minimum_total`` then says how many fan count toward it) or without an
    allowed decomposition (``shape`` empty).
    """
    c = list(counts)
    c[situation.win_tile.index] -= 1
    return score_standing(c, melds, situation, ruleset)


def score_standing(
    standing: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreLike:
    """:func:`score_result` of the 13−3m standing tiles ``standing``, the
    counts without the winning tile (``situation.win_tile``)."""
    return score_counts(standing, melds, situation, ruleset)


def score_frozen(
    ruleset: RuleSet,
    counts: tuple[int, ...],
    melds: tuple[Meld, ...],
    situation: WinSituation,
) -> ScoreLike:
    """:func:`score_result` with the rule set first and hashable arguments
    (for a bounded ``functools.lru_cache`` of a hand's positions)."""
    return score_result(counts, melds, situation, ruleset)


def score_win(
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreLike | None:
    """Score a complete hand; return the result when it is a legal win.

    As :func:`score_result`; ``None`` when the scorer says it is no win
    (below the rule set's minimum, or no allowed decomposition).
    """
    result = score_result(counts, melds, situation, ruleset)
    if not result.win:
        return None
    return result
