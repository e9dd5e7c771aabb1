"""The hand's log and prompts: events with their visibility, who is asked.

:class:`HandLog` holds a hand's mutable parts (state, events, settlement) and
appends to the log; the transitions in :mod:`.dealing`, :mod:`.turns`,
:mod:`.claims` and :mod:`.ending` build on it, and :class:`~.hand.Hand` puts
them together.  See :mod:`games.engine.hand` for the flow of a hand.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence

from ..rules.melds import Meld
from ..rules.rulesets.base import RuleSet
from ..rules.situation import WinSituation
from ..rules.tiles import ALL_TILES
from . import analysis
from .actions import (
    JSON,
    Action,
)
from .errors import IllegalActionError
from .events import Event, new_event, seat_set
from .options import HandRules
from .settle import Settlement
from .state import HandState, Phase


def tile_str(index: int) -> str:
    """The text of tile ``index`` (``"5m"``)."""
    return str(ALL_TILES[index])


_t = tile_str

_PHASE_TEXT: dict[Phase, str] = {p: p.value for p in Phase}
"""A phase's text for a prompt's payload (a dict look-up: an enum member's
``value`` is a descriptor call, and every move makes two prompts)."""


class _Scored:
    """The score of a completed hand, by (counts, melds, situation): the same
    position is scored for the table's "short of the minimum" note (on the
    draw or discard) and again for the win option and the timeout default.
    Bound: 32 positions (a hand asks about a few at a time).  Holds the rule
    set, not the hand: no cycle.  The cache is made at the first score, not
    with the hand: most hands loaded for one move or frame score nothing, and
    making an ``lru_cache`` costs about 6 µs (issue 15)."""

    __slots__ = ("_ruleset", "_cached")

    def __init__(self, ruleset: RuleSet) -> None:
        self._ruleset = ruleset
        self._cached: (
            Callable[
                [tuple[int, ...], tuple[Meld, ...], WinSituation], analysis.ScoreLike
            ]
            | None
        ) = None

    def __call__(
        self, counts: tuple[int, ...], melds: tuple[Meld, ...], situation: WinSituation
    ) -> analysis.ScoreLike:
        cached = self._cached
        if cached is None:
            cached = self._cached = functools.lru_cache(maxsize=32)(
                functools.partial(analysis.score_frozen, self._ruleset)
            )
        return cached(counts, melds, situation)


class HandLog(HandRules):
    """A hand's state, its event log and its prompts (no transition logic)."""

    def __init__(self, ruleset: RuleSet, state: HandState, rng: random.Random) -> None:
        self.ruleset = ruleset
        self.state = state
        self.events: list[Event] = []
        # the seq before ``events[0]``: 0 for a hand that holds its whole log;
        # a hand loaded from its snapshot holds its recent events only
        # (games.engine.snapshot.recent_events)
        self.log_from = 0
        self.settlement: Settlement | None = None
        self._rng = rng
        self._now = 0.0
        self._action: dict[str, JSON] | None = None
        self._nested = False  # a timeout applying its default move
        self._auto_discards: list[int] = []  # locked seats to discard for
        self.prompt_locked = False  # 报听's forced discard is prompted (new())
        self.turn_from_discard = False  # the turn's clock starts at the discard
        self.shuffle = 1  # the wall's shuffle version (games.engine.wall; new())
        self._clock_from: float | None = None  # see _prompt
        self._shanten_memo: dict[tuple[int, ...], int] = {}  # see HandRules
        self._complete_memo: dict[tuple[int, ...], bool] = {}  # see HandRules
        self._legal_memo: dict[tuple[object, ...], list[Action]] = {}
        self._win_memo: dict[
            tuple[int, int, bool, bool], analysis.ScoreLike | None
        ] = {}  # see HandRules._win_result
        self._scored = _Scored(ruleset)

    # ---------------------------------------------------------------- reading
    @property
    def seq(self) -> int:
        """Sequence number of the last event."""
        return self.state.seq

    @property
    def ended(self) -> bool:
        return self.state.phase is Phase.ENDED

    def events_for(self, seat: int | None, after: int = 0) -> list[dict[str, JSON]]:
        """Events after ``after`` as ``seat`` may see them (reconnection stream).

        Raises:
            LookupError: see :meth:`events_after`.
        """
        return [e.for_seat(seat) for e in self.events_after(after)]

    def events_after(self, seq: int) -> list[Event]:
        """The events whose seq is larger than ``seq``, in order.

        Raises:
            LookupError: the hand does not hold them all (loaded from a
                snapshot, it holds its log from the event before its last
                discard: games.engine.snapshot.recent_events).
        """
        if seq < self.log_from:
            raise LookupError(f"events after {seq}: held from {self.log_from + 1}")
        return self.events[seq - self.log_from :]

    def event_at(self, seq: int) -> Event | None:
        """The event numbered ``seq``, or None when the hand does not hold it."""
        i = seq - self.log_from - 1
        return self.events[i] if 0 <= i < len(self.events) else None

    def _emit(
        self,
        kind: str,
        seat: int | None,
        payload: dict[str, JSON],
        public: dict[str, JSON] | None = None,
        visible_to: frozenset[int] | None = None,
    ) -> Event:
        s = self.state
        s.seq += 1
        if kind != "prompt":
            # the state may have changed: forget its win questions (a prompt
            # changes only who is asked, phase and deadline, which no win
            # question reads, so the note made just before it stays good)
            self._win_memo.clear()
        if visible_to is None:
            visible_to = seat_set((0, 1) if public is None else (seat or 0,))
        else:
            visible_to = seat_set(visible_to)  # shared: fewer objects to collect
        ev = new_event(
            s.seq, kind, seat, payload, public, visible_to, self._now, self._action
        )
        self._action = None
        self.events.append(ev)
        return ev

    def _private(
        self, kind: str, seat: int, payload: dict[str, JSON], public: dict[str, JSON]
    ) -> None:
        """Emit an event whose payload only ``seat`` sees (unless 明牌)."""
        if self.state.open_hand[seat]:
            self._emit(kind, seat, payload)
        else:
            self._emit(kind, seat, payload, public, frozenset({seat}))

    def _prompt(self, phase: Phase, seats: Sequence[int]) -> None:
        s = self.state
        s.phase = phase
        s.pending = [0 in seats, 1 in seats]
        timers = self.ruleset.timers
        # an if-chain, not a dict of the five built per prompt (two a move)
        if phase is Phase.TURN:
            seconds = timers.discard
        elif phase is Phase.CLAIM or phase is Phase.ROB:
            seconds = timers.claim
        elif phase is Phase.PRE_DEAL or phase is Phase.DOUBLE:
            seconds = timers.pre_deal
        else:
            raise KeyError(phase)  # no prompt in phase ENDED
        if phase is Phase.TURN and self._clock_from is not None:
            # ``turn_from_discard`` (Hand.new): seed 000 "每次从上家打出牌後，
            # 到自己出牌的时限为15秒(包括吃牌、碰牌、补花)" — the turn after a
            # claim window counts from the discard that opened it (after a
            # 加杠, from the end of its ROB window), whether the window was
            # answered at once or after a while, so the deadline tells the
            # discarder nothing about it (issue 11 §5.2).
            s.deadline = max(self._clock_from + seconds, self._now + 1.0)
            self._clock_from = None
        else:
            s.deadline = self._now + seconds
        if len(seats) == 1:
            s.turn = seats[0]
        self._emit(
            "prompt",
            None,
            {"phase": _PHASE_TEXT[phase], "seats": list(seats), "deadline": s.deadline},
        )
        for seat in seats:
            s.asked_at[seat] = s.seq

    def _begin(self, action: Action) -> None:
        """Mark ``action`` as the cause of the next event (validation passed)."""
        if not self._nested:
            self._action = action.to_json()

    def _require(self, phase: Phase, action: Action) -> None:
        if self.state.phase is not phase:
            raise IllegalActionError(
                f"{action.kind} is not possible in phase {self.state.phase.value}"
            )
