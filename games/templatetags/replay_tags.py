"""Template filters of the replay page (``{% load replay_tags %}``)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def review_action(key: Any) -> str:
    """A reviewed move in words: ``{"kind": "discard", "tile": "5m"}`` → ``打 五万``."""
    from games.replay.present import option_label

    return option_label(key) if isinstance(key, dict) else ""


@register.filter
def percent(value: Any) -> str:
    """``0.634`` → ``63%`` (empty for a missing value)."""
    try:
        return f"{round(float(value) * 100)}%"
    except (TypeError, ValueError):
        return ""
