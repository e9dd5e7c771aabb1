"""Named rule sets, one module each; :func:`get` loads one by name."""

from __future__ import annotations

import importlib

from .base import Claim, RuleSet, System, Timers

NAMES: tuple[str, ...] = ("erren", "mcr", "erren64", "jj", "liangren", "youxi")
"""Every rule set, the site's default (``erren``, seed 000) first."""

DEFAULT = "erren"

_cache: dict[str, RuleSet] = {}


def get(name: str) -> RuleSet:
    """Return the rule set called ``name``.

    It is the ``RULESET`` attribute of the module ``rulesets/<name>.py``.

    Raises:
        KeyError: unknown name (the message lists the known ones).
    """
    if name not in NAMES:
        raise KeyError(f"unknown rule set {name!r}; known: {', '.join(NAMES)}")
    if name not in _cache:
        module = importlib.import_module(f"{__name__}.{name}")
        _cache[name] = module.RULESET
    return _cache[name]


__all__ = ["DEFAULT", "NAMES", "Claim", "RuleSet", "System", "Timers", "get"]
