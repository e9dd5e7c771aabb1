"""``normal``: shanten, effective tiles and the main fan plans (issue 5).

Counts effective tiles (受入) against the unseen tiles, keeps the two most
promising fan plans (清一色, 碰碰和, 七对 …), checks that a wait reaches the
minimum fan, claims only when the estimate improves, folds to the safest
tile against a 报听 opponent when far from waiting, and always wins.
"""

from __future__ import annotations

from . import evaluate as ev
from .base import PlanningBot


class NormalBot(PlanningBot):
    """A sound, unhurried player."""

    level = "normal"
    style = ev.Style(
        plans=True,
        max_plans=2,
        deep=3,
        ukeire=True,
        score_waits=True,
        tempo=4.0,
        defence=0.0,
    )
    claim_margin = 0.1
    ready_min_live = 4
    fold_deficiency = 2
