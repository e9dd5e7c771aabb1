"""The 81 fans of MCR (国标麻将), one unit each.

Source: seed 003 (国际麻将, 2329游戏中心) 番种的分值与计分 — the clearest of
the three MCR seeds, with its 不计 lists; seeds 002 (两人麻将) and 004 (二人麻将
手游版) give the same table.  Each :class:`Fan` below carries its Chinese and
English names, value, condition and 不计 list (``excludes``).  Where the seed
leaves a 不计 out and MCR's standard text (as implemented by the oracle,
ChineseOfficialMahjongHelper) has it, the fan's ``source`` says so.

Conditions read a :class:`~games.rules.scoring.ScoringContext`.  Fans that
combine several sets (一般高, 三同刻 …) read one shared analysis per
decomposition (:mod:`.mcr_combos`), which applies 套算一次 and 不得相同.

The fans live in four modules by value band (:mod:`.mcr_high` 88–48,
:mod:`.mcr_mid` 32–12, :mod:`.mcr_low` 8–4, :mod:`.mcr_small` 2–1), sharing
:mod:`.mcr_common`; importing them registers every fan in table order.
"""

from __future__ import annotations

from . import mcr_high, mcr_low, mcr_mid, mcr_small  # noqa: F401  (registers)
from .base import Fan
from .mcr_common import _TABLE

FANS: tuple[Fan, ...] = tuple(sorted(_TABLE, key=lambda f: -f.points))
"""The 81 MCR fans, highest value first (stable within a value)."""

assert len(FANS) == 81, len(FANS)

FANS_BY_ID: dict[str, Fan] = {f.id: f for f in FANS}
"""The MCR fans by id, for rule sets that re-use or re-value them."""
