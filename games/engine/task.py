"""任务加倍 (seed 000): the hand's task, whether a win completes it, and how a
seat stands with it during the hand.

Seed 000: "胡牌者如果完成任务" — a task is completed only by winning with it.
This module is the one place that decides it: the engine at the win
(:meth:`Task.is_done`), the bots valuing a win, and the table's 任务 badge
(:func:`task_state`, exposed by ``view(seat)["task_state"]``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..rules.melds import Meld, MeldKind
from ..rules.tiles import ALL_TILES

if TYPE_CHECKING:
    from .state import HandState

TASK_STATES = ("met", "missed", "ready", "open", "at_win")
"""What :func:`task_state` may return (see there)."""


@dataclass(frozen=True, slots=True)
class Task:
    """任务加倍 (seed 000): the hand's random task.

    ``kind`` is ``pung`` (win holding a pung or kong of ``tile``), ``kong``
    (win having declared a kong), ``fan`` (win with the fan ``fan``) or
    ``double`` (win after choosing a 加倍: 开始加倍 or 加倍 after the deal).
    ``factor`` multiplies the base fan in the task's share of the total (seed
    000 example: ×2).
    """

    kind: str
    tile: int | None = None
    fan: str | None = None
    factor: int = 2

    def to_json(self) -> dict[str, Any]:
        """``{kind, tile ("1z" or None), fan (id or None), factor}``."""
        return {
            "kind": self.kind,
            "tile": None if self.tile is None else str(ALL_TILES[self.tile]),
            "fan": self.fan,
            "factor": self.factor,
        }

    @classmethod
    def from_json(cls, data: Any) -> Task | None:
        """Inverse of :meth:`to_json`; ``None`` for anything but a mapping.

        Raises:
            ValueError: a tile that does not parse.
        """
        from ..rules.tiles import Tile

        if not hasattr(data, "get"):
            return None
        tile = data.get("tile")
        fan = data.get("fan")
        return cls(
            kind=str(data.get("kind")),
            tile=None if tile is None else Tile.parse(str(tile)).index,
            fan=None if fan is None else str(fan),
            factor=int(data.get("factor") or 2),
        )

    def is_done(
        self,
        *,
        counts: Sequence[int],
        melds: Sequence[Meld],
        fan_ids: Collection[str],
        doubled: bool,
    ) -> bool:
        """Whether a win with this hand completes the task.

        Args:
            counts: the winning hand's concealed tile counts (34 kinds, the
                winning tile included).
            melds: the winner's declared melds.
            fan_ids: ids of the fans counted in the win.
            doubled: the winner chose 开始加倍 or 加倍 after the deal.

        ``pung``: three concealed copies of the tile, or a pung/kong meld of
        it; ``kong``: a kong declared (any kind); ``fan``: the fan counted;
        ``double``: ``doubled``.
        """
        kind = self.kind
        if kind == "pung":
            tile = self.tile
            if tile is None:
                return False
            return counts[tile] >= 3 or any(
                m.kind is not MeldKind.CHI and m.first.index == tile for m in melds
            )
        if kind == "kong":
            return any(m.is_kong for m in melds)
        if kind == "fan":
            return self.fan in fan_ids
        if kind == "double":
            return doubled
        return False

    def standing(
        self,
        *,
        held: Sequence[int],
        melds: Sequence[Meld],
        doubled: bool,
        choosing: bool,
        gone: int,
    ) -> str:
        """How a seat stands with the task before the hand ends.

        Args:
            held: the seat's concealed counts (drawn tile included).
            melds: the seat's melds.
            doubled: it chose 开始加倍 or 加倍.
            choosing: the doubles are still being chosen (before the deal or
                in the 加倍 prompt).
            gone: copies of a ``pung`` task's tile out of this seat's reach
                as it sees them (both pools, the opponent's melds shown face
                up and, under 明牌, the opponent's hand).

        Returns ``ready`` (winning now would complete it), ``open`` (not yet,
        but it still can be), ``missed`` (it no longer can: ``double``
        declined once the doubling is over, ``pung`` with two or more copies
        gone) or ``at_win`` (only the winning hand tells: ``fan``).
        """
        kind = self.kind
        if kind == "kong":
            return "ready" if any(m.is_kong for m in melds) else "open"
        if kind == "double":
            if doubled:
                return "ready"
            return "open" if choosing else "missed"
        if kind == "pung" and self.tile is not None:
            tile = self.tile
            if any(m.kind is not MeldKind.CHI and m.first.index == tile for m in melds):
                return "ready"
            if held[tile] >= 3:
                return "ready"
            return "open" if gone <= 1 else "missed"
        return "at_win"


def task_state(state: HandState, seat: int) -> str | None:
    """How ``seat`` stands with the hand's 任务, from what it may see.

    One of :data:`TASK_STATES`, or ``None`` when the hand has no task:
    ``met`` once the hand ended with a win that completed the task —
    whoever won: the task is the hand's, and the settlement then pays 任务加倍
    (seed 000: "胡牌者如果完成任务，输赢结算时就会计上任务倍数") — ``missed``
    once it ended otherwise; before the end :meth:`Task.standing`.
    """
    task = state.task
    if task is None:
        return None
    if state.result is not None:
        result = state.result
        # the result's task_done is Task.is_done at the win (ending.py), the
        # one the settlement's 任务加倍 line reads
        done = result.get("winner") is not None and bool(result.get("task_done"))
        return "met" if done else "missed"
    gone = 0
    tile = task.tile
    if task.kind == "pung" and tile is not None:
        other = 1 - seat
        gone = sum(pool.count(tile) for pool in state.discards)
        for m in state.melds[other]:
            if m.kind is not MeldKind.CONCEALED_KONG:
                gone += sum(1 for t in m.tiles if t.index == tile)
        if state.open_hand[other]:
            gone += state.concealed[other][tile]
    from .state import Phase

    return task.standing(
        held=state.concealed[seat],
        melds=state.melds[seat],
        doubled=state.start_double[seat] or state.deal_double[seat],
        choosing=state.phase in (Phase.PRE_DEAL, Phase.DOUBLE),
        gone=gone,
    )
