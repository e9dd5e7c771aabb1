"""``easy``: legal and mostly greedy (issue 5).

Discards by shanten alone (no effective-tile count, no fan plans, no
defence), with a little noise; claims whatever lowers the shanten; declares
报听 whenever it is waiting; always wins.
"""

from __future__ import annotations

from . import evaluate as ev
from .base import PlanningBot


class EasyBot(PlanningBot):
    """Greedy shanten player for practice tables."""

    level = "easy"
    style = ev.Style(
        plans=False,
        max_plans=1,
        ukeire=False,
        score_waits=False,
        tempo=2.0,
        defence=0.0,
    )
    claim_margin = -0.01
    ready_min_live = 1
    noise = 0.15
    double_deficiency = 2  # 加倍 after the deal only with a hand near waiting
