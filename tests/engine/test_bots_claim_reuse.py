"""A claim weighs the hand the bot then holds (issue 15).

Deciding a 吃/碰 the bot ranks the discards of the hand after the claim;
when it takes the claim it ranks that hand again on its turn.  The claimed
meld it weighed must be the meld its observation then shows (no claimed
tile, as the view gives melds), so the second ranking finds every win it
scores in the bot's cache of scored wins instead of scoring it again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.engine.actions import Action, Chi, Pung
from games.engine.bots import base, wins
from games.engine.bots import evaluate as ev
from games.engine.hand import Hand
from games.engine.selfplay import make_chooser
from games.rules.melds import Meld
from games.rules.rulesets import get as get_ruleset


@pytest.mark.parametrize("name", ["liangren", "mcr", "youxi"])
def test_turn_after_a_claim_ranks_the_hand_weighed(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-played hands: after every 吃/碰 the bot takes, its turn ranks a
    hand (counts and melds) it ranked when deciding the claim, and scores
    no win afresh."""
    weighed: dict[int, set[tuple[object, ...]]] = {}
    taken: dict[int, bool] = {}
    where = {"claim": False, "after": False}
    scored = {"after": 0}
    checked = 0
    rank = ev.rank_discards
    claim = base.PlanningBot.claim
    turn = base.PlanningBot.turn
    score = wins.score_standing

    def spy_rank(
        ctx: ev.Context, counts: Sequence[int], melds: Sequence[Meld], **kw: bool
    ) -> list[tuple[float, int, ev.Estimate]]:
        if where["claim"]:
            weighed[ctx.obs.seat].add((tuple(counts), tuple(melds)))
        return rank(ctx, counts, melds, **kw)

    def spy_claim(
        self: base.PlanningBot, ctx: ev.Context, options: Sequence[Action]
    ) -> Action:
        weighed[ctx.obs.seat] = set()
        where["claim"] = True
        try:
            got = claim(self, ctx, options)
        finally:
            where["claim"] = False
        taken[ctx.obs.seat] = isinstance(got, (Chi, Pung))
        return got

    def spy_turn(
        self: base.PlanningBot, ctx: ev.Context, options: Sequence[Action]
    ) -> Action:
        nonlocal checked
        seat = ctx.obs.seat
        after = taken.pop(seat, False)
        if after:
            assert (ctx.obs.hand, ctx.obs.melds) in weighed[seat]
            checked += 1
        where["after"] = after
        try:
            return turn(self, ctx, options)
        finally:
            where["after"] = False

    def spy_score(*args: object) -> object:
        if where["after"]:
            scored["after"] += 1
        return score(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(ev, "rank_discards", spy_rank)
    monkeypatch.setattr(base.PlanningBot, "claim", spy_claim)
    monkeypatch.setattr(base.PlanningBot, "turn", spy_turn)
    monkeypatch.setattr(wins, "score_standing", spy_score)
    ruleset = get_ruleset(name)
    rng = random.Random(15)
    choose = make_chooser("normal", random.Random(16))
    for _ in range(12):
        # every action the bot's own (self-play also times out and plays
        # at random): a claim it takes is followed by its turn
        seed = f"{rng.getrandbits(128):032x}"
        hand = Hand.new(ruleset, now=0.0, seed=seed, balances=(2000, 2000))
        clock = 0.0
        while not hand.ended:
            seat = 0 if hand.state.pending[0] else 1
            clock += 0.5
            hand.apply(choose(hand, seat), now=clock)
    assert checked >= 10
    assert scored["after"] == 0
