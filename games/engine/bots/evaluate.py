"""Shared hand evaluation for the bots (issue 5).

The unit of evaluation is a *waiting* hand: ``13 - 3m`` concealed tiles with
``m`` declared melds.  :meth:`Evaluator.value` estimates how much that hand is
worth to its owner:

* for each :class:`~games.engine.bots.plans.Plan` (any shape, 清一色, 碰碰和,
  七对 …) the deficiency ``D`` (tiles still to draw; 1 = 听牌) and the
  effective tiles (受入) — copies of the kinds that lower ``D``, counted
  against the tiles still unseen from the seat;
* a probability of finishing ``P``: each step is a race between drawing a
  useful tile (``受入 / unseen``), the opponent winning (a hazard rising with
  its melds, its discards and its 报听) and the wall running out;
* a value ``V`` in fan: the plan's fans, or, once waiting, the scorer's total
  for every live winning tile.  A wait whose win stays under the rule set's
  minimum fan is no wait at all (issue 5: "a hand that can't reach min_fan is
  not a real tenpai");
* the utility ``P × (V + tempo)``, where ``tempo`` prices the opponent's win
  that one's own win prevents (speed against value).

:func:`rank_discards` subtracts the deal-in risk of
:mod:`games.engine.bots.defence` from each discard's utility.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, NamedTuple

from ...rules.melds import Meld, MeldKind
from ...rules.rulesets import RuleSet, System
from ...rules.shanten import Shape, deficiency_each, kinds_below, special_floor
from ...rules.tiles import NUM_KINDS
from ...rules.waits import near_kinds
from ...rules.waits import waits as rules_waits
from ...rules.wild_scoring import WHITE, split_counts
from .defence import danger, opponent_tenpai
from .observation import Observation
from .plans import INF, Plan, plan_deficiency, plans_for
from .wins import ScoredWin, WinScorer, scores_ready, win_fan

# shape sets the hot paths compare with, built once (not a set per call)
_SEVEN_PAIRS_ONLY: Final = frozenset({Shape.SEVEN_PAIRS})
_REGULAR_ONLY: Final = frozenset({Shape.REGULAR})
_ONE_MELD_SHAPES: Final = frozenset({Shape.KNITTED_STRAIGHT, Shape.REGULAR})


@dataclass(frozen=True, slots=True)
class Style:
    """How deeply a bot evaluates (the levels differ only here and in policy).

    Attributes:
        plans: consider fan plans beyond the free shape.
        max_plans: plans kept per decision after a cheap first pass.
        ukeire: count effective tiles (otherwise deficiency only).
        score_waits: value waiting hands with the scorer (min-fan check).
        tempo: fan-equivalent credited to any win (it stops the opponent's).
        defence: weight of the deal-in risk (0 ignores it).
        deep: discards whose effective tiles are counted exactly.
        order_ties: among discards the cheap pass values the same, count
            the effective tiles of the least connected tiles first
            (:func:`keep_value`) rather than of the lowest kinds.
        ready_lock: factor on a wait's value for locking it by 报听.
        extra_fan: small fans a free-shape win usually picks up on the way
            (a plan's own fans stand in for them).
        skip_plans: plan names left out.
    """

    plans: bool = True
    max_plans: int = 4
    ukeire: bool = True
    score_waits: bool = True
    tempo: float = 2.0
    defence: float = 1.0
    deep: int = 4
    order_ties: bool = False
    ready_lock: float = 0.95
    extra_fan: float = 5.0
    skip_plans: frozenset[str] = frozenset()


class Estimate(NamedTuple):
    """The worth of a waiting hand (immutable).

    A named tuple rather than a frozen dataclass: a decision builds
    hundreds of them, and a frozen dataclass sets each of its eight fields
    through ``object.__setattr__`` (about three times the cost, measured
    with callgrind on self-play).

    Attributes:
        utility: ``p_win × (value + tempo)``, the number decisions maximise.
        deficiency: tiles to draw for the best plan (1 = 听牌, 0 = complete).
        free_deficiency: the same for the free shape (shanten + 1).
        ukeire: live copies of the kinds that advance the best plan.
        plan: the best plan's name.
        waits: live winning kinds that reach the minimum fan (when waiting).
        value: expected fan of a win.
        p_win: estimated chance to complete before the opponent / the wall.
    """

    utility: float
    deficiency: int
    free_deficiency: int
    ukeire: int
    plan: str
    waits: tuple[int, ...] = ()
    value: float = 0.0
    p_win: float = 0.0


@dataclass(slots=True)
class Context:
    """Per-decision constants derived from an :class:`Observation`."""

    obs: Observation
    style: Style
    scorer: WinScorer | None
    unseen: list[int]
    pool: int
    hazard: float
    turns_left: float
    base_value: float
    opp_tenpai: float
    opp_value: float
    ready_mult: float
    plans: tuple[Plan, ...]
    wild: int | None
    implied: float
    can_ready: bool
    extra_fan: float
    flower_fan: float
    n_kinds: int
    cache: dict[tuple[object, ...], ScoredWin] = field(default_factory=dict)
    concealed_fan: float = 0.0
    values: dict[tuple[object, ...], Estimate] = field(default_factory=dict)
    """:func:`value`'s results in this decision (the context lives for one)."""
    steps: dict[tuple[int, float], tuple[Plan | None, list[float]]] = field(
        default_factory=dict
    )
    """:func:`_p_finish`'s factors per level beyond the first, per plan and
    tenpai bonus (:func:`_later_steps`): constants of the decision."""


def implied_fan(ruleset: RuleSet) -> float:
    """Fan every hand of the rule set scores anyway: with one suit and the
    honours (erren) a hand is at least 混一色 unless it is 清一色."""
    kinds = {t.index for t in ruleset.kinds}
    suits = {k // 9 for k in kinds if k < 27}
    if len(suits) == 1 and any(k >= 27 for k in kinds):
        try:
            return float(ruleset.fan("HALF_FLUSH").points)
        except KeyError:
            return 0.0
    return 0.0


def base_value_of(ruleset: RuleSet) -> float:
    """A typical win's fan under ``ruleset`` (the opponent's expected win)."""
    return max(float(ruleset.min_fan), implied_fan(ruleset) + 2.0) * 1.3


@dataclass(frozen=True, slots=True)
class _Facts:
    """What :func:`make_context` reads from a rule set, derived once."""

    ruleset: RuleSet
    points: dict[str, int]
    implied: float
    base_value: float
    can_ready: bool
    ready_mult: float


def _derive(ruleset: RuleSet) -> _Facts:
    return _Facts(
        ruleset,
        {f.id: f.points for f in reversed(ruleset.fans)},  # the first id wins
        implied_fan(ruleset),
        base_value_of(ruleset),
        System.READY in ruleset.systems,
        float(ruleset.multipliers.get("ready_win", 1)),
    )


@lru_cache(maxsize=16)
def _registered_facts(name: str) -> _Facts | None:
    """The facts of the registered rule set ``name`` (one per rule set)."""
    from ...rules.rulesets import get as get_ruleset

    try:
        return _derive(get_ruleset(name))
    except KeyError:
        return None


def _facts(ruleset: RuleSet) -> _Facts:
    got = _registered_facts(ruleset.name)
    if got is not None and got.ruleset is ruleset:
        return got
    return _derive(ruleset)  # a rule set built by hand (tests)


def make_context(
    obs: Observation,
    style: Style,
    scorer: WinScorer | None,
    cache: dict[tuple[object, ...], ScoredWin] | None = None,
) -> Context:
    """Derive the per-decision constants of :func:`value` from ``obs``.

    ``cache`` (scored wins) may be shared across decisions: its keys hold
    everything the score depends on.
    """
    if cache is None:
        cache = {}
    elif len(cache) > 50_000:
        cache.clear()
    unseen = obs.unseen()
    pool = max(sum(unseen), 1)
    rs = obs.ruleset
    facts = _facts(rs)
    base = facts.base_value
    p_t = opponent_tenpai(obs)
    # chance per turn that the opponent wins: ~1 in 5 once it is waiting,
    # a little before (it may get there and win within the race)
    hazard = p_t * 0.2 + (1.0 - p_t) * 0.04
    ready_mult = facts.ready_mult
    opp_value = base * (ready_mult if obs.opp_ready else 1.0)
    plans = plans_for(rs) if style.plans else plans_for(rs)[:1]
    if style.skip_plans:
        plans = tuple(p for p in plans if p.name not in style.skip_plans)
    points = facts.points
    flower_fan = float(len(obs.flowers) * points.get("FLOWER_TILES", 0))
    extra = 0.0
    if facts.can_ready:
        extra += points.get("READY_HAND", 0)  # it will declare when waiting
    return Context(
        obs=obs,
        style=style,
        scorer=scorer,
        unseen=unseen,
        pool=pool,
        hazard=hazard,
        turns_left=max(obs.wall_count / 2.0, 0.5),
        base_value=base,
        opp_tenpai=p_t,
        opp_value=opp_value,
        ready_mult=ready_mult,
        plans=plans,
        wild=obs.wild,
        implied=facts.implied,
        can_ready=facts.can_ready and not obs.ready,
        extra_fan=extra + flower_fan,
        flower_fan=flower_fan,
        n_kinds=len(rs.kinds),
        cache=cache,
        concealed_fan=float(points.get("CONCEALED_HAND", 0)),
    )


def _step(p: float, ctx: Context) -> float:
    return p / (p + ctx.hazard + 1.0 / ctx.turns_left)


def generic_ukeire(plan: Plan | None, level: int, ctx: Context) -> float:
    """Typical live useful tiles of a plan's hand ``level`` tiles from done.

    A regular hand: ~6 winning tiles when waiting, ~14 useful before.  Seven
    pairs: 3 per single left (``3(2·level − 1)``).  A plan limited to some
    kinds gets a share of the regular figure.
    """
    scale = ctx.pool / 100.0
    if plan is not None and plan.shapes == _SEVEN_PAIRS_ONLY:
        return 3.0 * (2 * level - 1) * scale * 1.2
    base = 6.0 if level <= 1 else 14.0
    if plan is not None and plan.allowed is not None:
        share = 2.0 * len(plan.allowed) / max(ctx.n_kinds, 1)
        base *= min(share, 1.0)
    if plan is not None and (plan.chows or plan.pungs_only):
        base *= 0.7
    return base * scale


def _p_finish(
    d: int, ukeire: float, ctx: Context, tenpai_bonus: float, plan: Plan | None = None
) -> float:
    if d <= 0:
        return 1.0
    p = ukeire / ctx.pool
    if d == 1:
        p *= tenpai_bonus
    prob = _step(p, ctx)
    if d > 1:
        steps = _later_steps(ctx, plan, tenpai_bonus, d - 1)
        for level in range(d - 1, 0, -1):
            prob *= steps[level]
    return prob


def _later_steps(
    ctx: Context, plan: Plan | None, tenpai_bonus: float, top: int
) -> list[float]:
    """The factors of :func:`_p_finish` for the levels after the first:
    ``steps[level]`` (1 <= level <= ``top``) is the chance to take the step
    at ``level`` with the generic effective tiles (:func:`generic_ukeire`).

    They depend only on the context, the plan and the bonus, so each is
    worked out once per decision and kept in ``ctx.steps`` (the plan is held
    there, which keeps its ``id`` unique while the context lives).  The
    caller multiplies them in the same order as before: the same floats.
    """
    key = (id(plan), tenpai_bonus)
    got = ctx.steps.get(key)
    if got is None or got[0] is not plan:
        got = ctx.steps[key] = (plan, [0.0])
    steps = got[1]
    while len(steps) <= top:
        level = len(steps)
        g = generic_ukeire(plan, level, ctx) / ctx.pool
        steps.append(_step(g * (tenpai_bonus if level == 1 else 1.0), ctx))
    return steps


def _all_concealed(melds: Sequence[Meld]) -> bool:
    """Whether every declared meld is a concealed kong (不求人/门前清 stay)."""
    # a loop, not all() over a generator: this runs on every estimate
    for m in melds:  # noqa: SIM110
        if m.kind is not MeldKind.CONCEALED_KONG:
            return False
    return True


def _tenpai_estimate(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    waits: Sequence[int],
    ready: bool,
) -> Estimate | None:
    """Exact valuation of a waiting hand: score every live winning tile.

    Where the rule set has 报听 and the seat has not declared, the hand is
    also valued as declared (its fan, e.g. seed 000 报听, and the 听牌胡
    multiplier) and the better of the two is returned; ``plan`` is then
    ``"WAIT+READY"``, which tells the bot to declare.
    """
    fans = _wait_fans(ctx, counts, melds, waits, ready)
    est = _wait_value(ctx, fans, ready)
    if ready or not ctx.can_ready:
        return est
    if ctx.scorer is not None and ctx.style.score_waits and scores_ready(ctx.obs):
        fans = _wait_fans(ctx, counts, melds, waits, True)
    # else 报听 reaches no wait's fan (wins.scores_ready): the same fans
    declared = _wait_value(ctx, fans, True)
    if declared is not None and (est is None or declared.utility > est.utility):
        return Estimate(
            declared.utility,
            1,
            1,
            declared.ukeire,
            "WAIT+READY",
            declared.waits,
            declared.value,
            declared.p_win,
        )
    return est


_WaitFan = tuple[int, int, int]
"""A live wait that wins: ``(kind, copies counted, fan)``."""


def _wait_fans(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    waits: Sequence[int],
    ready: bool,
) -> list[_WaitFan]:
    """The live waits of a waiting hand that win, with their fan: a wait
    that wins only self-drawn counts half its copies (at least one)."""
    out: list[_WaitFan] = []
    for k in waits:
        n = ctx.unseen[k]
        if n <= 0:
            continue
        if ctx.style.score_waits:
            fan = win_fan(ctx, counts, melds, k, self_drawn=False, ready=ready)
            if fan <= 0:
                fan = win_fan(ctx, counts, melds, k, self_drawn=True, ready=ready)
                if fan <= 0:
                    continue
                n = max(n // 2, 1)  # only a self-draw wins
        else:
            fan = int(ctx.base_value)
        out.append((k, n, fan))
    return out


def _wait_value(
    ctx: Context,
    fans: list[_WaitFan],
    ready: bool,
) -> Estimate | None:
    live = 0
    total = 0.0
    real: list[int] = []
    for k, n, fan in fans:
        live += n
        total += n * fan
        real.append(k)
    if not live:
        return None
    value = total / live
    mult = ctx.ready_mult if ready else 1.0
    if ready and not ctx.obs.ready:
        value *= ctx.style.ready_lock  # a locked hand cannot improve or defend
    p = _p_finish(1, live, ctx, 1.5)
    util = p * (value * mult + ctx.style.tempo)
    return Estimate(util, 1, 1, live, "WAIT", tuple(real), value * mult, p)


def value(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    *,
    ready: bool = False,
    plans: Sequence[Plan] | None = None,
    levels: dict[str, int] | None = None,
    cheap: bool = False,
) -> Estimate:
    """Estimate a waiting hand (``13 - 3m`` concealed tiles incl. wilds).

    ``ready``: value it as declared 报听 (the rule set's 听牌胡 multiplier).
    ``plans``: restrict to these plans (default: the context's).
    ``levels``: plan name → the deficiency the plan can reach from the
    14-tile hand; effective tiles are counted only at that level (a discard
    that falls behind it gets a generic count, which saves time).
    ``cheap``: use the generic count for every plan.

    The same arguments give the same estimate within one decision: it is
    kept in the context (``ctx.values``).
    """
    plans = ctx.plans if plans is None else plans
    key = (
        tuple(counts),
        tuple(melds),
        ready,
        tuple(plans),
        None if levels is None else tuple(sorted(levels.items())),
        cheap,
    )
    got = ctx.values.get(key)
    if got is not None:
        return got
    t, wilds = split_counts(counts, ctx.wild)
    d_all = plan_deficiency(any_shape_plan(ctx.obs.ruleset), t, melds, wilds)
    got = _estimate(
        ctx, counts, melds, t, wilds, d_all, None, ready, plans, levels, cheap
    )
    ctx.values[key] = got
    return got


def free_deficiency(ctx: Context, counts: Sequence[int], melds: Sequence[Meld]) -> int:
    """The deficiency over every shape of the rule set of a waiting hand
    (``13 - 3m`` tiles incl. wilds): :func:`value`'s ``free_deficiency``,
    without valuing the hand (INF when no shape is possible)."""
    t, wilds = split_counts(counts, ctx.wild)
    return plan_deficiency(any_shape_plan(ctx.obs.ruleset), t, melds, wilds)


def discard_free_deficiencies(
    ctx: Context, counts: Sequence[int], melds: Sequence[Meld]
) -> list[int]:
    """:func:`free_deficiency` of the hand each discard of a ``14 - 3m``
    hand leaves, one per kind held, in kind order: the ``free_deficiency``
    of :func:`rank_discards`' estimates (the same columns), without ranking.
    """
    kinds = [k for k in range(NUM_KINDS) if counts[k]]
    column = _deficiency_columns(ctx, counts, melds, kinds)
    left = _free_deficiencies(ctx, counts, melds, ctx.plans[0], kinds, column)
    return [left[k] for k in kinds]


def _tenpai_part(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    t: list[int],
    wilds: int,
    ready: bool,
) -> Estimate | None:
    """The exact estimate of a hand at most one tile from waiting (d_all <= 1)."""
    waits = _waits(tuple(t), len(melds), wilds, ctx.obs.ruleset.shapes)
    return _tenpai_estimate(ctx, counts, melds, waits, ready)


@lru_cache(maxsize=4096)
def _waits(
    t: tuple[int, ...], melds: int, wilds: int, shapes: frozenset[Shape]
) -> tuple[int, ...]:
    """:func:`games.rules.waits.waits` of the natural counts ``t`` with
    ``melds`` declared melds and ``wilds`` wilds, kept for the last 4,096
    hands: a third of the waiting hands a bot values recur (the same wait
    kept from turn to turn, both discards of a pair)."""
    return tuple(rules_waits(t, melds=melds, wilds=wilds, shapes=shapes))


_WHITE = WHITE.index

_NOT_YET: Estimate = Estimate(0.0, INF, INF, 0, "")
"""Marker: the tenpai part of an estimate is not computed yet."""


def _estimate(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    t: list[int],
    wilds: int,
    d_all: int,
    ds: Sequence[int] | None,
    ready: bool,
    plans: Sequence[Plan],
    levels: dict[str, int] | None,
    cheap: bool,
    tenpai: Estimate | None = _NOT_YET,
) -> Estimate:
    """:func:`value` from the split counts ``t``/``wilds`` and the free
    deficiency ``d_all``; ``ds`` the plans' deficiencies when known (one per
    plan), ``tenpai`` the tenpai part when known (:func:`_tenpai_part`)."""
    rs = ctx.obs.ruleset
    best: Estimate | None = None
    if d_all <= 1:
        if tenpai is _NOT_YET:
            tenpai = _tenpai_part(ctx, counts, melds, t, wilds, ready)
        best = tenpai
        if best is not None and best.utility > 0 and not ctx.style.plans:
            return best
    near: list[int] | None = None
    bonus = ctx.concealed_fan if _all_concealed(melds) else 0.0
    task = ctx.obs.task
    task_fan = task.fan if task is not None and task.kind == "fan" else None
    for i, plan in enumerate(plans):
        d = plan_deficiency(plan, t, melds, wilds) if ds is None else ds[i]
        if d >= INF:
            continue
        if d == 1 and best is not None and best.plan == "WAIT":
            continue  # the exact estimate above covers it
        at_best = not cheap and (levels is None or d <= levels.get(plan.name, INF))
        if ctx.style.ukeire and at_best:
            # the free shape's kinds are worked out inside its cached answer
            if near is None and not _free_shape(plan):
                near = near_kinds(t)
            useful = _improving(
                ctx,
                plan,
                t,
                melds,
                wilds,
                d,
                all_kinds=plan.shapes != _REGULAR_ONLY,
                near=near,
            )
            uk = sum(map(ctx.unseen.__getitem__, useful))
        else:
            uk = int(generic_ukeire(plan, d, ctx))
        v = float(plan.points) + ctx.extra_fan
        if not plan.points:
            v += ctx.style.extra_fan
        if plan.allowed is None:
            v += ctx.implied
        if plan.name != "SEVEN_PAIRS":
            v += bonus
        if (
            task is not None
            and task_fan is not None
            and task_fan in plan.name.split("+")
        ):
            v *= task.factor  # the 任务 asks for this plan's fan
        p = _p_finish(d, uk, ctx, 1.5, plan)
        if v - ctx.flower_fan < rs.min_fan:
            p *= 0.25  # other fans must turn up on the way
        util = p * (v + ctx.style.tempo)
        if d == 1:
            util *= 0.5  # waiting on the plan's tiles but no scored wait: fragile
        if best is None or util > best.utility:
            best = Estimate(util, d, d_all, uk, plan.name, (), v, p)
    if best is None:
        return Estimate(0.0, INF, d_all, 0, "NONE")
    if best.free_deficiency != d_all:
        best = Estimate(
            best.utility,
            best.deficiency,
            d_all,
            best.ukeire,
            best.plan,
            best.waits,
            best.value,
            best.p_win,
        )
    return best


_ANY: dict[str, Plan] = {}
# one plan per rule set name: a small finite domain (the registered rule
# sets and the few a test builds), read on every value() call, so a dict


def any_shape_plan(ruleset: RuleSet) -> Plan:
    """A plan allowing every shape of the rule set (for waits and shanten)."""
    got = _ANY.get(ruleset.name)
    if got is None:
        got = _ANY[ruleset.name] = Plan("ANY", 0, None, frozenset(ruleset.shapes))
    return got


def _improving(
    ctx: Context,
    plan: Plan,
    t: list[int],
    melds: Sequence[Meld],
    wilds: int,
    d: int,
    *,
    all_kinds: bool,
    near: Sequence[int] | None = None,
) -> list[int]:
    """Kinds whose draw lowers the plan's deficiency (waits when ``d == 1``)."""
    if d <= 0:
        return []
    allowed = plan.allowed
    unseen = ctx.unseen
    wild = ctx.wild
    if _free_shape(plan):
        # the free shape: max(deficiency - wilds, 0) < d, one suit at a time;
        # which kinds lower it does not depend on what is unseen, so the
        # answer for the hand is kept and filtered here
        below = _free_below(
            tuple(t), len(melds), plan.shapes, wild, all_kinds, d + wilds
        )
        if d <= 1:
            return list(below)
        return [k for k in below if unseen[k] > 0]
    if all_kinds or near is None:
        kinds: Sequence[int] = range(NUM_KINDS) if all_kinds else near_kinds(t)
    else:
        kinds = near
    candidates = [
        k
        for k in kinds
        if (allowed is None or k in allowed) and k != wild and (unseen[k] > 0 or d <= 1)
    ]
    out = []
    for k in candidates:
        t[k] += 1
        nd = plan_deficiency(plan, t, melds, wilds)
        t[k] -= 1
        if nd < d:
            out.append(k)
    return out


def _free_shape(plan: Plan) -> bool:
    """Whether the plan limits neither kinds nor sets (its improving kinds
    are a deficiency question alone: :func:`_free_below`)."""
    return plan.allowed is None and not plan.chows and not plan.pungs_only


@lru_cache(maxsize=8192)
def _free_below(
    t: tuple[int, ...],
    melds: int,
    shapes: frozenset[Shape],
    wild: int | None,
    all_kinds: bool,
    cutoff: int,
) -> tuple[int, ...]:
    """:func:`games.rules.shanten.kinds_below` of the kinds a free-shape
    plan may draw — every kind with ``all_kinds``, else
    :func:`~games.rules.waits.near_kinds` of ``t``; never the wild kind —
    kept for the last 8,192 hands asked about (a hand left by the same
    discard recurs from turn to turn: drawing and throwing the same tile,
    both seats' bots).  The key holds what the kinds derive from, not the
    kinds: a hit then neither lists nor hashes them."""
    kinds = range(NUM_KINDS) if all_kinds else near_kinds(t)
    return tuple(kinds_below(t, melds, shapes, [k for k in kinds if k != wild], cutoff))


def rank_discards(
    ctx: Context, counts: Sequence[int], melds: Sequence[Meld], *, ready: bool = False
) -> list[tuple[float, int, Estimate]]:
    """Rank the discards of a hand holding ``14 - 3m`` tiles, best first.

    Returns ``(score, kind, estimate)`` with ``score = utility - risk``, where
    risk is the deal-in cost of :func:`danger` weighted by the style.  Each
    kind held is one discard, valued as :func:`value` values the hand left.
    """
    plans, levels = select_plans(ctx, counts, melds)
    risk = discard_risk(ctx) if ctx.style.defence > 0 else None
    kinds = [k for k in range(NUM_KINDS) if counts[k]]
    # the deficiencies of every discard at once (one suit changes per kind)
    column = _deficiency_columns(ctx, counts, melds, kinds)
    d_all_of = _free_deficiencies(ctx, counts, melds, plans[0], kinds, column)
    ds_of: list[list[int] | None] = [None] * NUM_KINDS
    if all(_simple(p) for p in plans):
        by_plan = [column(p) for p in plans]
        for k in kinds:
            ds_of[k] = [c[k] for c in by_plan]
    tenpai: dict[int, Estimate | None] = {}
    # a cheap estimate without an exact wait depends on the deficiencies only
    generic: dict[tuple[int, ...], Estimate] = {}
    work = list(counts)

    def estimate(k: int, cheap: bool) -> Estimate:
        # ``work`` holds the hand after discarding ``k``
        d_all = d_all_of[k]
        ds = ds_of[k]
        if cheap and ds is not None and d_all > 1:
            got = generic.get((d_all, *ds))
            if got is not None:
                return got
        t, wilds = split_counts(work, ctx.wild)
        tp = tenpai.get(k, _NOT_YET)
        if d_all <= 1 and tp is _NOT_YET:
            tp = tenpai[k] = _tenpai_part(ctx, work, melds, t, wilds, ready)
        key: tuple[int, ...] | None = None
        if cheap and ds is not None and (d_all > 1 or tp is None):
            key = (d_all, *ds)
            got = generic.get(key)
            if got is not None:
                return got
        est = _estimate(
            ctx, work, melds, t, wilds, d_all, ds, ready, plans, levels, cheap, tp
        )
        if key is not None:
            generic[key] = est
        return est

    def scored(k: int, cheap: bool) -> tuple[float, int, Estimate]:
        work[k] -= 1
        est = estimate(k, cheap)
        work[k] += 1
        score = est.utility
        if k == ctx.wild:
            score -= 100.0  # never throw a 财神
        if risk is not None:
            score -= risk[k] * (ctx.opp_value + est.utility) * ctx.style.defence
        return (score, k, est)

    # a cheap pass (deficiencies, generic effective tiles) for every discard,
    # then the effective tiles counted for the most promising few
    first = [scored(k, True) for k in kinds]
    if ctx.style.order_ties:
        first.sort(key=lambda x: (-x[0], keep_value(counts, x[1], ctx.wild)))
    else:
        first.sort(key=lambda x: -x[0])
    if not ctx.style.ukeire:
        return first
    deep = [scored(k, False) for _, k, _ in first[: ctx.style.deep]]
    deep.sort(key=lambda x: -x[0])
    return deep + first[ctx.style.deep :]


def keep_value(counts: Sequence[int], k: int, wild: int | None) -> int:
    """How connected a held tile of kind ``k`` is in the 34 ``counts``: 3
    per other copy, 2 per tile of the same suit one rank away, 1 per tile
    two ranks away (an honour has only its copies); the 财神 kind 99.

    A cheap stand-in for the effective tiles a discard loses, used to order
    the discards the cheap pass of :func:`rank_discards` cannot tell apart
    (a lone honour or a lone tile far from the others goes first).
    """
    if k == wild:
        return 99
    v = 3 * (counts[k] - 1)
    if k >= 27:
        return v
    rank = k % 9
    for step, weight in ((1, 2), (2, 1)):
        if rank - step >= 0 and counts[k - step] and k - step != wild:
            v += weight * counts[k - step]
        if rank + step <= 8 and counts[k + step] and k + step != wild:
            v += weight * counts[k + step]
    return v


def _free_deficiencies(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    first: Plan,
    kinds: Sequence[int],
    column: Callable[[Plan], list[int]],
) -> list[int]:
    """The any-shape deficiency after each discard (:func:`any_shape_plan`).

    When the context's first plan is a simple plan on some of the shapes
    (the free plan: the regular shape), its column is reused and only the
    other shapes still possible with the melds are added: the least over
    all shapes is the least of the two.
    """
    any_plan = any_shape_plan(ctx.obs.ruleset)
    if not (
        _simple(first) and first.shapes <= any_plan.shapes and first.admits_melds(melds)
    ):
        return column(any_plan)
    base = column(first)
    rest = _possible_shapes(any_plan.shapes - first.shapes, len(melds))
    if not rest:
        return base
    # only an other shape below the free plan's deficiency changes the
    # least, so the most the free plan needs is a cutoff for the others
    # (组合龙 and 全不靠 are then mostly not worked out at all)
    cap = max((base[k] for k in kinds), default=INF)
    if cap < INF:
        # no discard leaves an other shape below the cap: the free plan's
        # column is the least already (a 财神 discard keeps ``t`` and one
        # more wild, still at or above the floor less the wilds)
        t, wilds = split_counts(counts, ctx.wild)
        if special_floor(t, len(melds), rest) - wilds >= cap:
            return base
    extra = _discard_deficiencies(
        ctx, counts, melds, Plan("ANY", 0, None, rest), kinds, cap
    )
    return [a if a < b else b for a, b in zip(base, extra, strict=True)]


def _possible_shapes(shapes: frozenset[Shape], melds: int) -> frozenset[Shape]:
    """The shapes of ``shapes`` a hand with ``melds`` declared melds can
    still take (games.rules.shanten: the special shapes need no meld, the
    knitted straight at most one)."""
    if melds == 0:
        return shapes
    if melds == 1:
        return shapes & _ONE_MELD_SHAPES
    return shapes & _REGULAR_ONLY


def _simple(plan: Plan) -> bool:
    """Whether the plan's deficiency is the least over its shapes alone."""
    return (
        plan.allowed is None
        and not plan.pungs_only
        and not plan.chows
        and not plan.min_pairs
    )


def _deficiency_columns(
    ctx: Context, counts: Sequence[int], melds: Sequence[Meld], kinds: Sequence[int]
) -> Callable[[Plan], list[int]]:
    """A plan's :func:`_discard_deficiencies` column for this hand (one
    entry per kind, discarding each of ``kinds``), computed once per plan
    shape set and kept for the lifetime of the returned function (one
    decision: at most one column per plan of the rule set)."""
    columns: dict[frozenset[Shape], list[int]] = {}

    def column(plan: Plan) -> list[int]:
        got = columns.get(plan.shapes)
        if got is None:
            got = _discard_deficiencies(ctx, counts, melds, plan, kinds)
            columns[plan.shapes] = got
        return got

    return column


def _discard_deficiencies(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    plan: Plan,
    kinds: Sequence[int],
    cutoff: int = INF,
) -> list[int]:
    """``plan_deficiency`` of the hand after discarding each of ``kinds``
    (a :func:`_simple` plan), indexed by kind (INF elsewhere); a deficiency
    at or above ``cutoff`` may be given as ``cutoff``.

    One :func:`games.rules.shanten.deficiency_each` call instead of one
    shanten per discard; a discarded 财神 lowers the wild count instead, and
    白板 stands on the wild kind's face (:func:`split_counts`).
    """
    out = [INF] * NUM_KINDS
    if not plan.admits_melds(melds):
        return out
    t, wilds = split_counts(counts, ctx.wild)
    wild = ctx.wild
    faces: list[int] = []
    natural: list[int] = []
    for k in kinds:
        if k == wild:
            out[k] = plan_deficiency(plan, t, melds, wilds - 1)
            continue
        natural.append(k)
        faces.append(wild if wild is not None and k == _WHITE and wild != _WHITE else k)
    raw = deficiency_each(
        t, len(melds), plan.shapes, faces, -1, INF if cutoff >= INF else cutoff + wilds
    )
    for k, d in zip(natural, raw, strict=True):
        out[k] = INF if d >= INF else d - wilds if d > wilds else 0
    return out


def select_plans(
    ctx: Context, counts: Sequence[int], melds: Sequence[Meld]
) -> tuple[tuple[Plan, ...], dict[str, int]]:
    """Keep the few plans closest to completion for a ``14 - 3m`` hand.

    Returns the plans and, per plan name, the least deficiency a discard
    can leave (the deficiency of the 14-tile hand).
    """
    plans = ctx.plans
    t, wilds = split_counts(counts, ctx.wild)
    levels: dict[str, int] = {}
    scored: list[tuple[float, int, Plan]] = []
    for i, plan in enumerate(plans):
        d = plan_deficiency(plan, t, melds, wilds)
        if d >= INF:
            continue
        levels[plan.name] = min(d, levels.get(plan.name, INF))
        v = float(plan.points) + (ctx.implied if plan.allowed is None else 0.0)
        rough = (0.3**d) * (v + ctx.style.tempo)
        scored.append((rough, i, plan))
    scored.sort(key=lambda x: (-x[0], x[1]))
    keep = [p for _, _, p in scored[: ctx.style.max_plans]]
    if plans[0] not in keep:
        keep.insert(0, plans[0])
    return tuple(keep), levels


def discard_risk(ctx: Context) -> list[float]:
    """Deal-in chance per kind: P(opponent waiting) × :func:`danger`."""
    d = danger(ctx.obs)
    # defence matters most late: the opponent could not win by itself anyway
    late = 1.0 - min(ctx.obs.wall_count / max(ctx.pool, 1), 1.0) * 0.5
    p = ctx.opp_tenpai * late
    return [p * x for x in d]
