"""Shared examples, by fan id, in 万 and honours where the pattern allows."""

from __future__ import annotations

from .base import Example, ex

COMMON: dict[str, Example] = {
    "NINE_GATES": ex("1112345678999m5m"),
    "FULL_FLUSH": ex("1112345678999m5m"),
}
