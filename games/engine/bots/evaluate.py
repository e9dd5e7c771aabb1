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

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...rules.melds import Meld, MeldKind
from ...rules.rulesets import RuleSet, System
from ...rules.shanten import Shape, kinds_below
from ...rules.tiles import NUM_KINDS
from ...rules.waits import near_kinds
from ...rules.waits import waits as rules_waits
from ...rules.wild_scoring import split_counts
from .defence import danger, opponent_tenpai
from .observation import Observation
from .plans import INF, Plan, plan_deficiency, plans_for
from .wins import ScoredWin, WinScorer, win_fan


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
    ready_lock: float = 0.95
    extra_fan: float = 5.0
    skip_plans: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Estimate:
    """The worth of a waiting hand.

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


def _fan_points(ruleset: RuleSet, fan_id: str) -> int:
    try:
        return ruleset.fan(fan_id).points
    except KeyError:
        return 0


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
    base = base_value_of(rs)
    p_t = opponent_tenpai(obs)
    # chance per turn that the opponent wins: ~1 in 5 once it is waiting,
    # a little before (it may get there and win within the race)
    hazard = p_t * 0.2 + (1.0 - p_t) * 0.04
    ready_mult = float(rs.multipliers.get("ready_win", 1))
    opp_value = base * (ready_mult if obs.opp_ready else 1.0)
    plans = plans_for(rs) if style.plans else plans_for(rs)[:1]
    if style.skip_plans:
        plans = tuple(p for p in plans if p.name not in style.skip_plans)
    flower_fan = float(len(obs.flowers) * _fan_points(rs, "FLOWER_TILES"))
    extra = 0.0
    if System.READY in rs.systems:
        extra += _fan_points(rs, "READY_HAND")  # it will declare when waiting
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
        implied=implied_fan(rs),
        can_ready=System.READY in rs.systems and not obs.ready,
        extra_fan=extra + flower_fan,
        flower_fan=flower_fan,
        n_kinds=len(rs.kinds),
        cache=cache,
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
    if plan is not None and plan.shapes == {Shape.SEVEN_PAIRS}:
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
    for level in range(d - 1, 0, -1):
        g = generic_ukeire(plan, level, ctx) / ctx.pool
        prob *= _step(g * (tenpai_bonus if level == 1 else 1.0), ctx)
    return prob


def _concealed_bonus(ctx: Context, melds: Sequence[Meld]) -> float:
    if any(m.kind is not MeldKind.CONCEALED_KONG for m in melds):
        return 0.0
    try:
        return float(ctx.obs.ruleset.fan("CONCEALED_HAND").points)
    except KeyError:
        return 0.0


def _tenpai_estimate(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    waits: list[int],
    ready: bool,
) -> Estimate | None:
    """Exact valuation of a waiting hand: score every live winning tile.

    Where the rule set has 报听 and the seat has not declared, the hand is
    also valued as declared (its fan, e.g. seed 000 报听, and the 听牌胡
    multiplier) and the better of the two is returned; ``plan`` is then
    ``"WAIT+READY"``, which tells the bot to declare.
    """
    est = _wait_value(ctx, counts, melds, waits, ready)
    if ready or not ctx.can_ready:
        return est
    declared = _wait_value(ctx, counts, melds, waits, True)
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


def _wait_value(
    ctx: Context,
    counts: Sequence[int],
    melds: Sequence[Meld],
    waits: list[int],
    ready: bool,
) -> Estimate | None:
    live = 0
    total = 0.0
    real: list[int] = []
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
    """
    t, wilds = split_counts(counts, ctx.wild)
    plans = ctx.plans if plans is None else plans
    rs = ctx.obs.ruleset
    all_plan = any_shape_plan(rs)
    d_all = plan_deficiency(all_plan, t, melds, wilds)
    best: Estimate | None = None
    if d_all <= 1:
        waits = rules_waits(t, melds=len(melds), wilds=wilds, shapes=rs.shapes)
        best = _tenpai_estimate(ctx, counts, melds, waits, ready)
        if best is not None and best.utility > 0 and not ctx.style.plans:
            return best
    near: list[int] | None = None
    bonus = _concealed_bonus(ctx, melds)
    for plan in plans:
        d = plan_deficiency(plan, t, melds, wilds)
        if d >= INF:
            continue
        if d == 1 and best is not None and best.plan == "WAIT":
            continue  # the exact estimate above covers it
        at_best = not cheap and (levels is None or d <= levels.get(plan.name, INF))
        if ctx.style.ukeire and at_best:
            if near is None:
                near = near_kinds(t)
            useful = _improving(
                ctx,
                plan,
                t,
                melds,
                wilds,
                d,
                all_kinds=plan.shapes != {Shape.REGULAR},
                near=near,
            )
            uk = sum(ctx.unseen[k] for k in useful)
        else:
            uk = int(generic_ukeire(plan, d, ctx))
        v = float(plan.points) + ctx.extra_fan
        if not plan.points:
            v += ctx.style.extra_fan
        if plan.allowed is None:
            v += ctx.implied
        if plan.name != "SEVEN_PAIRS":
            v += bonus
        task = ctx.obs.task
        if task is not None and task.kind == "fan" and task.fan in plan.name.split("+"):
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
    if all_kinds or near is None:
        kinds: Sequence[int] = range(NUM_KINDS) if all_kinds else near_kinds(t)
    else:
        kinds = near
    allowed = plan.allowed
    unseen = ctx.unseen
    wild = ctx.wild
    candidates = [
        k
        for k in kinds
        if (allowed is None or k in allowed) and k != wild and (unseen[k] > 0 or d <= 1)
    ]
    if plan.allowed is None and not plan.chows and not plan.pungs_only:
        # the free shape: max(deficiency - wilds, 0) < d, one suit at a time
        return kinds_below(t, len(melds), plan.shapes, candidates, d + wilds)
    out = []
    for k in candidates:
        t[k] += 1
        nd = plan_deficiency(plan, t, melds, wilds)
        t[k] -= 1
        if nd < d:
            out.append(k)
    return out


def rank_discards(
    ctx: Context, counts: Sequence[int], melds: Sequence[Meld], *, ready: bool = False
) -> list[tuple[float, int, Estimate]]:
    """Rank the discards of a hand holding ``14 - 3m`` tiles, best first.

    Returns ``(score, kind, estimate)`` with ``score = utility - risk``, where
    risk is the deal-in cost of :func:`danger` weighted by the style.
    """
    plans, levels = select_plans(ctx, counts, melds)
    risk = discard_risk(ctx) if ctx.style.defence > 0 else None
    work = list(counts)

    def scored(k: int, cheap: bool) -> tuple[float, int, Estimate]:
        work[k] -= 1
        est = value(
            ctx, work, melds, ready=ready, plans=plans, levels=levels, cheap=cheap
        )
        work[k] += 1
        score = est.utility
        if k == ctx.wild:
            score -= 100.0  # never throw a 财神
        if risk is not None:
            score -= risk[k] * (ctx.opp_value + est.utility) * ctx.style.defence
        return (score, k, est)

    # a cheap pass (deficiencies, generic effective tiles) for every discard,
    # then the effective tiles counted for the most promising few
    first = [scored(k, True) for k in range(NUM_KINDS) if work[k]]
    first.sort(key=lambda x: -x[0])
    if not ctx.style.ukeire:
        return first
    deep = [scored(k, False) for _, k, _ in first[: ctx.style.deep]]
    deep.sort(key=lambda x: -x[0])
    return deep + first[ctx.style.deep :]


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
