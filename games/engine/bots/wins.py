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
from ...rules.wild_scoring import WHITE, split_counts
from ..analysis import ScoreLike, score_result, score_standing

if TYPE_CHECKING:
    from .evaluate import Context
    from .observation import Observation

ScoredWin = tuple[int, frozenset[str]]
"""A scored win: total fan (0 when it is no legal win) and the counted fans."""

WinScorer = Callable[[Sequence[int], Sequence[Meld], WinSituation, RuleSet], ScoredWin]
"""``(14-3m counts incl. the winning tile, melds, situation, rule set)`` →
:data:`ScoredWin`; 0 when it is no win (under the minimum, bad shape)."""

NO_WIN: ScoredWin = (0, frozenset())

_WHITE = WHITE.index


def engine_scorer(
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoredWin:
    """Score a complete hand with the rules engine (via games.engine.analysis)."""
    return _engine_score(counts, melds, situation, ruleset)[0]


def _engine_score(
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> tuple[ScoredWin, int]:
    """:func:`engine_scorer`'s result and the fan the hand counts toward the
    rule set's minimum (``minimum_total``, known for a win that falls short)."""
    return _outcome(score_result(counts, melds, situation, ruleset))


def _outcome(result: ScoreLike) -> tuple[ScoredWin, int]:
    """:func:`_engine_score` from the scorer's ``result``."""
    if not result.win:
        return NO_WIN, result.minimum_total
    ids = frozenset(f.id for f in result.fans if f.counted)
    return (int(result.total), ids), result.minimum_total


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
    if self_drawn and _self_draw_short(ctx, counts, melds, tile, key):
        ctx.cache[key] = NO_WIN
        return NO_WIN
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
        if ctx.scorer is engine_scorer:
            # ``counts`` are the standing tiles the scorer takes: no copy
            # with the winning tile added and taken out again
            got, short = _outcome(score_standing(counts, melds, situation, obs.ruleset))
            if not self_drawn and not got[0]:
                ctx.cache[(_SHORT, key)] = (short, frozenset())
        else:
            full = list(counts)
            full[tile] += 1
            got = ctx.scorer(full, melds, situation, obs.ruleset)
    except (ValueError, KeyError):
        got = NO_WIN
    ctx.cache[key] = got
    return got


_SHORT = "short"
"""Marks a cache entry ``(_SHORT, key)``: for the discard win ``key`` that
the rules engine scored below the minimum, ``(fan toward the minimum, ∅)``."""


def _gain_of(ruleset: RuleSet) -> tuple[int, int]:
    """The most fan toward the minimum that winning self-drawn instead of on
    a discard can add when the winning tile completes no pung, with no
    claimed meld and with one: the fans that need the self-draw (自摸,
    不求人; games.rules.scoring_features), less those that need no claimed
    meld when one is held.  The others a self-draw changes are the
    discard-only fans it takes away, and a pung completed by the winning
    tile (concealed only when self-drawn: :func:`_pung_gain_of`).  The bots'
    situations set no 杠 or last-tile flag."""
    drawn = [
        f for f in ruleset.fans if "self_drawn" in f.needs and f.counts_toward_minimum
    ]
    return (
        sum(f.points for f in drawn),
        sum(f.points for f in drawn if "no_claims" not in f.needs),
    )


def _pung_gain_of(ruleset: RuleSet) -> tuple[int, ...]:
    """The most fan toward the minimum a self-drawn winning tile adds by
    completing a concealed pung, indexed by ``room`` (0–4), the most
    concealed pungs the hand can hold (:func:`_pung_room`).

    The scorer counts a pung completed by a discarded winning tile as
    melded and by a drawn one as concealed (``ScoringContext.concealed_pungs``),
    so a split's count rises by one, to some ``n`` <= ``room``.  The count
    reaches a fan only through the features ``concealed_pungs2`` …
    ``concealed_pungs4`` (双暗刻, 三暗刻, 四暗刻: the only conditions that
    read it, each declaring its feature), and at most one of them holds per
    split: the gain is at most the fans needing ``concealed_pungs<n>``,
    whatever the count ``n - 1`` had."""
    by_count = [0] * 5
    for n in range(2, 5):
        feature = f"concealed_pungs{n}"
        by_count[n] = sum(
            f.points
            for f in ruleset.fans
            if feature in f.needs and f.counts_toward_minimum
        )
    return tuple(max(by_count[: room + 1]) for room in range(5))


@lru_cache(maxsize=16)
def _registered_gain(
    name: str,
) -> tuple[RuleSet, tuple[int, int], tuple[int, ...]]:
    """:func:`_gain_of` and :func:`_pung_gain_of` the registered rule set
    ``name`` (one per rule set)."""
    from ...rules.rulesets import get as get_ruleset

    ruleset = get_ruleset(name)
    return ruleset, _gain_of(ruleset), _pung_gain_of(ruleset)


def _gains(ruleset: RuleSet) -> tuple[tuple[int, int], tuple[int, ...]]:
    try:
        registered, gains, pungs = _registered_gain(ruleset.name)
    except KeyError:
        return _gain_of(ruleset), _pung_gain_of(ruleset)
    if registered is not ruleset:  # a rule set built by hand (tests)
        return _gain_of(ruleset), _pung_gain_of(ruleset)
    return gains, pungs


def _pung_room(faces: Sequence[int], wilds: int, melds: Sequence[Meld]) -> int:
    """The most concealed pungs (concealed kongs included) any reading of a
    complete hand can hold: ``faces``/``wilds`` its 14 - 3m concealed tiles
    split by :func:`~games.rules.wild_scoring.split_counts`, ``melds`` its
    declared melds.  At most one per set not claimed, and per pung a kind of
    its own: those held three times, then as the wilds allow the kinds held
    twice (one wild each), once (two) and not at all (three)."""
    claimed = sum(1 for m in melds if not m.is_concealed)
    kongs = len(melds) - claimed
    pungs = twos = ones = 0
    for n in faces:
        if n >= 3:
            pungs += 1
        elif n == 2:
            twos += 1
        elif n == 1:
            ones += 1
    w = wilds
    take = min(twos, w)
    pungs += take
    w -= take
    take = min(ones, w // 2)
    pungs += take + (w - 2 * take) // 3
    return min(4 - claimed, kongs + pungs)


def _self_draw_short(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    tile: int,
    key: tuple[object, ...],
) -> bool:
    """Whether winning self-drawn on ``tile`` surely falls below the minimum,
    known without scoring it: the same win on a discard was scored short of
    the minimum by more than a self-draw can add — the self-draw's own fans
    (:func:`_gain_of`) and, when the winning tile can complete a pung (with
    the wilds, one more tile of its face makes three), a concealed pung's
    (:func:`_pung_gain_of`).  A wild winning tile (it may stand for any
    kind) is always scored.  The best reading self-drawn is then at most
    the best on a discard plus the gain, below the minimum: :data:`NO_WIN`
    either way."""
    short = ctx.cache.get((_SHORT, (*key[:4], False, *key[5:])))
    if short is None:
        return False
    ruleset = ctx.obs.ruleset
    drawn, pungs = _gains(ruleset)
    claimed = any(not m.is_concealed for m in melds)
    gain = drawn[1] if claimed else drawn[0]
    if short[0] + gain >= ruleset.min_fan:
        return False
    wild = ctx.wild
    if wild is None:
        if counts[tile] < 2:
            return True
        faces = list(counts)
        wilds = 0
        face = tile
    else:
        if tile == wild:
            return False
        faces, wilds = split_counts(counts, wild)
        face = wild if tile == _WHITE and wild != _WHITE else tile
        if faces[face] + wilds < 2:
            return True
    # the winning tile may complete a pung: concealed only when self-drawn
    faces[face] += 1
    room = _pung_room(faces, wilds, melds)
    return short[0] + gain + pungs[room] < ruleset.min_fan
