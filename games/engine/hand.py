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
layer hides with the veil (games.services.play).  For the same reason
``win_declined`` is emitted only when a 胡加倍 is counted (rule sets with
System.WIN_DOUBLE, below the cap): there the count is public by rule;
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
pace locked play round by round (games.services.play).  Known
simplification: a 暗杠 cannot be robbed.

Round wind (seed 000 圈风 "第一圈是东风圈、第二圈是南风圈…"): see
:func:`next_deal`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..rules.melds import Meld, MeldKind
from ..rules.rulesets import get as get_ruleset
from ..rules.rulesets.base import Claim, RuleSet, System
from ..rules.situation import EAST
from ..rules.tiles import ALL_TILES, NUM_KINDS, Tile
from . import analysis, first_turn
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
from .errors import (
    AheadActionError,
    HandOverError,
    IllegalActionError,
    InvalidActionError,
    OutOfTurnError,
    StaleActionError,
)
from .events import Event, seat_set
from .options import HandRules
from .settle import Outcome, Settlement, settle
from .state import HandState, Phase, Task
from .view import render_view
from .wall import CURRENT_SHUFFLE, SHUFFLE_MT, build_wall, commitment, new_seed

DEFAULT_BALANCE = 1000

CLAIM_PRIORITY: dict[Claim, int] = {
    Claim.WIN: 3,
    Claim.KONG: 2,
    Claim.PUNG: 2,
    Claim.CHI: 1,
}
"""和 > 杠/碰 > 吃 (issue 4).  With two seats only one seat can claim a
discard, so the order decides nothing today; it is kept explicit for
:func:`resolve_claims`."""

TASK_FANS = (
    "ALL_PUNGS",
    "HALF_FLUSH",
    "FULL_FLUSH",
    "ALL_SIMPLES",
    "SEVEN_PAIRS",
    "PURE_STRAIGHT",
    "CONCEALED_HAND",
    "FULLY_CONCEALED_HAND",
    "DRAGON_PUNG",
)
"""Fans a 番型任务 may ask for (those the rule set has)."""


def resolve_claims(claims: dict[int, Claim]) -> int | None:
    """Return the seat whose claim wins by :data:`CLAIM_PRIORITY`, or ``None``.

    Ties cannot happen with two seats (only the discarder's opponent claims).
    """
    if not claims:
        return None
    return max(claims, key=lambda s: CLAIM_PRIORITY[claims[s]])


def next_deal(
    *,
    dealer: int,
    round_wind: Tile,
    winner: int | None,
    round_starter: int,
    rotation: str = "winner",
) -> tuple[int, Tile]:
    """Return ``(dealer, round_wind)`` of the next hand.

    ``rotation="winner"`` (issue 4; seed 000 优嘻网: 谁和牌下盘当庄家，若流局则
    上盘的庄家下盘继续当庄家): the winner deals, after a draw the dealer keeps
    the deal.  ``rotation="alternate"`` (seed 000 二人麻将 术语 五: 无论是否和
    牌，庄家不连庄, the reading games/rules/RULES.md takes for ``erren``): the
    deal passes every hand.  The rule sets do not carry this choice yet, so
    the caller passes it.

    The round wind (圈风) advances 东→南→西→北→东 when the deal comes back to
    the seat that dealt first in the round (``round_starter``), i.e. after
    both seats have dealt — the two-player reading of "四人各坐一次庄为一圈"
    (seed 000 圈风刻: "第一圈是东风圈、第二圈是南风圈…").

    Raises:
        ValueError: unknown ``rotation``.
    """
    if rotation == "alternate":
        new = 1 - dealer
    elif rotation == "winner":
        new = dealer if winner is None else winner
    else:
        raise ValueError(f"rotation must be 'winner' or 'alternate', got {rotation!r}")
    if new == dealer:
        return dealer, round_wind
    if new == round_starter:
        return new, ALL_TILES[27 + (round_wind.index - 27 + 1) % 4]
    return new, round_wind


def _t(index: int) -> str:
    return str(ALL_TILES[index])


