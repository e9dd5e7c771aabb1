"""Small value formats for templates: signed amounts, times, lookups."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def signed(value: Any) -> str:
    """``5`` → ``+5``, ``-3`` → ``−3``, ``0`` → ``0`` (for balance changes)."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    if n > 0:
        return f"+{n:,}"
    if n < 0:
        return f"−{-n:,}"
    return "0"


def ms_until(deadline: Any, now: Any) -> int:
    """Milliseconds from ``now`` to ``deadline`` (both epoch ms), at least 1."""
    try:
        return max(1, int(deadline) - int(now))
    except (TypeError, ValueError):
        return 1


def get_item(mapping: Any, key: Any) -> Any:
    """``{{ d|get_item:k }}``: a dict (or list index) lookup with a variable key.

    Returns None when the key is absent.
    """
    if isinstance(mapping, Mapping):
        return mapping.get(key)
    if isinstance(mapping, (list, tuple)):
        try:
            return mapping[int(key)]
        except (TypeError, ValueError, IndexError):
            return None
    return None
