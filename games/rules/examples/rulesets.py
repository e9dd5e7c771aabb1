"""Examples of one rule set only: its own tiles or its own reading of a fan."""

from __future__ import annotations

from .base import DEAD, Example, ex

# 无字 (NO_HONORS) in a one-suit wall: an honour-free hand is 清一色, which
# 不计 无字 (RULES.md, "Fans that a one-suit wall makes dead").
_NO_HONORS_ONE_SUIT = ex("123222456789m55m")

BY_RULESET: dict[str, dict[str, Example]] = {
    "erren": {"NO_HONORS": _NO_HONORS_ONE_SUIT},
    "erren64": {"NO_HONORS": _NO_HONORS_ONE_SUIT},
    "jj": {
        "NO_HONORS": ex("123222456789s55s"),
        # 推不倒 in seed 001: "245689条、白板"
        "REVERSIBLE_TILES": ex("222456888s555z99s"),
    },
}

DEAD.update(
    {
        "erren": frozenset({"NO_HONORS"}),
        "erren64": frozenset({"NO_HONORS"}),
        "jj": frozenset({"NO_HONORS"}),
    }
)
