"""The hand (盘) state machine: two seats, one rule set, seed + event log.

Seats: 0 and 1.  The dealer (``dealer``, 庄, seat wind 东) holds 14 tiles after
the deal, the other seat (西) 13 (seed 000 游戏说明).  The clock is a
parameter: every transition takes ``now``, seconds since the UTC epoch as a
float; deadlines are ``now`` + the rule set's timers.  The engine never reads
wall time and never draws a random number outside the seeded generator.

Flow (the rule set's ``systems`` decide which parts exist):

1. ``hand_started`` (rule set, dealer, SHA-256 commitment of the seed).
2. PRE_DEAL: both seats choose 明牌 (OPEN_HAND, seed 002) and 开始加倍
   (START_DOUBLE, seed 000) with :class:`~.actions.PreDeal`.
3. Deal, 补花 from the wall's end dealer first, 加番牌 (seed 001: a random
   kind) and 财神 (seed 002: the tile turned up from the wall's end; the
   other copies are wild), 任务 (seed 000).
4. DOUBLE: both seats choose 加倍 (DEAL_DOUBLE, seeds 002/004).
5. TURN / CLAIM / ROB until a win or 流局: the wall runs out when a seat
   must draw, or (``full_discard_pool``, youxi) a discard fills a pool and
   the opponent does not win on it.
6. ``hand_ended``: result, settlement, both hands and the seed revealed.

Claim windows leak nothing (issue 6, "the claim window must not leak
information"): every discard opens a CLAIM window for the opponent
(``prompt``), and every 加杠 a ROB window, whether or not the opponent has a
real choice.  When it has none (:meth:`Hand._claim_options` empty; for ROB,
no 抢杠胡), the engine answers at once with the opponent's ``pass`` (payload
``{"auto": true}`` for that seat only; the discarder gets ``{}``, exactly
what a seat's own pass shows) and play goes on as before.  So the events the
discarder sees — kinds, seats, payloads and therefore every ``seq`` — are the
same whether a claim was possible and passed, or impossible; the remaining
difference is timing (a person takes a moment to pass), which the table
layer hides with the veil (games.services.veil; with ``turn_from_discard``
the opponent's turn deadline counts from the discard in both cases).  For
the same reason ``win_declined`` is emitted only when a 胡加倍 is counted
(rule sets with System.WIN_DOUBLE, below the cap): there the count is public by rule;
elsewhere letting a win go leaves no trace in the log.  Only the record,
after the end, shows which passes were automatic.

A seat that declared 报听 is locked: its only move is to discard the drawn
tile (:meth:`~.options.HandRules.locked_discard`) unless it can win, in
which case it is asked (win, or discard the drawn tile, which counts as
declining the win — 胡加倍 where the rule set has it) or may kong without
changing its waits (seed 000: 报听后可手动选择是否杠).  By default the
engine makes that forced discard itself, within the same :meth:`Hand.apply`
(payload ``{"auto": true}``), so two locked seats play the rest of the hand
out in one call.  With ``prompt_locked`` (:meth:`Hand.new`; recorded in the
``hand_started`` payload so :meth:`Hand.replay` rebuilds the same hand) the
locked seat gets an ordinary TURN prompt instead, with that discard as its
only move besides 托管, and a timeout makes it; the live table uses this to
pace locked play round by round (games.services.auto).  Known
simplification: a 暗杠 cannot be robbed.

Round wind (seed 000 圈风 "第一圈是东风圈、第二圈是南风圈…"): see
:func:`next_deal`.

Where the parts live: :mod:`.log` (the log and prompts), :mod:`.dealing`
(wall draws, the deal, 加番牌/财神/任务, :func:`next_deal`), :mod:`.turns`
(a seat's own moves), :mod:`.claims` (CLAIM and ROB windows,
:func:`resolve_claims`), :mod:`.ending` (win, draw, settlement) and
:mod:`.options` (what a seat may do, read-only); :class:`Hand` here builds,
replays and applies.  The names above stay importable from this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules.rulesets import get as get_ruleset
from ..rules.rulesets.base import RuleSet, System
from ..rules.situation import EAST
from ..rules.tiles import Tile
from .actions import (
    JSON,
    Action,
    AddedKong,
    AutoPlay,
    Chi,
    ConcealedKong,
    Discard,
    Double,
    Kong,
    Pass,
    PreDeal,
    Pung,
    Ready,
    Swap,
    Timeout,
    Win,
    action_from_json,
)
from .claims import CLAIM_PRIORITY, HandClaims, resolve_claims
from .dealing import TASK_FANS, next_deal
from .errors import (
    AheadActionError,
    HandOverError,
    InvalidActionError,
    OutOfTurnError,
    StaleActionError,
)
from .events import Event, check_same_log
from .state import HandState, Phase
from .view import render_view
from .wall import CURRENT_SHUFFLE, SHUFFLE_MT, build_wall, commitment, new_seed

DEFAULT_BALANCE = 1000

__all__ = [
    "CLAIM_PRIORITY",
    "DEFAULT_BALANCE",
    "TASK_FANS",
    "Hand",
    "next_deal",
    "resolve_claims",
]


class Hand(HandClaims):
    """One hand between two seats.  Build with :meth:`new` or :meth:`replay`.

    Reading: :attr:`state`, :attr:`events`, :meth:`legal_actions`,
    :meth:`view`, :meth:`events_for`.  Writing: :meth:`apply` only.
    """

    # ------------------------------------------------------------------ build
    @classmethod
    def new(
        cls,
        ruleset: RuleSet | str,
        *,
        now: float,
        seed: str | None = None,
        dealer: int = 0,
        round_wind: Tile = EAST,
        stake: int = 1,
        balances: tuple[int, int] = (DEFAULT_BALANCE, DEFAULT_BALANCE),
        wall: Sequence[int] | None = None,
        prompt_locked: bool = False,
        shuffle: int = CURRENT_SHUFFLE,
        turn_from_discard: bool = False,
    ) -> Hand:
        """Start a hand; returns it with its first events in :attr:`events`.

        Args:
            ruleset: a rule set or its name (games.rules.rulesets.NAMES).
            now: clock, seconds since the UTC epoch.
            seed: the wall seed; ``None`` draws one from :mod:`secrets`.
            dealer: the seat that deals (东).
            round_wind: 圈风, ``1z``–``4z``.
            stake: 房间基数 (coins per fan).
            balances: both seats' 游戏币, for the settlement cap.
            wall: a stacked wall (:func:`~.wall.stacked_wall`) for tests and
                puzzles instead of the seed's shuffle; replaying such a hand
                needs the same ``wall``.
            prompt_locked: a locked (报听) seat whose only move is to
                discard its drawn tile is prompted for it (TURN, with the
                discard timer) instead of the engine discarding at once;
                logged as ``"prompt_locked": true`` in ``hand_started``
                (the key is absent when off, as in older logs).
            shuffle: the wall's shuffle version (games.engine.wall; logged
                as ``"shuffle"`` in ``hand_started``; older logs without the
                key used version 1).
            turn_from_discard: the deadline of the turn that follows a
                claim window counts from the discard that opened it (seed
                000: 15 s from the opponent's discard, 吃/碰 included), after
                a 加杠 from the end of its ROB window — not from the moment
                the window was answered; logged as ``"turn_from_discard":
                true`` in ``hand_started`` (absent when off: older logs,
                whose turns counted from the answer, replay unchanged).

        Raises:
            InvalidActionError: bad dealer, wind, stake or balances.
            KeyError: unknown rule set name.
            ValueError: unknown shuffle version.
        """
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if dealer not in (0, 1):
            raise InvalidActionError("dealer must be 0 or 1")
        if not round_wind.is_wind:
            raise InvalidActionError("round wind must be 1z–4z")
        if stake < 1 or min(balances) < 0:
            raise InvalidActionError("stake must be ≥ 1 and balances ≥ 0")
        seed = seed if seed is not None else new_seed()
        shuffled, rng = build_wall(rs, seed, shuffle)
        if wall is not None:
            if sorted(wall) != sorted(shuffled):
                raise InvalidActionError(
                    "a stacked wall must hold the rule set's tiles"
                )
            shuffled = list(wall)
        state = HandState(
            ruleset=rs.name,
            seed=seed,
            commitment=commitment(seed, shuffle),
            dealer=dealer,
            round_wind=round_wind.index,
            stake=stake,
            balances=(int(balances[0]), int(balances[1])),
            wall=shuffled,
            tail=len(shuffled),
        )
        hand = cls(rs, state, rng)
        hand._now = float(now)
        hand.prompt_locked = bool(prompt_locked)
        hand.turn_from_discard = bool(turn_from_discard)
        hand.shuffle = shuffle
        started: dict[str, JSON] = {
            "ruleset": rs.name,
            "dealer": dealer,
            "round_wind": str(round_wind),
            "seat_winds": [str(hand.seat_wind(0)), str(hand.seat_wind(1))],
            "commitment": state.commitment,
            "stake": stake,
            "balances": list(state.balances),
            "wall_size": len(shuffled),
            "systems": sorted(s.value for s in rs.systems),
        }
        if shuffle != SHUFFLE_MT:  # absent for version 1, as in older logs
            started["shuffle"] = shuffle
        if hand.prompt_locked:  # absent when off: older logs replay unchanged
            started["prompt_locked"] = True
        if hand.turn_from_discard:  # likewise
            started["turn_from_discard"] = True
        hand._emit("hand_started", None, started)
        if System.OPEN_HAND in rs.systems or System.START_DOUBLE in rs.systems:
            hand._prompt(Phase.PRE_DEAL, (0, 1))
        else:
            hand._deal()
            hand._run_auto_discards()
        return hand

    @classmethod
    def replay(
        cls,
        seed: str,
        events: Sequence[Event],
        *,
        on_step: Callable[[Hand, int], None] | None = None,
        wall: Sequence[int] | None = None,
    ) -> Hand:
        """Rebuild a hand from its seed and event log (or a prefix of it).

        The first event gives the rule set, table and options (``prompt_locked``
        and ``turn_from_discard`` when present, off otherwise; ``shuffle``,
        version 1 when absent);
        every event carrying an
        ``action`` is re-applied with its ``at`` as the clock.  ``on_step``
        is called after each action with the hand and the event index.

        Raises:
            ValueError: the log does not start with ``hand_started``, or the
                replayed events differ from the given ones (a wrong seed or
                a tampered log).
        """
        if not events or events[0].kind != "hand_started":
            raise ValueError("a hand log starts with hand_started")
        first = events[0].payload
        hand = cls.new(
            str(first["ruleset"]),
            now=events[0].at,
            seed=seed,
            dealer=int(first["dealer"]),
            round_wind=Tile.parse(str(first["round_wind"])),
            stake=int(first["stake"]),
            balances=(int(first["balances"][0]), int(first["balances"][1])),
            wall=wall,
            prompt_locked=bool(first.get("prompt_locked", False)),
            shuffle=int(first.get("shuffle", SHUFFLE_MT)),
            turn_from_discard=bool(first.get("turn_from_discard", False)),
        )
        if hand.state.commitment != first["commitment"]:
            raise ValueError("the seed does not match the log's commitment")
        for i, ev in enumerate(events):
            if ev.action is not None:
                hand.apply(action_from_json(ev.action), now=ev.at)
                if on_step is not None:
                    on_step(hand, i)
        n = min(len(events), len(hand.events))
        check_same_log(hand.events[:n], events[:n])
        return hand

    # ---------------------------------------------------------------- writing
    def apply(self, action: Action, now: float) -> list[Event]:
        """Apply one action and return the events it caused.

        Raises:
            InvalidActionError: not an Action; AheadActionError (a
                subclass): a seq ahead of the hand.
            StaleActionError: ``seq`` older than the seat's open prompt or
                its own last action (a double submit).
            OutOfTurnError: the seat is not asked to act.
            IllegalActionError: the rules forbid it now (also a timeout
                before the deadline).
            HandOverError: the hand has ended.
        In every error case the hand is unchanged.
        """
        if not isinstance(action, Action):
            raise InvalidActionError("not an action")
        s = self.state
        if s.phase is Phase.ENDED:
            raise HandOverError("the hand is over")
        if action.seq > s.seq:
            raise AheadActionError(
                f"seq {action.seq} is ahead of the hand (last event {s.seq})"
            )
        seat = action.seat
        floor = s.last_acted[seat]
        prompted = not isinstance(action, AutoPlay | Ready) or (
            isinstance(action, Ready) and action.tile is not None
        )
        if prompted:
            floor = max(floor, s.asked_at[seat])
        if action.seq < floor:
            raise StaleActionError(
                f"seq {action.seq} is stale: seat {seat} must answer seq ≥ {floor}"
            )
        if prompted and not s.pending[seat]:
            raise OutOfTurnError(f"seat {seat} is not asked to act now")
        start = len(self.events)
        self._now = float(now)
        s.short_win[seat] = []  # explained until the seat's next action
        self._legal_memo.clear()
        self._handle(action)
        self._run_auto_discards()
        s.last_acted[seat] = s.seq
        return self.events[start:]

    def _handle(self, action: Action) -> None:
        """Apply ``action`` with its type's ``_do_*`` method.

        The method is looked up by name (:data:`_HANDLER_NAMES`) when asked,
        not kept bound on the hand: a hand holding its own bound methods is
        a reference cycle, so every finished hand would wait for the
        garbage collector (filling its older generations) instead of going
        with its last reference.
        """
        getattr(self, _HANDLER_NAMES[type(action)])(action)

    # ------------------------------------------------------------------ view
    def view(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see (see :func:`games.engine.view.render_view`)."""
        return render_view(self, seat)


_HANDLER_NAMES: dict[type[Action], str] = {
    PreDeal: "_do_pre_deal",
    Double: "_do_double",
    Discard: "_do_discard",
    Win: "_do_win",
    Pass: "_do_pass",
    Chi: "_do_chi",
    Pung: "_do_pung",
    Kong: "_do_kong",
    ConcealedKong: "_do_concealed_kong",
    AddedKong: "_do_added_kong",
    Ready: "_do_ready",
    Swap: "_do_swap",
    Timeout: "_do_timeout",
    AutoPlay: "_do_auto_play",
}
"""The :class:`Hand` method that applies each action type."""
