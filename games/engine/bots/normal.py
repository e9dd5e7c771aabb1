"""``normal``: shanten, effective tiles and scored waits (issue 5).

Counts effective tiles (受入) against the tiles unseen from its seat, checks
with the scorer that a wait reaches the rule set's minimum fan (a wait that
cannot is no wait) and values 报听 by the fan it adds, claims only when its
estimate improves, folds to the safest tile against a 报听 opponent when far
from waiting, and always wins.  It does not steer towards fan plans (清一色,
碰碰和, 七对 …): that is what ``hard`` adds.  加倍 after the deal with a hand
two tiles from waiting or better; no 明牌 / 开始加倍 before the deal.
"""

from __future__ import annotations

from . import evaluate as ev
from .base import PlanningBot


class NormalBot(PlanningBot):
    """A sound, plain player."""

    level = "normal"
    style = ev.Style(
        plans=False,
        max_plans=1,
        deep=3,
        ukeire=True,
        score_waits=True,
        tempo=4.0,
        defence=0.0,
    )
    claim_margin = 0.1
    ready_min_live = 4
    fold_deficiency = 2
    double_deficiency = 2  # 加倍 after the deal: 61-71 % wins measured
