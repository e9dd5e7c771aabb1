"""Scoring candidate wins for the bots, through the rules engine's scorer.

A bot values a waiting hand by what each winning tile would really score
(:func:`games.engine.analysis.score_win`): below the rule set's minimum fan a
"wait" is no wait.  Results are cached per bot, keyed by everything the score
depends on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ...rules.melds import Meld
from ...rules.rulesets import RuleSet
from ...rules.situation import WinSituation
from ...rules.tiles import Tile

if TYPE_CHECKING:
    from .evaluate import Context
    from .observation import Observation

ScoredWin = tuple[int, frozenset[str]]
"""A scored win: total fan (0 when it is no legal win) and the counted fans."""

WinScorer = Callable[[Sequence[int], Sequence[Meld], WinSituation, RuleSet], ScoredWin]
"""``(14-3m counts incl. the winning tile, melds, situation, rule set)`` →
:data:`ScoredWin`; 0 when it is no win (under the minimum, bad shape)."""

NO_WIN: ScoredWin = (0, frozenset())


def engine_scorer(
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoredWin:
    """Score a complete hand with the rules engine (via games.engine.analysis)."""
    from ..analysis import score_win

    result = score_win(counts, melds, situation, ruleset)
    if result is None:
        return NO_WIN
    return int(result.total), frozenset(f.id for f in result.fans if f.counted)


def win_fan(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    tile: int,
    *,
    self_drawn: bool,
    ready: bool = False,
) -> int:
    """Fan of winning on ``tile`` with the waiting ``counts`` (0: no win).

    ``counts`` include any wilds.  Cached in the context.  The hand's 任务
    (seed 000 任务加倍), when the win would complete it
    (:meth:`games.engine.task.Task.is_done`, the engine's own check),
    multiplies the fan by the task's factor (the settlement adds
    ``base × factor``).
    """
    if ctx.scorer is None:
        return int(ctx.base_value)
    total, ids = scored_win(
        ctx, counts, melds, tile, self_drawn=self_drawn, ready=ready
    )
    obs = ctx.obs
    task = obs.task
    if total and task is not None:
        full = list(counts)
        full[tile] += 1
        if task.is_done(counts=full, melds=melds, fan_ids=ids, doubled=obs.doubled):
            return total * task.factor
    return total


@lru_cache(maxsize=16)
def _scores_ready(ruleset_name: str) -> bool:
    """Whether a win's score under the rule set depends on 报听 declared.

    Of the situation's flags a bot sets, ``ready`` is read only by the
    READY_HAND fan's condition (games.rules.fans.twoplayer: 天听 and 报听一发
    read flags of their own).  One entry per rule set name.
    """
    from ...rules.rulesets import get as get_ruleset

    return any(f.id == "READY_HAND" for f in get_ruleset(ruleset_name).fans)


def scores_ready(obs: Observation) -> bool:
    """Whether declaring 报听 can change a win's fan for this seat: the rule
    set scores the 报听 fan (:func:`_scores_ready`) and the seat has not
    declared yet (a declared seat's wins are scored as declared anyway)."""
    return not obs.ready and _scores_ready(obs.ruleset.name)


@lru_cache(maxsize=4096)
def _situation(
    tile: int,
    self_drawn: bool,
    seat_wind: int,
    round_wind: int,
    flowers: tuple[int, ...],
    ready: bool,
    wild: int | None,
    bonus_tile: int | None,
) -> WinSituation:
    """The situation a bot scores a win on ``tile`` under (tile indices).

    Kept for the last 4,096 argument sets: a seat meets the same few
    situations all hand long (34 kinds, two ways to win), and building the
    frozen 19-field value costs more than the lookup.
    """
    return WinSituation(
        win_tile=Tile.from_index(tile),
        self_drawn=self_drawn,
        seat_wind=Tile.from_index(seat_wind),
        round_wind=Tile.from_index(round_wind),
        flowers=tuple(Tile.from_index(f) for f in flowers),
        ready=ready,
        wild=None if wild is None else Tile.from_index(wild),
        bonus_tiles=() if bonus_tile is None else (Tile.from_index(bonus_tile),),
    )


def scored_win(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    tile: int,
    *,
    self_drawn: bool,
    ready: bool = False,
) -> ScoredWin:
    """The scorer's result for winning on ``tile`` (cached)."""
    if ctx.scorer is None:
        return NO_WIN
    obs = ctx.obs
    # 报听 reaches the score only through the 报听 fan: without it, the same
    # win scores the same declared or not (one scorer call for both)
    ready = (ready or obs.ready) and _scores_ready(obs.ruleset.name)
    key = (
        obs.ruleset.name,
        tuple(counts),
        tuple(melds),
        tile,
        self_drawn,
        ready,
        obs.seat_wind,
        obs.round_wind,
        obs.flowers,
        obs.wild,
        obs.bonus_tile,
    )
    got = ctx.cache.get(key)
    if got is not None:
        return got
    full = list(counts)
    full[tile] += 1
    situation = _situation(
        tile,
        self_drawn,
        obs.seat_wind,
        obs.round_wind,
        obs.flowers,
        ready,
        obs.wild,
        obs.bonus_tile,
    )
    try:
        got = ctx.scorer(full, melds, situation, obs.ruleset)
    except (ValueError, KeyError):
        got = NO_WIN
    ctx.cache[key] = got
    return got
