"""Where a level's badge is: one generated SVG per level of each seeded scheme.

The badges are made by ``tools/gen_level_badges.py`` into ``static/badges/``
(committed, like the tiles).  A scheme an admin adds later uses the generic
set, one badge per rank.
"""

from __future__ import annotations

from typing import Any

SCHEME_SLUGS = {
    "雀级（实力积分）": "que",
    "武林（游戏等级）": "wulin",
    "牌名（等级级别称号积分）": "paiming",
}
"""Seeded scheme name → its badge folder (seed 002, 003, 000)."""

GENERIC = "generic"
GENERIC_RANKS = 30


def badge_path(level: Any) -> str:
    """Static path of ``level``'s badge, e.g. ``badges/que/3.svg`` (麻雀)."""
    slug = SCHEME_SLUGS.get(getattr(level.scheme, "name", ""), GENERIC)
    rank = int(level.rank)
    if slug == GENERIC:
        rank = max(1, min(rank, GENERIC_RANKS))
    return f"badges/{slug}/{rank}.svg"
