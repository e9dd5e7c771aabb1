"""Error types of the rules engine.

Both are :class:`ValueError` subclasses so callers that only care about "bad
input" can catch one thing; callers that need the difference can tell
malformed input (:class:`NotationError`, :class:`InvalidHandError`) from a
well-formed request that the rules refuse (:class:`IllegalHandError`).
"""

from __future__ import annotations

from enum import StrEnum


class RulesError(ValueError):
    """Base class of every error the rules engine raises on purpose."""


class NotationProblem(StrEnum):
    """What is wrong with a piece of notation, for callers that explain it
    in people's words (the calculator) instead of showing the message."""

    UNREADABLE = "unreadable"  # a character that is no part of a tile
    UNCLOSED_BRACKET = "unclosed_bracket"  # '[' with no ']' after it
    STRAY_CLOSE = "stray_close"  # ']' with no '[' before it
    NESTED_BRACKETS = "nested_brackets"  # '[' inside a meld
    EMPTY_MELD = "empty_meld"  # '[]'
    MELD_AFTER_FLOWERS = "meld_after_flowers"  # '[' after '+'
    MISPLACED_MARK = "misplaced_mark"  # '*' or "'" outside its place
    SECOND_PLUS = "second_plus"  # two '+'


class NotationError(RulesError):
    """Malformed tile notation.

    ``text`` is the whole input and ``position`` the 0-based index of the
    offending character (or ``None`` when the problem is not at one place);
    ``problem`` says what kind of fault it is (default
    :attr:`NotationProblem.UNREADABLE`).
    """

    def __init__(
        self,
        message: str,
        *,
        text: str,
        position: int | None,
        problem: NotationProblem = NotationProblem.UNREADABLE,
    ) -> None:
        where = f" at position {position}" if position is not None else ""
        super().__init__(f"{message}{where} in {text!r}")
        self.text = text
        self.position = position
        self.problem = problem


class InvalidHandError(RulesError):
    """A hand that cannot exist: wrong tile count, a fifth copy, a bad meld."""


class IllegalHandError(RulesError):
    """A well-formed hand that the rule set refuses (not complete, below minimum)."""
