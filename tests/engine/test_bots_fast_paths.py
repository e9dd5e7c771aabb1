"""The bots' fast paths give the slow paths' numbers (issue 15: faster
self-play, the same decisions): the any-shape column that skips the special
shapes when their floor is above the free plan's cap, :func:`_p_finish`
with its factors kept per decision, and :meth:`Observation.unseen` in one
pass."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.actions import Action
from games.engine.bots import evaluate as ev
from games.engine.bots import make_bot
from games.engine.bots.observation import Observation, observation_from_hand
from games.engine.bots.plans import INF, Plan, plan_deficiency, plans_for
from games.engine.hand import Hand
from games.engine.selfplay import play_hand
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets import NAMES
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import ALL_TILES, NUM_KINDS
from games.rules.waits import near_kinds
from games.rules.wild_scoring import split_counts


def _random_hand(
    rng: random.Random, kinds: list[int], melds: int, wild: int | None
) -> tuple[list[int], tuple[Meld, ...]]:
    """14 - 3m concealed counts of the rule set's kinds (财神 weighted in when
    there is one) and ``melds`` pungs of other kinds."""
    wall = [k for k in kinds for _ in range(4)]
    rng.shuffle(wall)
    pungs = []
    for k in kinds:
        if len(pungs) < melds and wall.count(k) == 4 and k != wild:
            pungs.append(k)
            wall = [x for x in wall if x != k]
    if wild is not None:
        wall = [x for x in wall if x != wild][:40] + [wild] * rng.randrange(5)
        rng.shuffle(wall)
    c = [0] * NUM_KINDS
    for k in wall[: 14 - 3 * melds]:
        c[k] += 1
    out = tuple(Meld(MeldKind.PUNG, (ALL_TILES[k],) * 3, ALL_TILES[k]) for k in pungs)
    return c, out


def _both_columns(
    ctx: ev.Context, counts: list[int], melds: tuple[Meld, ...]
) -> tuple[list[int], list[int], int]:
    """The any-shape deficiency after each discard by
    :func:`ev._free_deficiencies` and by the any-shape plan's own column,
    and how many columns the first worked out (1: the free plan's alone)."""
    held = [k for k in range(NUM_KINDS) if counts[k]]
    columns: dict[object, list[int]] = {}

    def column(plan: ev.Plan) -> list[int]:
        got = columns.get(plan.shapes)
        if got is None:
            got = columns[plan.shapes] = ev._discard_deficiencies(
                ctx, counts, melds, plan, held
            )
        return got

    calls = 0
    work = ev._discard_deficiencies

    def counted(*args: Any) -> list[int]:
        nonlocal calls
        calls += 1
        return work(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ev, "_discard_deficiencies", counted)
        fast = ev._free_deficiencies(ctx, counts, melds, ctx.plans[0], held, column)
    any_plan = ev.any_shape_plan(ctx.obs.ruleset)
    slow = ev._discard_deficiencies(ctx, counts, melds, any_plan, held)
    return fast, slow, calls


@pytest.mark.parametrize("name", NAMES)
def test_free_deficiencies_equal_the_any_shape_column(name: str) -> None:
    rs = get_ruleset(name)
    kinds = sorted(t.index for t in rs.kinds)
    rng = random.Random(name)
    skipped = 0
    for i in range(300):
        wild = rng.choice(kinds) if name == "liangren" and i % 2 else None
        melds = rng.choice((0, 0, 0, 1, 2))
        counts, meld_tiles = _random_hand(rng, kinds, melds, wild)
        obs = Observation(
            ruleset=rs, seat=0, hand=tuple(counts), melds=meld_tiles, wild=wild
        )
        ctx = ev.make_context(obs, make_bot("normal", rng).style, None)
        fast, slow, columns = _both_columns(ctx, counts, meld_tiles)
        assert fast == slow, (counts, melds, wild)
        skipped += columns == 1
    # the floor spares the special shapes' column often, not always
    assert 30 < skipped < 300


def _old_p_finish(
    d: int, uk: float, ctx: ev.Context, bonus: float, plan: ev.Plan | None
) -> float:
    """:func:`ev._p_finish` as it was: every factor worked out in the loop."""
    if d <= 0:
        return 1.0
    p = uk / ctx.pool
    if d == 1:
        p *= bonus
    prob = ev._step(p, ctx)
    for level in range(d - 1, 0, -1):
        g = ev.generic_ukeire(plan, level, ctx) / ctx.pool
        prob *= ev._step(g * (bonus if level == 1 else 1.0), ctx)
    return prob


@pytest.mark.parametrize("name", ["mcr", "liangren", "erren"])
def test_p_finish_is_the_same_float(name: str) -> None:
    rs = get_ruleset(name)
    rng = random.Random(7)
    hard = make_bot("hard", rng).style
    for wall_count in (2, 30, 80):
        obs = Observation(
            ruleset=rs,
            seat=0,
            hand=(0,) * NUM_KINDS,
            wall_count=wall_count,
            opp_discards=tuple(rng.choice(range(27)) for _ in range(wall_count % 9)),
        )
        ctx = ev.make_context(obs, hard, None)
        for plan in (None, *ctx.plans):
            # deepest first, then shallower: the kept factors are extended
            for d in (6, 1, 3, 0, 7, 2):
                for uk in (0, 3, 11):
                    for bonus in (1.5, 1.0):
                        got = ev._p_finish(d, uk, ctx, bonus, plan)
                        assert got == _old_p_finish(d, uk, ctx, bonus, plan)
        assert ctx.steps  # the factors were kept


@pytest.mark.parametrize("name", NAMES)
def test_unseen_is_four_less_the_visible(name: str) -> None:
    bot = make_bot("normal", random.Random(4))
    rs = get_ruleset(name)
    live = {t.index for t in rs.kinds}
    checked = 0

    def choose(hand: Hand, seat: int) -> Action | None:
        nonlocal checked
        for s in (0, 1):
            obs = observation_from_hand(hand, s)
            vis = obs.visible()
            assert obs.unseen() == [
                4 - vis[k] if k in live else 0 for k in range(NUM_KINDS)
            ]
        checked += 1
        return bot.choose_in(hand, seat)

    rng = random.Random(6)
    for i in range(3):
        play_hand(rs, f"unseen-{name}-{i}", check=False, rng=rng, choose=choose)
    assert checked > 30


def _improving_by_plan(
    ctx: ev.Context,
    plan: Plan,
    t: list[int],
    melds: tuple[Meld, ...],
    wilds: int,
    d: int,
    all_kinds: bool,
) -> list[int]:
    """The improving kinds one :func:`plan_deficiency` per kind (the
    reference for the free shape's cached :func:`ev._free_below`)."""
    kinds = range(NUM_KINDS) if all_kinds else near_kinds(t)
    out = []
    for k in kinds:
        if k == ctx.wild or (ctx.unseen[k] <= 0 and d > 1):
            continue
        t[k] += 1
        if plan_deficiency(plan, t, melds, wilds) < d:
            out.append(k)
        t[k] -= 1
    return out


@pytest.mark.parametrize("name", NAMES)
def test_free_improving_equals_a_deficiency_per_kind(name: str) -> None:
    rs = get_ruleset(name)
    kinds = sorted(t.index for t in rs.kinds)
    rng = random.Random(f"improving {name}")
    free = plans_for(rs)[0]
    any_plan = ev.any_shape_plan(rs)
    asked = 0
    for i in range(300):
        wild = rng.choice(kinds) if name == "liangren" and i % 2 else None
        melds = rng.choice((0, 0, 0, 1, 2))
        counts, meld_tiles = _random_hand(rng, kinds, melds, wild)
        k = max(range(NUM_KINDS), key=lambda x: (counts[x], x))
        counts[k] -= 1  # a 13 - 3m hand
        seen = tuple(rng.choice(kinds) for _ in range(rng.randrange(30)))
        obs = Observation(
            ruleset=rs,
            seat=0,
            hand=tuple(counts),
            melds=meld_tiles,
            wild=wild,
            opp_discards=seen,
        )
        ctx = ev.make_context(obs, make_bot("hard", rng).style, None)
        t, wilds = split_counts(counts, wild)
        for plan, all_kinds in ((free, False), (any_plan, True)):
            d = plan_deficiency(plan, t, meld_tiles, wilds)
            if d >= INF:
                continue
            want = (
                []
                if d <= 0
                else _improving_by_plan(ctx, plan, t, meld_tiles, wilds, d, all_kinds)
            )
            got = ev._improving(
                ctx, plan, list(t), meld_tiles, wilds, d, all_kinds=all_kinds
            )
            assert got == want, (counts, meld_tiles, wild, plan.name, d)
            asked += bool(want)
    assert asked > 300
