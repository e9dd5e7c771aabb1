"""``hard``: the full evaluation (issue 5).

Every fan plan the rule set offers (flushes, 碰碰和, 七对, straights, 三色 …),
effective tiles against the unseen tiles, scored waits, a speed-versus-value
utility, deal-in risk weighed against its own chances whenever the opponent
may be waiting, kongs and claims judged by the same utility, the free 换牌,
报听 when the waits are live enough, and 胡加倍 when declining a win is
worth it.
"""

from __future__ import annotations

from . import evaluate as ev
from .base import PlanningBot


class HardBot(PlanningBot):
    """The strongest level."""

    level = "hard"
    style = ev.Style(
        plans=True,
        max_plans=3,
        deep=3,
        ukeire=True,
        score_waits=True,
        tempo=6.0,
        defence=1.0,
    )
    claim_margin = 0.0
    ready_min_live = 3
    judge_win_double = True
    use_swaps = True

    def wants_double(self, ctx: ev.Context) -> bool:
        """加倍 (seeds 002/004) with a dealt hand at most two tiles from waiting:
        such a hand wins the race more often than not, and the double pays
        both ways."""
        obs = ctx.obs
        if sum(obs.hand) + 3 * len(obs.melds) >= 14:
            ranked = ev.rank_discards(ctx, obs.hand, obs.melds)
            if not ranked:
                return False
            est = ranked[0][2]
        else:
            est = ev.value(ctx, obs.hand, obs.melds)
        return est.free_deficiency <= 3
