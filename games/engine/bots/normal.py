"""``normal``: shanten, scored waits and connected tiles (issues 5, 15).

Ranks its discards by the deficiency they leave (shanten + 1) with typical
effective-tile counts, checks with the scorer that a wait reaches the rule
set's minimum fan (a wait that cannot is no wait) and values 报听 by the fan
it adds; among discards that rank the same it throws the least connected
tile (:func:`~games.engine.bots.evaluate.keep_value`: a lone honour, a tile
far from the others) and counts effective tiles (受入) against the tiles
unseen from its seat only for the discard it chooses and for the hands it
weighs a claim or a kong with (issue 15: cheaper than counting them for its
three best discards, and stronger in duplicate play: ``bench_strength.py``
``normal:normal-before15``).  A drawn tile that touches nothing in the
hand (no copy, nothing of its suit within two ranks) is thrown at once when
only discards are on offer and the opponent has not declared 报听 (issue 15:
about half the turns, decided without ranking).  It claims only when its
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
        deep=1,
        order_ties=True,
        ukeire=True,
        score_waits=True,
        tempo=4.0,
        defence=0.0,
    )
    claim_margin = 0.1
    ready_min_live = 4
    fold_deficiency = 2
    double_deficiency = 2  # 加倍 after the deal: 61-71 % wins measured
    throw_lone_draw = True  # half the turns decided without a ranking
