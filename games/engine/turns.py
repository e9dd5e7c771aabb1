"""A seat's own moves: pre-deal and 加倍 choices, discards, kongs, 报听, 换牌,
timeouts and 托管."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..rules.melds import Meld, MeldKind
from ..rules.rulesets.base import System
from ..rules.tiles import ALL_TILES, NUM_KINDS
from . import first_turn
from .actions import (
    Action,
    AddedKong,
    AutoPlay,
    ConcealedKong,
    Discard,
    Double,
    PreDeal,
    Ready,
    Swap,
    Timeout,
)
from .dealing import HandDealing
from .errors import IllegalActionError, OutOfTurnError
from .log import tile_str as _t
from .state import Phase


class HandTurns(HandDealing):
    """Transitions of PRE_DEAL, DOUBLE and TURN, and the seat-wide actions."""

    if TYPE_CHECKING:

        def _after_discard(self, seat: int, tile: int) -> None: ...

        def _auto_pass(self, seat: int) -> None: ...

        def _handle(self, action: Action) -> None: ...

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
        if self.turn_from_discard:  # the kong maker's turn after the window
            self._clock_from = self._now + self.ruleset.timers.claim
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
        s.ready_pool[seat] = len(s.discards[seat])
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
            self._handle(default)
        finally:
            self._nested = False

    def _do_auto_play(self, a: AutoPlay) -> None:
        s = self.state
        if s.auto[a.seat] == a.on:
            raise IllegalActionError(f"托管 is already {'on' if a.on else 'off'}")
        self._begin(a)
        s.auto[a.seat] = a.on
        self._emit("auto_play", a.seat, {"on": a.on})
