"""The example value and the helpers of the example tables."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Example:
    """One example hand.

    Attributes:
        hand: calculator notation, winning tile last (``[777z]11123m...5m``).
        situation: the win's situation fields, calculator names
            (``{"self_drawn": True, "seat": "3z"}``); absent: the default
            (a discard win, East seat, East round).
    """

    hand: str
    situation: dict[str, object] = field(default_factory=dict, hash=False)


def ex(hand: str, **situation: object) -> Example:
    """Shorthand: ``ex("123m...", self_drawn=True)``."""
    return Example(hand, dict(situation))


def translate(example: Example, old: str, new: str) -> Example:
    """The same example with suit letter ``old`` read as ``new`` (``m`` → ``s``).

    Tile-valued situation fields (``bonus``, ``wild``) are translated too.
    """
    situation = {
        k: v.replace(old, new) if k in ("bonus", "wild") and isinstance(v, str) else v
        for k, v in example.situation.items()
    }
    return replace(example, hand=example.hand.replace(old, new), situation=situation)


DEAD: dict[str, frozenset[str]] = {}
"""Fans listed by a rule set that can never count there (filled in
:mod:`games.rules.examples.rulesets`)."""
