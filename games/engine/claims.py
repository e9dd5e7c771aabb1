"""The claim (CLAIM) and rob (ROB) windows: 和, 吃, 碰, 杠 on a discard, 抢杠.

Every discard opens a CLAIM window and every 加杠 a ROB window, whether or
not the opponent has a real choice (see :mod:`games.engine.hand`).
"""

from __future__ import annotations

from ..rules.melds import Meld, MeldKind
from ..rules.rulesets.base import Claim
from ..rules.tiles import ALL_TILES
from .actions import (
    Action,
    Chi,
    Kong,
    Pass,
    Pung,
    Win,
)
from .errors import IllegalActionError
from .log import tile_str as _t
from .state import Phase
from .turns import HandTurns

CLAIM_PRIORITY: dict[Claim, int] = {
    Claim.WIN: 3,
    Claim.KONG: 2,
    Claim.PUNG: 2,
    Claim.CHI: 1,
}
"""和 > 杠/碰 > 吃 (issue 4).  With two seats only one seat can claim a
discard, so the order decides nothing today; it is kept explicit for
:func:`resolve_claims`."""


def resolve_claims(claims: dict[int, Claim]) -> int | None:
    """Return the seat whose claim wins by :data:`CLAIM_PRIORITY`, or ``None``.

    Ties cannot happen with two seats (only the discarder's opponent claims).
    """
    if not claims:
        return None
    return max(claims, key=lambda s: CLAIM_PRIORITY[claims[s]])


class HandClaims(HandTurns):
    """Transitions of the CLAIM and ROB windows."""

    def _after_discard(self, seat: int, tile: int) -> None:
        s = self.state
        other = 1 - seat
        s.last_discard = tile
        self._note_short(other, tile, self_drawn=False)
        if self.turn_from_discard:
            self._clock_from = self._now
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
