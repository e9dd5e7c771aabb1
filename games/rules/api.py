"""One entry point for scoring under any rule set: :func:`score_hand`.

It checks the hand against the rule set (tiles in its wall, a 财神 only
where the set has one) and dispatches: hands with ``situation.wild`` set go
to :func:`games.rules.wild_scoring.score_wild` (seed 002), every other hand
to :func:`games.rules.scoring.score`.  The CLI, the engine and the site's
fan calculator call this, never the two scorers directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InvalidHandError
from .fans.base import FanLine
from .first_turn import check_first_turn
from .melds import Meld
from .rulesets.base import RuleSet, System
from .scoring import ScoreResult, score, score_from_counts
from .situation import WinSituation
from .tiles import NUM_KINDS, Tile, format_tiles, from_counts
from .wild_scoring import score_wild, score_wild_counts


@dataclass(frozen=True, slots=True)
class ScoreOutcome:
    """A scored hand.

    Attributes:
        result: the scorer's breakdown (``win``, ``total``, ``fans``,
            ``not_counted``, ``error`` …).
        assignment: with 财神, what each wild was scored as (kind order);
            otherwise empty.
    """

    result: ScoreResult
    assignment: tuple[Tile, ...] = ()

    @property
    def win(self) -> bool:
        return self.result.win

    @property
    def total(self) -> int:
        return self.result.total

    @property
    def lines(self) -> tuple[FanLine, ...]:
        """The counted fans."""
        return self.result.fans


def _allowed_tiles(ruleset: RuleSet) -> frozenset[Tile]:
    """The tiles of the rule set's wall (kinds and flowers)."""
    return ruleset.wall_tiles


def check_tiles(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> None:
    """Refuse tiles the rule set's wall does not hold.

    Raises:
        InvalidHandError: a tile (hand, melds, winning tile, flowers, bonus
            tile, wild) outside the rule set, or a 财神 in a set without one.
    """
    allowed = _allowed_tiles(ruleset)
    s = situation
    if (
        allowed.issuperset(concealed)
        and s.win_tile in allowed
        and allowed.issuperset(s.flowers)
        and allowed.issuperset(s.bonus_tiles)
        # no generator for the usual hand without melds
        and (not melds or all(allowed.issuperset(m.tiles) for m in melds))
        and (
            s.wild is None
            or (
                not s.wild.is_flower
                and s.wild in allowed
                and System.WILD in ruleset.systems
            )
        )
    ):
        return  # the usual case, checked with set operations
    kinds = frozenset(ruleset.kinds)
    where = [("concealed", t) for t in concealed]
    where += [(f"meld {m}", t) for m in melds for t in m.tiles]
    where.append(("win_tile", situation.win_tile))
    where += [("flowers", t) for t in situation.flowers]
    where += [("bonus_tiles", t) for t in situation.bonus_tiles]
    for field, t in where:
        if t not in allowed:
            raise InvalidHandError(
                f"{field}: tile {t} is not in rule set {ruleset.name!r}"
                f" ({format_tiles(ruleset.kinds)}{format_tiles(ruleset.flowers)})"
            )
    if situation.wild is not None:
        if System.WILD not in ruleset.systems:
            raise InvalidHandError(f"rule set {ruleset.name!r} has no 财神 (wild)")
        if situation.wild not in kinds:
            raise InvalidHandError(
                f"wild: tile {situation.wild} is not in rule set {ruleset.name!r}"
            )


def check_flags(situation: WinSituation, melds: Sequence[Meld] = ()) -> None:
    """Refuse two-player flags that contradict each other, the win or the melds.

    The first-turn wins and 天听 follow the seeds' conditions
    (:func:`games.rules.first_turn.check_first_turn`).

    Raises:
        InvalidHandError: naming the flags that clash.
    """
    check_first_turn(situation, melds)


def score_hand(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreOutcome:
    """Score a hand under ``ruleset``; 财神 hands take the best wild assignment.

    Args:
        concealed: standing tiles without the winning tile.
        melds: declared melds.
        situation: the winning tile and how it was won (two-player flags
            included; ``wild`` routes to the wild scorer).
        ruleset: the rule set in force.

    Returns:
        A :class:`ScoreOutcome`; ``outcome.result.win`` is False with
        ``code`` :class:`~games.rules.scoring.ScoreError` ``NOT_COMPLETE`` or
        ``BELOW_MINIMUM`` (``error`` says the same in words).

    Raises:
        InvalidHandError: impossible input (see :func:`check_tiles`,
            :func:`check_flags` and :func:`games.rules.scoring.score`).
    """
    check_tiles(concealed, melds, situation, ruleset)
    check_flags(situation, melds)
    if situation.wild is not None:
        ws = score_wild(concealed, melds, situation, ruleset)
        return ScoreOutcome(ws.result, ws.assignment)
    return ScoreOutcome(score(concealed, melds, situation, ruleset))


def score_counts(
    standing: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreResult:
    """``score_hand(...).result`` of a hand whose standing tiles (without
    the winning tile ``situation.win_tile``) are given as 34 counts.

    The same result and errors as :func:`score_hand` of those tiles;
    cheaper for the callers that hold counts (the engine, the bots).  When
    the rule set's wall holds every kind, the situation's flowers are in
    the wall and it names no bonus tile (mcr, liangren, youxi), every tile
    of the hand, its melds and its flowers is in the wall and
    :func:`check_tiles` is left out (the scorer itself refuses a kind
    listed as a flower); a 财神 hand is scored from its counts
    (:func:`~games.rules.wild_scoring.score_wild_counts`).

    Raises:
        InvalidHandError: as :func:`score_hand`.
    """
    s = situation
    if (
        len(ruleset.kind_indices) == NUM_KINDS
        and s.win_tile.index < NUM_KINDS
        and (not s.flowers or ruleset.wall_tiles.issuperset(s.flowers))
        and not s.bonus_tiles
        and (
            s.wild is None
            or (s.wild.index < NUM_KINDS and System.WILD in ruleset.systems)
        )
    ):
        check_flags(s, melds)
        if s.wild is not None:
            return score_wild_counts(standing, melds, s, ruleset).result
        return score_from_counts(standing, melds, s, ruleset)
    return score_hand(from_counts(standing), list(melds), s, ruleset).result


__all__ = [
    "ScoreOutcome",
    "check_flags",
    "check_tiles",
    "score_counts",
    "score_hand",
]
