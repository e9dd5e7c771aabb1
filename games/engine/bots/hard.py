"""``hard``: the full evaluation (issue 5).

Every fan plan the rule set offers (flushes, 碰碰和, 七对, straights, 三色 …),
effective tiles against the unseen tiles, scored waits, a speed-versus-value
utility, deal-in risk weighed against its own chances whenever the opponent
may be waiting, kongs and claims judged by the same utility, the free 换牌,
报听 when the waits are live enough, 胡加倍 when declining a win is
worth it, 加倍 after the deal with a hand three tiles from waiting or better,
and 明牌 / 开始加倍 as the dealer.
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
    double_deficiency = 3  # 53-56 % wins measured (base.PlanningBot)
    predeal_as_dealer = True  # the dealer's edge, and the strongest level