class Hand(HandRules):
    """One hand between two seats.  Build with :meth:`new` or :meth:`replay`.

    Reading: :attr:`state`, :attr:`events`, :meth:`legal_actions`,
    :meth:`view`, :meth:`events_for`.  Writing: :meth:`apply` only.
    """

    def __init__(self, ruleset: RuleSet, state: HandState, rng: random.Random) -> None:
        self.ruleset = ruleset
        self.state = state
        self.events: list[Event] = []
        self.settlement: Settlement | None = None
        self._rng = rng
        self._now = 0.0
        self._action: dict[str, JSON] | None = None
        self._nested = False  # a timeout applying its default move
        self._auto_discards: list[int] = []  # locked seats to discard for
        self.prompt_locked = False  # 报听's forced discard is prompted (new())
        self._shanten_memo: dict[tuple[int, ...], int] = {}  # see HandRules
        self._legal_memo: dict[tuple[object, ...], list[Action]] = {}
        self._handler_map: dict[type[Action], Callable[[Any], None]] | None = None

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
        when present, off otherwise; ``shuffle``, version 1 when absent);
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
        )
        if hand.state.commitment != first["commitment"]:
            raise ValueError("the seed does not match the log's commitment")
        for i, ev in enumerate(events):
            if ev.action is not None:
                hand.apply(action_from_json(ev.action), now=ev.at)
                if on_step is not None:
                    on_step(hand, i)
        n = min(len(events), len(hand.events))
        for mine, theirs in zip(hand.events[:n], events[:n], strict=True):
            if mine != theirs:
                raise ValueError(f"replay differs from the log at seq {theirs.seq}")
        return hand

    # ---------------------------------------------------------------- reading
    @property
    def seq(self) -> int:
        """Sequence number of the last event."""
        return self.state.seq

    @property
    def ended(self) -> bool:
        return self.state.phase is Phase.ENDED

    def events_for(self, seat: int | None, after: int = 0) -> list[dict[str, JSON]]:
        """Events after ``after`` as ``seat`` may see them (reconnection stream)."""
        return [e.for_seat(seat) for e in self.events[after:]]

    # ------------------------------------------------------------ the log
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
        if visible_to is None:
            visible_to = seat_set((0, 1) if public is None else (seat or 0,))
        else:
            visible_to = seat_set(visible_to)  # shared: fewer objects to collect
        ev = Event(
            seq=s.seq,
            kind=kind,
            seat=seat,
            payload=payload,
            public=public,
            visible_to=visible_to,
            at=self._now,
            action=self._action,
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
        s.pending = [seat in seats for seat in (0, 1)]
        timers = self.ruleset.timers
        seconds = {
            Phase.PRE_DEAL: timers.pre_deal,
            Phase.DOUBLE: timers.pre_deal,
            Phase.TURN: timers.discard,
            Phase.CLAIM: timers.claim,
            Phase.ROB: timers.claim,
        }[phase]
        s.deadline = self._now + seconds
        if len(seats) == 1:
            s.turn = seats[0]
        self._emit(
            "prompt",
            None,
            {"phase": phase.value, "seats": list(seats), "deadline": s.deadline},
        )
        for seat in seats:
            s.asked_at[seat] = s.seq

    # --------------------------------------------------------------- dealing
    def _take(self, *, from_end: bool) -> int | None:
        s = self.state
        if s.head >= s.tail:
            return None
        if from_end:
            s.tail -= 1
            return s.wall[s.tail]
        s.head += 1
        return s.wall[s.head - 1]

    def _draw(self, seat: int, *, from_end: bool, kind: str = "draw") -> int | None:
        """Draw one playing tile for ``seat``, setting flowers aside (补花).

        Returns ``None`` when the wall runs out (the caller ends the hand).
        """
        s = self.state
        tile = self._take(from_end=from_end)
        while tile is not None and tile >= NUM_KINDS:
            self._emit(
                "draw",
                seat,
                {"tile": _t(tile), "replacement": from_end, "wall": s.wall_count},
                {"replacement": from_end, "wall": s.wall_count},
                frozenset({seat}),
            )
            s.flowers[seat].append(tile)
            self._emit("flower", seat, {"flower": _t(tile)})
            from_end = True
            tile = self._take(from_end=True)
        if tile is None:
            return None
        s.concealed[seat][tile] += 1
        s.drawn[seat] = tile
        self._private(
            kind,
            seat,
            {"tile": _t(tile), "replacement": from_end, "wall": s.wall_count},
            {"replacement": from_end, "wall": s.wall_count},
        )
        return tile

    def _deal(self) -> None:
        s = self.state
        rs = self.ruleset
        order = (s.dealer, 1 - s.dealer)
        dealt: list[list[int]] = [[], []]
        for _ in range(3):
            for seat in order:
                for _ in range(4):
                    dealt[seat].append(s.wall[s.head])
                    s.head += 1
        for seat in (*order, s.dealer):
            dealt[seat].append(s.wall[s.head])
            s.head += 1
        for seat in order:
            tiles = dealt[seat]
            self._private(
                "deal",
                seat,
                {"tiles": [_t(t) for t in sorted(tiles)]},
                {"count": len(tiles)},
            )
            for t in tiles:
                if t >= NUM_KINDS:
                    s.flowers[seat].append(t)
                else:
                    s.concealed[seat][t] += 1
        s.drawn[s.dealer] = dealt[s.dealer][-1]
        for seat in order:  # 补花, dealer first
            for f in [t for t in dealt[seat] if t >= NUM_KINDS]:
                self._emit("flower", seat, {"flower": _t(f)})
                if seat == s.dealer and s.drawn[seat] == f:
                    s.drawn[seat] = None
                got = self._draw(seat, from_end=True, kind="draw")
                if got is None:  # pragma: no cover - a wall this small has no rule set
                    self._end_draw("wall_exhausted")
                    return
                if seat != s.dealer:
                    s.drawn[seat] = None
        d = s.drawn[s.dealer]
        if d is None or s.concealed[s.dealer][d] == 0:
            s.drawn[s.dealer] = max(
                i for i in range(NUM_KINDS) if s.concealed[s.dealer][i]
            )
        if System.BONUS_TILE in rs.systems:
            s.bonus_tile = self._rng.choice(rs.kinds).index
            self._emit("indicator", None, {"bonus_tile": _t(s.bonus_tile)})
        if System.WILD in rs.systems:
            i = s.tail - 1
            while s.wall[i] >= NUM_KINDS:
                i -= 1
            # move it to the last live position; it then sits just past ``tail``
            s.wall[i], s.wall[s.tail - 1] = s.wall[s.tail - 1], s.wall[i]
            s.tail -= 1
            tile = s.wall[s.tail]
            s.wild_indicator = tile
            s.wild = tile
            self._emit(
                "indicator", None, {"wild": _t(tile), "wild_indicator": _t(tile)}
            )
        if System.TASK_DOUBLE in rs.systems:
            s.task = self._pick_task()
            self._emit("task", None, s.task.to_json())
        if System.DEAL_DOUBLE in rs.systems:
            self._prompt(Phase.DOUBLE, (0, 1))
        else:
            self._start_turn(s.dealer, self_draw=True)

    def _pick_task(self) -> Task:
        rs = self.ruleset
        factor = int(rs.multipliers.get("task_double", 2))
        kinds = ["pung", "kong", "fan"]
        if System.START_DOUBLE in rs.systems or System.DEAL_DOUBLE in rs.systems:
            kinds.append("double")
        kind = self._rng.choice(kinds)
        if kind == "pung":
            return Task("pung", tile=self._rng.choice(rs.kinds).index, factor=factor)
        if kind == "fan":
            ids = {f.id for f in rs.fans}
            fans = [f for f in TASK_FANS if f in ids] or sorted(ids)[:1]
            if fans:
                return Task("fan", fan=self._rng.choice(fans), factor=factor)
            return Task("kong", factor=factor)
        return Task(kind, factor=factor)

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
        handler = self._handlers()[type(action)]
        handler(action)
        self._run_auto_discards()
        s.last_acted[seat] = s.seq
        return self.events[start:]

    def _handlers(self) -> dict[type[Action], Callable[[Any], None]]:
        got = self._handler_map
        if got is None:
            got = self._handler_map = self._make_handlers()
        return got

    def _make_handlers(self) -> dict[type[Action], Callable[[Any], None]]:
        return {
            PreDeal: self._do_pre_deal,
            Double: self._do_double,
            Discard: self._do_discard,
            Win: self._do_win,
            Pass: self._do_pass,
            Chi: self._do_chi,
            Pung: self._do_pung,
            Kong: self._do_kong,
            ConcealedKong: self._do_concealed_kong,
            AddedKong: self._do_added_kong,
            Ready: self._do_ready,
            Swap: self._do_swap,
            Timeout: self._do_timeout,
            AutoPlay: self._do_auto_play,
        }

    def _begin(self, action: Action) -> None:
        """Mark ``action`` as the cause of the next event (validation passed)."""
        if not self._nested:
            self._action = action.to_json()

    def _require(self, phase: Phase, action: Action) -> None:
        if self.state.phase is not phase:
            raise IllegalActionError(
                f"{action.kind} is not possible in phase {self.state.phase.value}"
            )

    # -- pre-deal and double
    def _do_pre_deal(self, a: PreDeal) -> None:
        self._require(Phase.PRE_DEAL, a)
        rs = self.ruleset
        if a.open_hand and System.OPEN_HAND not in rs.systems:
            raise IllegalActionError(f"{rs.name} has no 明牌")
        if a.double and System.START_DOUBLE not in rs.systems:
            raise IllegalActionError(f"{rs.name} has no 开始加倍")
        s = self.state
        self._begin(a)
        s.open_hand[a.seat] = a.open_hand
        s.start_double[a.seat] = a.double
        s.pending[a.seat] = False
        self._emit(
            "pre_deal_choice",
            a.seat,
            {"open_hand": a.open_hand, "double": a.double},
        )
        if not any(s.pending):
            self._deal()

    def _do_double(self, a: Double) -> None:
        self._require(Phase.DOUBLE, a)
        s = self.state
        self._begin(a)
        s.deal_double[a.seat] = a.double
        s.pending[a.seat] = False
        self._emit("double_choice", a.seat, {"double": a.double})
        if not any(s.pending):
            self._start_turn(s.dealer, self_draw=True)

    # -- turn
    def _start_turn(
        self, seat: int, *, self_draw: bool, after_kong: bool = False
    ) -> None:
        s = self.state
        s.self_draw = self_draw
        s.after_kong = after_kong
        s.turn = seat
        s.phase = Phase.TURN
        s.last_discard = None
        drawn = s.drawn[seat]
        if self_draw and drawn is not None:
            self._note_short(seat, drawn, self_drawn=True)
        if not self.prompt_locked and self.locked_discard(seat) is not None:
            # locked, no win and no kong: the only move is the drawn tile.
            # Queued, not called: two locked seats would otherwise recurse
            # once per draw until the wall ends.  (With prompt_locked the
            # seat is prompted for it like any turn.)
            self._auto_discards.append(seat)
            return
        self._prompt(Phase.TURN, (seat,))

    def _run_auto_discards(self) -> None:
        """Discard the drawn tile for locked seats, one after another (报听).

        Only without ``prompt_locked``; with it nothing is ever queued.
        """
        while self._auto_discards:
            seat = self._auto_discards.pop(0)
            tile = self.state.drawn[seat]
            assert tile is not None
            self._discard(seat, tile, auto=True)

    def _draw_and_turn(self, seat: int) -> None:
        s = self.state
        s.draws[seat] += 1
        if self._draw(seat, from_end=False) is None:
            self._end_draw("wall_exhausted")
            return
        self._start_turn(seat, self_draw=True)

    def _note_declined_win(self, seat: int) -> None:
        """``seat`` let a win go: count a 胡加倍 where the rule set has it.

        The ``win_declined`` event is emitted only when the count rises (a
        public number by rule, shown as the multiplier).  Elsewhere — no
        System.WIN_DOUBLE, or the cap ``max_win_doubles`` reached — nothing
        public changes, and an event would tell the other seat, through the
        sequence numbers, that a win was possible.
        """
        rs = self.ruleset
        s = self.state
        if System.WIN_DOUBLE in rs.systems and s.win_doubles[seat] < rs.max_win_doubles:
            s.win_doubles[seat] += 1
            self._emit("win_declined", seat, {"win_doubles": s.win_doubles[seat]})

    def _check_turn(self, a: Action) -> None:
        self._require(Phase.TURN, a)

    def _check_discardable(self, seat: int, tile: int) -> None:
        s = self.state
        if tile >= NUM_KINDS or s.concealed[seat][tile] == 0:
            raise IllegalActionError(f"seat {seat} holds no {_t(tile)}")
        if s.ready[seat]:
            if tile != s.drawn[seat]:
                raise IllegalActionError("after 报听 only the drawn tile is discarded")
        elif tile == s.wild:
            raise IllegalActionError("财神 cannot be discarded (seed 002)")

    def _do_discard(self, a: Discard) -> None:
        self._check_turn(a)
        self._check_discardable(a.seat, a.tile.index)
        could_win = self._can_tsumo(a.seat)
        self._begin(a)
        if could_win:
            self._note_declined_win(a.seat)
        self._discard(a.seat, a.tile.index, auto=False)

    def _discard(self, seat: int, tile: int, *, auto: bool) -> None:
        s = self.state
        s.concealed[seat][tile] -= 1
        s.drawn[seat] = None
        s.discards[seat].append(tile)
        s.discards_made[seat] += 1
        s.after_kong = False
        s.self_draw = False
        s.pending = [False, False]
        self._emit("discard", seat, {"tile": _t(tile), "auto": auto})
        self._after_discard(seat, tile)

    def _note_short(self, seat: int, tile: int, *, self_drawn: bool) -> None:
        """Remember, for ``seat``'s own view, a tile that completes its hand
        below the minimum (the table says why no 和 is offered)."""
        fan = self.short_of_minimum(seat, tile, self_drawn=self_drawn)
        if fan is not None:
            self.state.short_win[seat].append([tile, fan])

    def _after_discard(self, seat: int, tile: int) -> None:
        s = self.state
        other = 1 - seat
        s.last_discard = tile
        self._note_short(other, tile, self_drawn=False)
        self._prompt(Phase.CLAIM, (other,))
        if not self._claim_options(other, tile):
            self._auto_pass(other)

    def _after_claims(self, discarder: int) -> None:
        """Nobody claimed: 流局 on a full pool, else the opponent draws."""
        s = self.state
        rs = self.ruleset
        s.last_discard = None
        if rs.full_discard_pool is not None and any(
            len(d) >= rs.full_discard_pool for d in s.discards
        ):
            self._end_draw("pool_full")
            return
        self._draw_and_turn(1 - discarder)

    def _do_win(self, a: Win) -> None:
        s = self.state
        seat = a.seat
        if s.phase is Phase.TURN:
            tile = s.drawn[seat]
            score = (
                self._win_score(seat, tile, self_drawn=True)
                if tile is not None and s.self_draw
                else None
            )
            if score is None or tile is None:
                raise IllegalActionError("this hand cannot win now")
            self._begin(a)
            self._end_win(seat, tile, score, self_drawn=True)
        elif s.phase is Phase.CLAIM:
            tile = s.last_discard
            assert tile is not None
            score = self._win_score(seat, tile, self_drawn=False)
            if score is None:
                raise IllegalActionError("this hand cannot win on the discard")
            self._begin(a)
            s.discards[1 - seat].pop()
            s.concealed[seat][tile] += 1
            self._end_win(seat, tile, score, self_drawn=False)
        elif s.phase is Phase.ROB:
            tile = s.rob_tile
            assert tile is not None
            score = self._win_score(seat, tile, self_drawn=False, robbing=True)
            if score is None:  # pragma: no cover - the window opens only on a win
                raise IllegalActionError("this hand cannot rob the kong")
            self._begin(a)
            s.concealed[1 - seat][tile] -= 1
            s.concealed[seat][tile] += 1
            self._end_win(seat, tile, score, self_drawn=False, robbed=True)
        else:
            raise IllegalActionError(f"no win in phase {s.phase.value}")

    def _do_pass(self, a: Pass) -> None:
        s = self.state
        seat = a.seat
        if s.phase is Phase.CLAIM:
            tile = s.last_discard
            assert tile is not None
            could_win = self._win_score(seat, tile, self_drawn=False) is not None
        elif s.phase is Phase.ROB:
            could_win = True  # the window has an option only when the kong is robbable
        else:
            raise IllegalActionError(f"nothing to pass in phase {s.phase.value}")
        self._begin(a)
        self._pass(seat, could_win=could_win)

    def _auto_pass(self, seat: int) -> None:
        """Answer ``seat``'s CLAIM/ROB window for it: it has no option.

        The window was opened all the same (see the module docstring: the
        event sequence must not depend on whether a claim was possible), so
        the ``pass`` here is the same public event a seat's own pass makes.
        """
        self._pass(seat, could_win=False, auto=True)

    def _pass(self, seat: int, *, could_win: bool, auto: bool = False) -> None:
        """Close the CLAIM/ROB window with ``seat``'s pass and play on.

        The ``pass`` event's public form is ``{}`` whether the pass was the
        seat's own or the engine's (``auto``, only in the seat's own payload
        and shown on the record page after the end).
        """
        s = self.state
        if auto:
            self._emit("pass", seat, {"auto": True}, {}, frozenset({seat}))
        else:
            self._emit("pass", seat, {})
        if could_win:
            self._note_declined_win(seat)
        s.pending = [False, False]
        if s.phase is Phase.CLAIM:
            self._after_claims(1 - seat)
            return
        tile = s.rob_tile
        assert tile is not None
        s.rob_tile = None
        self._complete_added_kong(1 - seat, tile)

    def _claim_check(self, a: Action) -> int:
        self._require(Phase.CLAIM, a)
        s = self.state
        tile = s.last_discard
        assert tile is not None
        if a not in self._claim_options(a.seat, tile):
            raise IllegalActionError(f"{a.kind} is not possible on {_t(tile)}")
        return tile

    def _take_discard(self, seat: int, tile: int) -> None:
        s = self.state
        s.discards[1 - seat].pop()
        s.interrupted = True
        s.pending = [False, False]

    def _do_chi(self, a: Chi) -> None:
        tile = self._claim_check(Chi(a.seat, self.state.seq, a.tiles))
        s = self.state
        self._begin(a)
        self._take_discard(a.seat, tile)
        for t in a.tiles:
            if t.index != tile:
                s.concealed[a.seat][t.index] -= 1
        s.melds[a.seat].append(Meld(MeldKind.CHI, a.tiles, ALL_TILES[tile]))
        self._emit(
            "chi", a.seat, {"tiles": [str(t) for t in a.tiles], "claimed": _t(tile)}
        )
        s.drawn[a.seat] = None
        self._start_turn(a.seat, self_draw=False)

    def _do_pung(self, a: Pung) -> None:
        tile = self._claim_check(Pung(a.seat, self.state.seq))
        s = self.state
        self._begin(a)
        self._take_discard(a.seat, tile)
        s.concealed[a.seat][tile] -= 2
        t = ALL_TILES[tile]
        s.melds[a.seat].append(Meld(MeldKind.PUNG, (t, t, t), t))
        self._emit("pung", a.seat, {"tile": _t(tile)})
        s.drawn[a.seat] = None
        self._start_turn(a.seat, self_draw=False)

    def _do_kong(self, a: Kong) -> None:
        tile = self._claim_check(Kong(a.seat, self.state.seq))
        s = self.state
        self._begin(a)
        self._take_discard(a.seat, tile)
        s.concealed[a.seat][tile] -= 3
        t = ALL_TILES[tile]
        s.melds[a.seat].append(Meld(MeldKind.KONG, (t, t, t, t), t))
        s.kongs_made[a.seat] += 1
        self._emit("kong", a.seat, {"tile": _t(tile)})
        self._replacement(a.seat)

    def _replacement(self, seat: int) -> None:
        s = self.state
        s.drawn[seat] = None
        if self._draw(seat, from_end=True) is None:
            self._end_draw("wall_exhausted")
            return
        self._start_turn(seat, self_draw=True, after_kong=True)

    def _do_concealed_kong(self, a: ConcealedKong) -> None:
        self._check_turn(a)
        if replace(a, seq=self.state.seq) not in self._turn_options(a.seat):
            raise IllegalActionError(f"no 暗杠 of {a.tile} possible")
        s = self.state
        could_win = self._can_tsumo(a.seat)
        self._begin(a)
        if could_win:
            self._note_declined_win(a.seat)
        s.concealed[a.seat][a.tile.index] -= 4
        s.melds[a.seat].append(Meld(MeldKind.CONCEALED_KONG, (a.tile,) * 4))
        s.kongs_made[a.seat] += 1
        s.interrupted = True
        s.pending = [False, False]
        self._private("concealed_kong", a.seat, {"tile": str(a.tile)}, {})
        self._replacement(a.seat)

    def _do_added_kong(self, a: AddedKong) -> None:
        self._check_turn(a)
        if replace(a, seq=self.state.seq) not in self._turn_options(a.seat):
            raise IllegalActionError(f"no 加杠 of {a.tile} possible")
        s = self.state
        could_win = self._can_tsumo(a.seat)
        self._begin(a)
        if could_win:
            self._note_declined_win(a.seat)
        s.pending = [False, False]
        s.interrupted = True
        self._emit("added_kong", a.seat, {"tile": str(a.tile)})
        other = 1 - a.seat
        tile = a.tile.index
        s.rob_tile = tile
        self._prompt(Phase.ROB, (other,))
        if self._win_score(other, tile, self_drawn=False, robbing=True) is None:
            self._auto_pass(other)

    def _complete_added_kong(self, seat: int, tile: int) -> None:
        s = self.state
        t = ALL_TILES[tile]
        for i, m in enumerate(s.melds[seat]):
            if m.kind is MeldKind.PUNG and m.first == t:
                s.melds[seat][i] = Meld(MeldKind.KONG, (t,) * 4, m.claimed)
                break
        s.concealed[seat][tile] -= 1
        s.kongs_made[seat] += 1
        self._emit("kong_completed", seat, {"tile": _t(tile)})
        self._replacement(seat)

    def _do_ready(self, a: Ready) -> None:
        s = self.state
        rs = self.ruleset
        seat = a.seat
        if System.READY not in rs.systems:
            raise IllegalActionError(f"{rs.name} has no 报听")
        if s.ready[seat]:
            raise IllegalActionError("报听 was already declared")
        if a.tile is None:
            if not self._can_ready_now(seat):
                raise IllegalActionError("报听 needs a waiting, tenpai hand")
            self._begin(a)
            heavenly = first_turn.heavenly_ready(s, seat, with_discard=False)
            self._declare_ready(seat, heavenly, None)
            return
        self._check_turn(a)
        tile = a.tile.index
        self._check_discardable(seat, tile)
        if tile == s.wild or self._shanten_after(seat, tile) != 0:
            raise IllegalActionError(
                f"discarding {a.tile} does not leave a tenpai hand"
            )
        could_win = self._can_tsumo(seat)
        self._begin(a)
        heavenly = first_turn.heavenly_ready(s, seat, with_discard=True)
        if could_win:
            self._note_declined_win(seat)
        self._declare_ready(seat, heavenly, tile)
        self._discard(seat, tile, auto=False)

    def _declare_ready(self, seat: int, heavenly: bool, tile: int | None) -> None:
        s = self.state
        s.ready[seat] = True
        s.heavenly_ready[seat] = heavenly
        s.ready_mark[seat] = s.discards_made[1 - seat]
        self._emit(
            "ready",
            seat,
            {"tile": None if tile is None else _t(tile), "heavenly": heavenly},
        )

    def _do_swap(self, a: Swap) -> None:
        self._check_turn(a)
        rs = self.ruleset
        s = self.state
        if System.SWAP not in rs.systems:
            raise IllegalActionError(f"{rs.name} has no 换牌")
        if s.swaps[a.seat] >= rs.max_swaps:
            raise IllegalActionError(f"at most {rs.max_swaps} swaps a hand")
        if s.ready[a.seat] or s.wall_count == 0:
            raise IllegalActionError("no swap after 报听 or with an empty wall")
        tile = a.tile.index
        self._check_discardable(a.seat, tile)
        self._begin(a)
        s.concealed[a.seat][tile] -= 1
        s.swapped[a.seat].append(tile)
        s.swaps[a.seat] += 1
        if s.drawn[a.seat] == tile and s.concealed[a.seat][tile] == 0:
            s.drawn[a.seat] = None
        self._private(
            "swap",
            a.seat,
            {"out": _t(tile), "swaps": s.swaps[a.seat], "free": s.swaps[a.seat] == 1},
            {"swaps": s.swaps[a.seat], "free": s.swaps[a.seat] == 1},
        )
        if self._draw(a.seat, from_end=False) is None:  # pragma: no cover
            self._end_draw("wall_exhausted")
            return
        s.self_draw = True
        s.after_kong = False

    def _do_timeout(self, a: Timeout) -> None:
        s = self.state
        if not s.auto[a.seat] and (s.deadline is None or self._now < s.deadline):
            raise IllegalActionError(
                f"the deadline {s.deadline} has not passed (now {self._now})"
            )
        default = self.default_action(a.seat)
        if default is None:  # pragma: no cover - pending was checked
            raise OutOfTurnError("nothing to time out")
        self._begin(a)
        self._emit("timeout", a.seat, {"phase": s.phase.value})
        self._nested = True
        try:
            self._handlers()[type(default)](default)
        finally:
            self._nested = False

    def _do_auto_play(self, a: AutoPlay) -> None:
        s = self.state
        if s.auto[a.seat] == a.on:
            raise IllegalActionError(f"托管 is already {'on' if a.on else 'off'}")
        self._begin(a)
        s.auto[a.seat] = a.on
        self._emit("auto_play", a.seat, {"on": a.on})

    # ---------------------------------------------------------------- ending
    def _task_done(self, seat: int, score: analysis.ScoreLike) -> bool:
        s = self.state
        task = s.task
        if task is None:
            return False
        if task.kind == "pung":
            assert task.tile is not None
            return s.concealed[seat][task.tile] >= 3 or any(
                m.kind is not MeldKind.CHI and m.first.index == task.tile
                for m in s.melds[seat]
            )
        if task.kind == "kong":
            return any(m.is_kong for m in s.melds[seat])
        if task.kind == "fan":
            return any(f.id == task.fan and f.counted for f in score.fans)
        return s.start_double[seat] or s.deal_double[seat]

    def _end_win(
        self,
        seat: int,
        tile: int,
        score: analysis.ScoreLike,
        *,
        self_drawn: bool,
        robbed: bool = False,
    ) -> None:
        s = self.state
        task_done = self._task_done(seat, score)
        outcome = Outcome(
            winner=seat,
            self_drawn=self_drawn,
            base_fan=int(score.total),
            open_hand=(s.open_hand[0], s.open_hand[1]),
            start_double=(s.start_double[0], s.start_double[1]),
            deal_double=(s.deal_double[0], s.deal_double[1]),
            ready_win=s.ready[seat],
            win_doubles=s.win_doubles[seat],
            task_done=task_done,
            task_factor=s.task.factor if s.task else 2,
        )
        fans = [
            {
                "id": f.id,
                "zh": f.zh,
                "en": f.en,
                "points": f.points,
                "count": f.count,
                "counted": f.counted,
                "reason": f.reason,
            }
            for f in score.fans
        ]
        self._finish(
            outcome,
            {
                "reason": "win",
                "winner": seat,
                "loser": 1 - seat,
                "self_drawn": self_drawn,
                "robbed_kong": robbed,
                "win_tile": _t(tile),
                "fan_total": int(score.total),
                "fans": fans,
                "task_done": task_done,
            },
        )

    def _end_draw(self, reason: str) -> None:
        self._finish(Outcome(winner=None), {"reason": reason, "winner": None})

    def _finish(self, outcome: Outcome, result: dict[str, JSON]) -> None:
        s = self.state
        self.settlement = settle(
            outcome, ruleset=self.ruleset, stake=s.stake, balances=s.balances
        )
        s.phase = Phase.ENDED
        s.pending = [False, False]
        s.deadline = None
        s.rob_tile = None
        result["settlement"] = self.settlement.to_json()
        result["balances_after"] = [
            s.balances[i] + self.settlement.deltas[i] for i in (0, 1)
        ]
        s.result = result
        self._emit(
            "hand_ended",
            None,
            {
                **result,
                "hands": [[str(t) for t in self.tiles_of(i)] for i in (0, 1)],
                "melds": [[str(m) for m in s.melds[i]] for i in (0, 1)],
                "swapped": [[_t(t) for t in s.swapped[i]] for i in (0, 1)],
                "seed": s.seed,
                "commitment": s.commitment,
            },
        )

    # ------------------------------------------------------------------ view
    def view(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see (see :func:`games.engine.view.render_view`)."""
        return render_view(self, seat)
