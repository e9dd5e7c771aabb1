"""Error types of the hand state machine.

All are :class:`ValueError` subclasses (STYLE.md): callers that only care
about "bad input" catch :class:`ActionError`; the server tells malformed
requests (:class:`InvalidActionError`) from well-formed ones the rules or the
turn order refuse now (:class:`IllegalActionError` and its subclasses).  A
refused action never changes the hand.
"""

from __future__ import annotations


class ActionError(ValueError):
    """Base class of every error raised when an action is refused."""


class InvalidActionError(ActionError):
    """Malformed action: unknown kind, missing field, bad tile notation, bad seat."""


class AheadActionError(InvalidActionError):
    """The action answers a sequence number the hand has not reached (forged
    or corrupted: no frame ever showed it)."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid at this point of the hand."""


class StaleActionError(IllegalActionError):
    """The action answers an older sequence number than the seat's open prompt.

    A double submit lands here: the first copy advanced the sequence, so the
    second one answers a prompt that is gone.
    """


class OutOfTurnError(IllegalActionError):
    """The seat is not the one (or one of those) asked to act."""


class HandOverError(IllegalActionError):
    """The hand has ended; only reading is possible."""


class LogMismatchError(ValueError):
    """The engine's replay of a hand log gives another event than the log has.

    The log is then not the one the site wrote (a tampered file, or a wrong
    seed): callers show the hand as unverified.

    Attributes:
        seq: the 1-based ``seq`` of the first logged event that differs.
        kind: that logged event's kind (``discard``, ``draw`` …).
        field: what differs first: ``"kind"``, ``"seat"``, ``"action"``,
            ``"payload.<key>"`` or ``"public.<key>"`` (e.g. ``"payload.tile"``),
            or ``"count"`` when the replay gives fewer or more events.
        logged: the log's value there, as text (``"9m"``), or ``""`` if absent.
        replayed: the engine's value there, as text, or ``""`` if absent.
    """

    def __init__(
        self, *, seq: int, kind: str, field: str, logged: str, replayed: str
    ) -> None:
        super().__init__(
            f"replay differs from the log at seq {seq} ({kind} {field}: "
            f"log {logged!r}, replay {replayed!r})"
        )
        self.seq = seq
        self.kind = kind
        self.field = field
        self.logged = logged
        self.replayed = replayed
