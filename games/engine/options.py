"""What a seat may do now: win tests, claim and turn options, defaults.

:class:`HandRules` is the read-only half of :class:`~games.engine.hand.Hand`:
it looks at the state and the rule set and never changes them.  Rule
sources are cited where each option is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..rules.melds import Meld, MeldKind
from ..rules.rulesets.base import Claim, RuleSet, System
from ..rules.situation import EAST, WEST, WinSituation
from ..rules.tiles import ALL_TILES, NUM_KINDS, Tile, from_counts
from . import analysis, first_turn
from .actions import (
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
    Win,
)
from .state import HandState, Phase

_V = TypeVar("_V")


MEMO_SIZE = 512
"""Most entries of a hand's per-hand memo (emptied when full): a hand asks
about a few dozen concealed hands, far fewer over a whole hand."""


WIN_MEMO_SIZE = 8
"""Most entries of a hand's memo of win questions (:meth:`HandRules._win_result`,
emptied when full and by every event that can change the state): one state
asks about one tile for one seat, two with a 加杠's robbing question."""


def _memoised(
    memo: dict[tuple[int, ...], _V],
    key: tuple[int, ...],
    compute: Callable[..., _V],
    *args: object,
) -> _V:
    """``memo[key]``, computed as ``compute(*args)`` the first time (a hand's
    own memo: :meth:`HandRules._shanten_of`, :meth:`HandRules._complete`)."""
    got = memo.get(key)
    if got is None:
        got = compute(*args)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = got
    return got


