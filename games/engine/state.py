"""The state of one hand (盘): plain data, rebuilt from seed + event log.

:class:`HandState` is mutable but only :class:`~games.engine.hand.Hand`
changes it.  :meth:`HandState.snapshot` gives a JSON-ready copy of every
field, used to check that a replay equals the live hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..rules.melds import Meld
from ..rules.tiles import NUM_KINDS
from .task import Task as Task  # re-exported: the task lives in task.py

SEATS = (0, 1)


class Phase(StrEnum):
    """Where the hand is; each phase names who must answer."""

    PRE_DEAL = "pre_deal"  # 明牌 / 开始加倍 choices, both seats
    DOUBLE = "double"  # 加倍 after the deal, both seats
    TURN = "turn"  # ``turn`` holds 14−3m tiles and must act
    CLAIM = "claim"  # ``turn`` may claim the opponent's discard
    ROB = "rob"  # ``turn`` may rob the opponent's added kong (抢杠和)
    ENDED = "ended"


@dataclass(slots=True)
class HandState:
    """Everything about one hand; see :class:`Phase` for ``phase``.

    Tiles are indices (0–41, games.rules.tiles).  ``concealed[s]`` is a
    34-count vector of seat ``s``'s standing tiles, including ``drawn[s]``
    (the tile just drawn, shown apart).  The wall is ``wall[head:tail]``:
    draws come from ``head``, replacement draws from ``tail - 1``.
    """

    ruleset: str
    seed: str
    commitment: str
    dealer: int
    round_wind: int
    stake: int
    balances: tuple[int, int]
    wall: list[int]
    head: int = 0
    tail: int = 0
    concealed: list[list[int]] = field(
        default_factory=lambda: [[0] * NUM_KINDS, [0] * NUM_KINDS]
    )
    drawn: list[int | None] = field(default_factory=lambda: [None, None])
    melds: list[list[Meld]] = field(default_factory=lambda: [[], []])
    discards: list[list[int]] = field(default_factory=lambda: [[], []])
    flowers: list[list[int]] = field(default_factory=lambda: [[], []])
    swapped: list[list[int]] = field(default_factory=lambda: [[], []])
    bonus_tile: int | None = None
    wild: int | None = None
    wild_indicator: int | None = None
    task: Task | None = None
    phase: Phase = Phase.PRE_DEAL
    turn: int = 0
    pending: list[bool] = field(default_factory=lambda: [False, False])
    asked_at: list[int] = field(default_factory=lambda: [0, 0])
    last_acted: list[int] = field(default_factory=lambda: [0, 0])
    deadline: float | None = None
    last_discard: int | None = None
    rob_tile: int | None = None
    after_kong: bool = False
    self_draw: bool = False
    ready: list[bool] = field(default_factory=lambda: [False, False])
    heavenly_ready: list[bool] = field(default_factory=lambda: [False, False])
    ready_mark: list[int] = field(default_factory=lambda: [-1, -1])
    # per seat, the length of its pool when it declared 报听 (-1: not declared):
    # its discards from there on were made by the locked hand
    ready_pool: list[int] = field(default_factory=lambda: [-1, -1])
    auto: list[bool] = field(default_factory=lambda: [False, False])
    open_hand: list[bool] = field(default_factory=lambda: [False, False])
    start_double: list[bool] = field(default_factory=lambda: [False, False])
    deal_double: list[bool] = field(default_factory=lambda: [False, False])
    win_doubles: list[int] = field(default_factory=lambda: [0, 0])
    swaps: list[int] = field(default_factory=lambda: [0, 0])
    draws: list[int] = field(default_factory=lambda: [0, 0])
    discards_made: list[int] = field(default_factory=lambda: [0, 0])
    kongs_made: list[int] = field(default_factory=lambda: [0, 0])
    interrupted: bool = False
    # per seat, [tile, fan] for each tile since its last action that completed
    # its hand below the minimum (a 和 the table explains instead of offering)
    short_win: list[list[list[int]]] = field(default_factory=lambda: [[], []])
    result: dict[str, Any] | None = None
    seq: int = 0

    @property
    def wall_count(self) -> int:
        """Tiles left to draw."""
        return self.tail - self.head

    def snapshot(self) -> dict[str, Any]:
        """Return every field as JSON-ready data (for replay comparison)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "melds":
                value = [[repr(m) for m in ms] for ms in value]
            elif name == "task":
                value = None if value is None else value.to_json()
            elif name == "short_win":
                value = [[list(e) for e in v] for v in value]
            elif isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out
