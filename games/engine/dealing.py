"""Dealing: drawing from the wall with 补花, the deal, 加番牌, 财神 and 任务.

Also :func:`next_deal`, who deals the next hand and in which round wind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.rulesets.base import System
from ..rules.tiles import ALL_TILES, NUM_KINDS, Tile
from .ending import HandEnding
from .log import tile_str as _t
from .state import Phase, Task

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


class HandDealing(HandEnding):
    """Drawing tiles and the deal (seed 000 游戏说明, 001 加番牌, 002 财神)."""

    if TYPE_CHECKING:

        def _start_turn(
            self, seat: int, *, self_draw: bool, after_kong: bool = False
        ) -> None: ...

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
