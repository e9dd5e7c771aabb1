"""Walk a finished hand's log decision by decision (replay, review).

:func:`walk` rebuilds a hand from its seed and event log, as
:meth:`~games.engine.hand.Hand.replay` does, but stops before every logged
action and shows the hand as it was when the seat chose: its view, its
legal actions, when it was asked.  The replay page uses it for "the claim
choices each seat had and what it chose" and the time each decision took;
the review (:mod:`games.engine.review`) feeds each position to a bot.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .actions import Action, action_from_json
from .events import Event, check_same_log
from .hand import Hand


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One logged action and the hand just before it.

    Attributes:
        index: position in the event list of the event that carries the
            action (its first event).
        event: that event.
        action: the action, parsed.
        hand: the hand *before* the action.  It is the walker's live object:
            read what you need before asking for the next point.
        asked_at: the clock (seconds) of the prompt the action answers, or
            ``None`` when the seat was not prompted (托管 toggle, 报听
            without a discard).
    """

    index: int
    event: Event
    action: Action
    hand: Hand
    asked_at: float | None

    @property
    def seat(self) -> int:
        return self.action.seat

    @property
    def seconds(self) -> float | None:
        """How long the seat took to answer its prompt (seconds), if prompted."""
        if self.asked_at is None:
            return None
        return max(0.0, self.event.at - self.asked_at)


def walk(
    seed: str, events: Sequence[Event], *, wall: Sequence[int] | None = None
) -> Iterator[DecisionPoint]:
    """Yield a :class:`DecisionPoint` before each logged action, in order.

    ``wall`` is the stacked wall of a test hand (as :meth:`Hand.replay`).
    After the last point the rebuilt log is compared with ``events``.

    Raises:
        ValueError: the log does not start with ``hand_started``, the seed
            does not match the commitment, an action is refused, or the
            replayed events differ from the given ones (a wrong seed or a
            tampered log: :class:`~.errors.LogMismatchError`, which says
            where).  Raised while iterating.
    """
    if not events:
        raise ValueError("a hand log starts with hand_started")
    hand = Hand.replay(seed, events[:1], wall=wall)
    for i, ev in enumerate(events):
        if ev.action is None or i == 0:
            continue
        action = action_from_json(ev.action)
        asked = hand.state.asked_at[action.seat] if 0 <= action.seat <= 1 else 0
        prompted = hand.state.pending[action.seat] and 0 < asked <= len(events)
        yield DecisionPoint(
            index=i,
            event=ev,
            action=action,
            hand=hand,
            asked_at=events[asked - 1].at if prompted else None,
        )
        hand.apply(action, now=ev.at)
    check_same_log(hand.events, events)
