"""Players that choose actions for a seat (托管, 报听 auto-play, self-play).

:func:`make_bot` builds a bot of a level (``easy``, ``normal``, ``hard``);
every bot answers ``choose(view, legal)`` with one of ``legal``, built only
from what ``Hand.view(seat)`` and ``Hand.legal_actions(seat)`` give it
(issue 5).  ``default`` is the engine's simplest legal player.
"""

from __future__ import annotations

import random

from .base import Bot, PlanningBot
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot

LEVELS: dict[str, type[PlanningBot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}
"""Bot level name → class, weakest first."""


def make_bot(level: str, rng: random.Random) -> Bot:
    """Return a bot of ``level`` drawing its randomness from ``rng``.

    Raises:
        KeyError: unknown level (the message lists the known ones).
    """
    try:
        cls = LEVELS[level]
    except KeyError:
        raise KeyError(
            f"unknown bot level {level!r}; known: {', '.join(LEVELS)}"
        ) from None
    return cls(rng)


__all__ = ["LEVELS", "Bot", "EasyBot", "HardBot", "NormalBot", "make_bot"]
