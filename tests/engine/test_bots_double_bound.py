"""加倍 after the deal without ranking the hand when the deficiencies decide it
(issue 15).

``PlanningBot.wants_double`` once ranked every discard of the dealt hand
(``rank_discards``, the wins of every wait scored) only to read the best
discard's ``free_deficiency``.  The best discard leaves one of the hand's
per-discard deficiencies, so when they all fall on one side of the bot's
threshold the answer is known without the ranking.  These tests hold the
new answer to the old one on self-played deals (every 加倍 decision) and on
random hands of every size, with melds and 财神.
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots import base, make_bot
from games.engine.bots import evaluate as ev
from games.engine.bots.observation import Observation, observation_from_hand
from games.engine.hand import Hand
from games.engine.selfplay import make_chooser, play_hand
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import ALL_TILES, NUM_KINDS


def _old_wants_double(bot: base.PlanningBot, ctx: ev.Context) -> bool:
    """``wants_double`` as it was: rank the discards (or value the hand)."""
    if bot.double_deficiency is None:
        return False
    obs = ctx.obs
    if sum(obs.hand) + 3 * len(obs.melds) >= 14:
        ranked = ev.rank_discards(ctx, obs.hand, obs.melds)
        if not ranked:
            return False
        est = ranked[0][2]
    else:
        est = ev.value(ctx, obs.hand, obs.melds)
    return est.free_deficiency <= bot.double_deficiency


def _context(bot: base.PlanningBot, obs: Observation) -> ev.Context:
    return ev.make_context(obs, bot.style, bot.scorer, {})


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("name", ["liangren", "erren64"])
def test_deal_double_is_the_ranked_answer(
    name: str, level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every 加倍 decision of self-played hands, and every turn's hand (14
    tiles, melds, 财神) and the hand its discard leaves (13 tiles), give the
    answer the ranking gives."""
    compared = {"deal": 0, "turn": 0, "sides": set()}
    deal_double = base.PlanningBot.deal_double
    turn = base.PlanningBot.turn

    def check(bot: base.PlanningBot, ctx: ev.Context) -> bool:
        old = _old_wants_double(bot, _context(bot, ctx.obs))
        assert bot.wants_double(_context(bot, ctx.obs)) is old
        compared["sides"].add(old)  # type: ignore[attr-defined]
        return old

    def spy_deal(
        self: base.PlanningBot, ctx: ev.Context, options: list[object]
    ) -> object:
        check(self, ctx)
        compared["deal"] += 1  # type: ignore[operator]
        return deal_double(self, ctx, options)  # type: ignore[arg-type]

    def spy_turn(
        self: base.PlanningBot, ctx: ev.Context, options: list[object]
    ) -> object:
        got = turn(self, ctx, options)  # type: ignore[arg-type]
        check(self, ctx)
        tile = getattr(got, "tile", None)
        obs = ctx.obs
        if tile is not None and obs.hand[tile.index]:
            left = list(obs.hand)
            left[tile.index] -= 1
            check(self, _context(self, obs._replace(hand=tuple(left))))
        compared["turn"] += 1  # type: ignore[operator]
        return got

    monkeypatch.setattr(base.PlanningBot, "deal_double", spy_deal)
    monkeypatch.setattr(base.PlanningBot, "turn", spy_turn)
    rs = get_ruleset(name)
    rng = random.Random(15)
    choose = make_chooser(level, random.Random(16))
    for i in range(6):
        play_hand(rs, f"double-{name}-{i}", check=False, rng=rng, choose=choose)
    assert compared["deal"] >= 6
    assert compared["turn"] > 50
    assert compared["sides"] == {True, False}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("name", ["liangren", "erren64"])
def test_random_hands_give_the_ranked_answer(name: str, level: str) -> None:
    """Random hands of 14 - 3m and 13 - 3m tiles (pungs, 财神 weighted in)
    put in a dealt observation: the same answer as the ranking."""
    rs = get_ruleset(name)
    bot = make_bot(level, random.Random(1))
    assert isinstance(bot, base.PlanningBot)
    hand = Hand.new(rs, now=0.0, seed="double-random")
    obs0 = observation_from_hand(hand, 0)
    kinds = [t.index for t in rs.kinds]
    rng = random.Random(15)
    sides = set()
    for _ in range(150):
        melds_n = rng.choice((0, 0, 0, 1, 2))
        size = 14 - 3 * melds_n - rng.randrange(2)
        wild = obs0.wild
        wall = [k for k in kinds for _ in range(4)]
        rng.shuffle(wall)
        pungs: list[int] = []
        for k in kinds:
            if len(pungs) < melds_n and wall.count(k) == 4 and k != wild:
                pungs.append(k)
                wall = [x for x in wall if x != k]
        if wild is not None:
            wall = [x for x in wall if x != wild][:40] + [wild] * rng.randrange(5)
            rng.shuffle(wall)
        counts = [0] * NUM_KINDS
        for k in wall[:size]:
            counts[k] += 1
        melds = tuple(Meld(MeldKind.PUNG, (ALL_TILES[k],) * 3) for k in pungs)
        obs = obs0._replace(hand=tuple(counts), melds=melds, drawn=None)
        old = _old_wants_double(bot, _context(bot, obs))
        assert bot.wants_double(_context(bot, obs)) is old, (counts, melds)
        sides.add(old)
    assert sides == {True, False}
