"""Examples of one rule set only (its own fans, or hands its wall needs)."""

from __future__ import annotations

from .base import Example

BY_RULESET: dict[str, dict[str, Example]] = {}
