"""Error types of the rules engine.

Both are :class:`ValueError` subclasses so callers that only care about "bad
input" can catch one thing; callers that need the difference can tell
malformed input (:class:`NotationError`, :class:`InvalidHandError`) from a
well-formed request that the rules refuse (:class:`IllegalHandError`).
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules engine raises on purpose."""


class NotationError(RulesError):
    """Malformed tile notation.

    ``text`` is the whole input and ``position`` the 0-based index of the
    offending character (or ``None`` when the problem is not at one place).
    """

    def __init__(self, message: str, *, text: str, position: int | None) -> None:
        where = f" at position {position}" if position is not None else ""
        super().__init__(f"{message}{where} in {text!r}")
        self.text = text
        self.position = position


class InvalidHandError(RulesError):
    """A hand that cannot exist: wrong tile count, a fifth copy, a bad meld."""


class IllegalHandError(RulesError):
    """A well-formed hand that the rule set refuses (not complete, below minimum)."""