class HandRules:
    """Read-only analysis of a hand's state under its rule set."""

    ruleset: RuleSet
    state: HandState
    _shanten_memo: dict[tuple[int, ...], int]
    _complete_memo: dict[tuple[int, ...], bool]
    _legal_memo: dict[tuple[object, ...], list[Action]]
    _win_memo: dict[tuple[int, int, bool, bool], analysis.ScoreLike | None]
    _scored: Callable[
        [tuple[int, ...], tuple[Meld, ...], WinSituation], analysis.ScoreLike
    ]

    def seat_wind(self, seat: int) -> Tile:
        return EAST if seat == self.state.dealer else WEST

    def tiles_of(self, seat: int) -> list[Tile]:
        """Seat's concealed tiles, sorted (the drawn tile included)."""
        return from_counts(self.state.concealed[seat])

    # ------------------------------------------------------------- analysis
    def _melds_n(self, seat: int) -> int:
        return len(self.state.melds[seat])

    def _is_waiting(self, seat: int) -> bool:
        """The seat holds 13−3m tiles (it is not in the middle of a turn)."""
        return sum(self.state.concealed[seat]) == 13 - 3 * self._melds_n(seat)

    def _shanten_after(self, seat: int, tile: int) -> int:
        c = list(self.state.concealed[seat])
        c[tile] -= 1
        return self._shanten_of(c, self._melds_n(seat))

    def _shanten_of(self, counts: list[int], melds: int) -> int:
        """Shanten of concealed ``counts`` with ``melds`` melds, memoised per
        hand (the same few hands are asked about on every prompt)."""
        return _memoised(
            self._shanten_memo,
            (*counts, melds),
            analysis.hand_shanten,
            counts,
            melds,
            self.state.wild,
            self.ruleset,
        )

    def _complete(self, counts: list[int], melds: int) -> bool:
        """Whether 14−3m concealed ``counts`` with ``melds`` melds complete an
        allowed shape, memoised per hand like :meth:`_shanten_of` (the note
        of a win short of the minimum, the win option and the timeout's
        default ask about the same completed hand in turn)."""
        return _memoised(
            self._complete_memo,
            (*counts, melds),
            analysis.shape_complete,
            counts,
            melds,
            self.state.wild,
            self.ruleset,
        )

    def _visible_count(self, tile: int, seat: int) -> int:
        s = self.state
        n = sum(d.count(tile) for d in s.discards)
        for owner in (0, 1):
            for m in s.melds[owner]:
                if m.kind is MeldKind.CONCEALED_KONG and owner != seat:
                    continue
                n += sum(1 for t in m.tiles if t.index == tile)
        if s.wild_indicator == tile:
            n += 1
        return n

    def _win_score(
        self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False
    ) -> analysis.ScoreLike | None:
        """Score ``seat`` winning on ``tile``; ``None`` when it is no legal win.

        For a self-drawn win ``tile`` is already in the hand.
        """
        result = self._win_result(seat, tile, self_drawn=self_drawn, robbing=robbing)
        return result if result is not None and result.win else None

    def short_of_minimum(self, seat: int, tile: int, *, self_drawn: bool) -> int | None:
        """The fan ``seat``'s hand would score on ``tile`` when the tile
        completes it but the total is below the rule set's minimum, else None.

        The tables explain a 和 that is not offered ("only N fan, 8 needed":
        seed 003 "达到或超过起和分标准"); the number counts only the fans that
        count toward the minimum (flowers do not, seed 003 花牌).
        """
        result = self._win_result(seat, tile, self_drawn=self_drawn)
        if result is None or result.win or not result.shape:
            return None
        if result.minimum_total >= self.ruleset.min_fan:
            return None
        return int(result.minimum_total)

    def _win_result(
        self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False
    ) -> analysis.ScoreLike | None:
        """Score ``seat``'s hand completed by ``tile``, legal win or not.

        ``None`` when the tile does not complete an allowed shape (or the
        rule set has no 和 on a discard).  Memoised for the current state:
        the note of a win short of the minimum, the win option, the seat's
        pass or discard and the timeout's default ask the same question of
        the same state in turn (the memo is emptied by every event that can
        change the state, :meth:`~.log.HandLog._emit`).
        """
        key = (seat, tile, self_drawn, robbing)
        memo = self._win_memo
        if key in memo:
            return memo[key]
        result = self._compute_win_result(seat, tile, self_drawn, robbing)
        if len(memo) >= WIN_MEMO_SIZE:
            memo.clear()
        memo[key] = result
        return result

    def _compute_win_result(
        self, seat: int, tile: int, self_drawn: bool, robbing: bool
    ) -> analysis.ScoreLike | None:
        s = self.state
        rs = self.ruleset
        counts = list(s.concealed[seat])
        n_melds = self._melds_n(seat)
        if self_drawn:
            counts[tile] -= 1  # the waiting hand before the draw
            if self._shanten_of(counts, n_melds) != 0:
                return None  # one tile cannot complete it
            counts[tile] += 1
        else:
            if Claim.WIN not in rs.claims:
                return None
            if self._shanten_of(counts, n_melds) != 0:
                return None
            counts[tile] += 1
        if not self._complete(counts, n_melds):
            return None
        other = 1 - seat
        visible = self._visible_count(tile, seat)
        if not self_drawn and not robbing:
            visible -= 1  # the discard itself is the winning tile
        situation = WinSituation(
            win_tile=ALL_TILES[tile],
            self_drawn=self_drawn,
            last_tile=visible >= 3
            and not robbing
            and self._holds_no_other_copy(seat, tile, self_drawn),
            kong=(s.after_kong if self_drawn else robbing),
            wall_last=s.wall_count == 0 and not robbing,
            seat_wind=self.seat_wind(seat),
            round_wind=ALL_TILES[s.round_wind],
            flowers=tuple(ALL_TILES[f] for f in s.flowers[seat]),
            heavenly=self_drawn and first_turn.heavenly(s, seat),
            earthly=self_drawn and first_turn.earthly(s, seat),
            human=not self_drawn and not robbing and first_turn.human(s, seat),
            heavenly_ready=s.heavenly_ready[seat],
            ready=s.ready[seat],
            ready_first=s.ready[seat]
            and not self_drawn
            and not robbing
            and s.discards_made[other] == s.ready_mark[seat] + 1,
            bonus_tiles=() if s.bonus_tile is None else (ALL_TILES[s.bonus_tile],),
            wild=None if s.wild is None else ALL_TILES[s.wild],
        )
        return self._scored(tuple(counts), tuple(s.melds[seat]), situation)

    def _holds_no_other_copy(self, seat: int, tile: int, self_drawn: bool) -> bool:
        """和绝张 needs no other copy of the winning tile in the hand.

        With 财神 the scorer may let a wild stand for the winning kind, which
        it refuses together with 和绝张; the engine therefore claims 和绝张
        only when the winner holds no wild and the tile is not 白板 or the
        wild kind (known gap: such a hand loses 和绝张).
        """
        s = self.state
        c = s.concealed[seat]
        if s.wild is not None and (
            c[s.wild] > (1 if self_drawn and tile == s.wild else 0)
            or tile in (s.wild, analysis.WHITE)
        ):
            return False
        return c[tile] == (1 if self_drawn else 0)

    def _can_tsumo(self, seat: int) -> bool:
        s = self.state
        if not (s.phase is Phase.TURN and s.turn == seat and s.self_draw):
            return False
        tile = s.drawn[seat]
        if tile is None:
            return False
        return self._win_score(seat, tile, self_drawn=True) is not None

    def _claim_options(self, seat: int, tile: int) -> list[Action]:
        """Claims ``seat`` may make on the opponent's discard ``tile``."""
        s = self.state
        rs = self.ruleset
        seq = s.seq
        out: list[Action] = []
        if self._win_score(seat, tile, self_drawn=False) is not None:
            out.append(Win(seat, seq))
        full = rs.full_discard_pool is not None and any(
            len(d) >= rs.full_discard_pool for d in s.discards
        )
        if s.ready[seat] or full or tile == s.wild:
            return out
        c = s.concealed[seat]
        if Claim.KONG in rs.claims and c[tile] == 3 and s.wall_count > 0:
            out.append(Kong(seat, seq))
        if Claim.PUNG in rs.claims and c[tile] >= 2:
            out.append(Pung(seat, seq))
        if Claim.CHI in rs.claims and tile < 27:
            # the sequences of the tile's suit holding it, lowest first, whose
            # two other tiles are held and are not the 财神 kind; tested
            # inline (a chow is possible on a few discards in ten)
            rank = tile % 9
            w = s.wild
            below = rank >= 1 and c[tile - 1] > 0 and tile - 1 != w
            above = rank <= 7 and c[tile + 1] > 0 and tile + 1 != w
            if below and rank >= 2 and c[tile - 2] > 0 and tile - 2 != w:
                out.append(Chi(seat, seq, ALL_TILES[tile - 2 : tile + 1]))
            if below and above:
                out.append(Chi(seat, seq, ALL_TILES[tile - 1 : tile + 2]))
            if above and rank <= 6 and c[tile + 2] > 0 and tile + 2 != w:
                out.append(Chi(seat, seq, ALL_TILES[tile : tile + 3]))
        return out

    def _turn_options(self, seat: int) -> list[Action]:
        s = self.state
        rs = self.ruleset
        seq = s.seq
        out: list[Action] = []
        if self._can_tsumo(seat):
            out.append(Win(seat, seq))
        c = s.concealed[seat]
        if s.ready[seat]:
            d = s.drawn[seat]
            if d is not None:
                out.append(Discard(seat, seq, ALL_TILES[d]))
                out.extend(self._ready_kongs(seat, d))
            return out
        kinds = [i for i in range(NUM_KINDS) if c[i] and i != s.wild]
        out.extend(Discard(seat, seq, ALL_TILES[i]) for i in kinds)
        if s.wall_count > 0:
            out.extend(
                ConcealedKong(seat, seq, ALL_TILES[i]) for i in kinds if c[i] == 4
            )
            for m in s.melds[seat]:
                if (
                    m.kind is MeldKind.PUNG
                    and c[m.first.index]
                    and m.first.index != s.wild
                ):
                    out.append(AddedKong(seat, seq, m.first))
        if System.READY in rs.systems and self._tenpai_after_discard(seat):
            # tenpai after the best discard: 报听 with each discard that keeps
            # it (every discard's shanten in one pass: one suit changes each)
            after = analysis.shanten_after_discards(
                c, len(s.melds[seat]), s.wild, rs, kinds
            )
            out.extend(
                Ready(seat, seq, ALL_TILES[i])
                for i, n in zip(kinds, after, strict=True)
                if n == 0
            )
        if (
            System.SWAP in rs.systems
            and s.swaps[seat] < rs.max_swaps
            and s.wall_count > 0
        ):
            out.extend(Swap(seat, seq, ALL_TILES[i]) for i in kinds)
        return out

    def _tenpai_after_discard(self, seat: int) -> bool:
        """Whether ``seat``'s 14−3m tiles are tenpai after their best
        discard (shanten at most 0), on its turn.

        A tile drawn lowers the shanten by at most one (each complete hand
        lacks at most one tile fewer), so when the hand before the draw is
        known (memoised) to be two or more from tenpai the answer is no
        without working out the 14 tiles' shanten: the hand before the draw
        is asked about at every draw (:meth:`short_of_minimum` of the drawn
        tile), so most turns of a hand far from tenpai skip it.
        """
        s = self.state
        c = s.concealed[seat]
        n_melds = len(s.melds[seat])
        drawn = s.drawn[seat]
        if drawn is not None:
            before = list(c)
            before[drawn] -= 1
            known = self._shanten_memo.get((*before, n_melds))
            if known is not None and known >= 2:
                return False
        return self._shanten_of(list(c), n_melds) <= 0

    def locked_discard(self, seat: int) -> Discard | None:
        """报听's forced move: the drawn-tile discard, or ``None``.

        Not ``None`` only on ``seat``'s turn (Phase.TURN) when it declared
        报听 and can neither win nor kong, so discarding the drawn tile is its
        only move (seed 000 报听: the hand is locked; 托管 aside).  The
        returned action carries the current ``seq``.  The engine makes this
        discard itself unless the hand has ``prompt_locked``; the live table
        then makes it as an automated move.
        """
        s = self.state
        if s.phase is not Phase.TURN or s.turn != seat or not s.ready[seat]:
            return None
        options = self._turn_options(seat)
        if len(options) == 1 and isinstance(options[0], Discard):
            return options[0]
        return None

    def _ready_kongs(self, seat: int, drawn: int) -> list[Action]:
        """Kongs a locked seat may make with its drawn tile.

        Seed 000 报听: "报听后可手动选择是否杠" — allowed when the kong does not
        change the waits (an added kong never does; a concealed kong must
        leave the same waiting kinds).
        """
        s = self.state
        if s.wall_count == 0 or drawn == s.wild:
            return []
        seq = s.seq
        c = s.concealed[seat]
        m = self._melds_n(seat)
        tile = ALL_TILES[drawn]
        if any(x.kind is MeldKind.PUNG and x.first == tile for x in s.melds[seat]):
            return [AddedKong(seat, seq, tile)]
        if c[drawn] != 4:
            return []
        before = list(c)
        before[drawn] -= 1
        after = list(c)
        after[drawn] -= 4
        rs = self.ruleset
        waits_before = analysis.hand_waits(before, m, s.wild, rs)
        if waits_before and waits_before == analysis.hand_waits(
            after, m + 1, s.wild, rs
        ):
            return [ConcealedKong(seat, seq, tile)]
        return []

    def _can_ready_now(self, seat: int) -> bool:
        """报听 without a discard: a waiting hand that is tenpai."""
        s = self.state
        if System.READY not in self.ruleset.systems or s.ready[seat]:
            return False
        if s.phase in (Phase.PRE_DEAL, Phase.ENDED) or not self._is_waiting(seat):
            return False
        return self._shanten_of(list(s.concealed[seat]), self._melds_n(seat)) == 0

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may send now, each with ``seq`` = the current seq.

        ``Timeout`` is not listed: the server sends it when the deadline
        passes (or at once for a seat in 托管).  Memoised until the next
        :meth:`~games.engine.hand.Hand.apply` (a view and a bot ask for the
        same list); each call returns a new list.
        """
        s = self.state
        key = (seat, s.seq, s.phase, s.pending[0], s.pending[1], s.auto[seat])
        got = self._legal_memo.get(key)
        if got is None:
            got = self._legal_actions(seat)
            if len(self._legal_memo) >= 8:
                self._legal_memo.clear()
            self._legal_memo[key] = got
        return list(got)

    def _legal_actions(self, seat: int) -> list[Action]:
        s = self.state
        if s.phase is Phase.ENDED:
            return []
        seq = s.seq
        out: list[Action] = []
        if s.pending[seat]:
            rs = self.ruleset
            if s.phase is Phase.PRE_DEAL:
                opens = (False, True) if System.OPEN_HAND in rs.systems else (False,)
                doubles = (
                    (False, True) if System.START_DOUBLE in rs.systems else (False,)
                )
                out.extend(PreDeal(seat, seq, o, d) for o in opens for d in doubles)
            elif s.phase is Phase.DOUBLE:
                out.extend((Double(seat, seq, False), Double(seat, seq, True)))
            elif s.phase is Phase.TURN:
                out.extend(self._turn_options(seat))
            elif s.phase is Phase.CLAIM:
                assert s.last_discard is not None
                out.extend(self._claim_options(seat, s.last_discard))
                out.append(Pass(seat, seq))
            elif s.phase is Phase.ROB:
                out.extend((Win(seat, seq), Pass(seat, seq)))
        if self._can_ready_now(seat):
            out.append(Ready(seat, seq, None))
        out.append(AutoPlay(seat, seq, not s.auto[seat]))
        return out

    def default_action(self, seat: int) -> Action | None:
        """The move a ``timeout`` applies for ``seat``, or ``None`` if not asked.

        Seed 000 游戏说明/异常处理: discard the rightmost tile (the one just
        drawn; without one, the highest tile in sort order), pass a claim,
        decline every pre-deal choice; but a seat in 托管 or 报听 that can win,
        wins.
        """
        s = self.state
        if s.phase is Phase.ENDED or not s.pending[seat]:
            return None
        seq = s.seq
        eager = s.auto[seat] or s.ready[seat]
        if s.phase is Phase.PRE_DEAL:
            return PreDeal(seat, seq)
        if s.phase is Phase.DOUBLE:
            return Double(seat, seq, False)
        if s.phase is Phase.TURN:
            if eager and self._can_tsumo(seat):
                return Win(seat, seq)
            d = s.drawn[seat]
            if d is None or d == s.wild and not s.ready[seat]:
                c = s.concealed[seat]
                d = max(i for i in range(NUM_KINDS) if c[i] and i != s.wild)
            return Discard(seat, seq, ALL_TILES[d])
        if s.phase is Phase.CLAIM:
            assert s.last_discard is not None
            if eager and self._win_score(seat, s.last_discard, self_drawn=False):
                return Win(seat, seq)
            return Pass(seat, seq)
        # ROB: robbing is always a win option here
        return Win(seat, seq) if eager else Pass(seat, seq)
