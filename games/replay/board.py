"""The replay board: a finished hand's log turned into steps, both hands open.

:func:`build_steps` reads a hand's events in order (their full payloads:
after the end nothing is secret any more) and records, after each step, what
the table looked like: both concealed hands with the drawn tile apart, the
melds with the claimed tile, the discard pools with each tile marked 摸切
(the tile just drawn) or 手切 (from the hand) and the 报听 discard, flowers,
the wall count, the indicators, the 任务, and each seat's markers (报听,
托管, 明牌, 加倍, 胡加倍, 换牌).  It only moves the tiles the log says moved; it
decides no rule (what was legal, what a hand scores — that is the engine's:
:mod:`games.engine.walk` gives each decision's options).  A log that does
not add up (an edited file) still gives a board; the verification says it
is wrong.

Steps: step 0 is the hand before anything was dealt; then one step per
event except the prompts, the engine's own passes for a seat that had no
claim, and timeouts (merged into the move they caused); the deal events of
both seats are one step.  ``Step.seq`` is the sequence number of the
step's last event, so the event with sequence number ``n`` belongs to the
first step whose ``seq`` is at least ``n`` (:func:`step_of`).

摸切 is decided by kind: a discard of the same kind as the tile just drawn
counts as the drawn tile (the log names kinds, not copies).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.engine.events import Event
from games.rules.errors import NotationError
from games.rules.tiles import Tile

SKIPPED = frozenset({"prompt"})
"""Event kinds that are never a step of their own."""


class Discard(NamedTuple):
    """A tile in a pool: 摸切 (``drawn``) or 手切, the 报听 discard, the
    engine's own discard for a locked hand (``auto``)."""

    tile: str
    drawn: bool
    ready: bool = False
    auto: bool = False


class MeldShown(NamedTuple):
    """A meld as the table draws it (``claimed``: the tile taken, or None)."""

    kind: str
    tiles: tuple[str, ...]
    claimed: str | None = None


def _code(value: Any) -> str:
    """A tile code, interned: the boards of a long hand share their strings."""
    return sys.intern(str(value or ""))


def _key(code: str) -> int:
    try:
        return Tile.parse(code).index
    except NotationError:
        return 99


def _sort(tiles: list[str]) -> None:
    tiles.sort(key=_key)


@dataclass
class Seat:
    """One seat's part of the board (JSON-ready through :meth:`as_dict`)."""

    concealed: list[str] = field(default_factory=list)
    drawn: str | None = None
    melds: list[MeldShown] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    swapped: list[str] = field(default_factory=list)
    ready: bool = False
    ready_pending: bool = False  # the next discard is the 报听 discard
    auto_play: bool = False
    open_hand: bool = False
    start_double: bool = False
    deal_double: bool = False
    win_doubles: int = 0
    swaps: int = 0

    def take(self, code: str) -> bool:
        """Remove one ``code`` from the hand (the drawn tile first)."""
        if self.drawn == code:
            self.drawn = None
            return True
        if code in self.concealed:
            self.concealed.remove(code)
            return True
        return False

    def settle_drawn(self) -> None:
        """Put the drawn tile among the others (the turn moved on)."""
        if self.drawn is not None:
            self.concealed.append(self.drawn)
            _sort(self.concealed)
            self.drawn = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "tiles": list(self.concealed),
            "drawn": self.drawn,
            "count": len(self.concealed) + (1 if self.drawn else 0),
            # immutable items: every step's board shares them
            "melds": list(self.melds),
            "discards": list(self.discards),
            "flowers": list(self.flowers),
            "swapped": list(self.swapped),
            "ready": self.ready,
            "auto_play": self.auto_play,
            "open_hand": self.open_hand,
            "start_double": self.start_double,
            "deal_double": self.deal_double,
            "win_doubles": self.win_doubles,
            "swaps": self.swaps,
        }


@dataclass
class Board:
    """The whole table after some events."""

    seats: tuple[Seat, Seat] = field(default_factory=lambda: (Seat(), Seat()))
    dealer: int = 0
    round_wind: str = "1z"
    seat_winds: list[str] = field(default_factory=lambda: ["1z", "3z"])
    wall: int = 0
    bonus_tile: str | None = None
    wild: str | None = None
    task: dict[str, Any] | None = None
    last: dict[str, Any] | None = None  # {seat, index} of the last discard
    turn: int | None = None
    result: dict[str, Any] | None = None
    dealing: bool = True  # until the first prompt after the deal

    def as_dict(self) -> dict[str, Any]:
        return {
            "seats": [s.as_dict() for s in self.seats],
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "seat_winds": list(self.seat_winds),
            "wall": self.wall,
            "indicators": {"bonus_tile": self.bonus_tile, "wild": self.wild},
            "task": copy.deepcopy(self.task),
            "last": copy.deepcopy(self.last),
            "turn": self.turn,
            "result": copy.deepcopy(self.result),
        }


@dataclass(frozen=True)
class Step:
    """One step of the replay.

    Attributes:
        index: 0, 1, 2 … (the ``?step=`` of the page).
        seq: sequence number of the step's last event (0 for step 0).
        kind: the event kind (``start`` for step 0, ``deal`` for the deal).
        seat: the seat it is about, or ``None``.
        data: the event's full payload.
        timeout: the move was the engine's default after a timeout.
        board: the table after the step (:meth:`Board.as_dict`).
    """

    index: int
    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    timeout: bool
    board: dict[str, Any]


def _meld_tiles(notation: str) -> list[str]:
    from games.rules.tiles import parse_tiles

    try:
        return [str(t) for t in parse_tiles(notation)]
    except NotationError:
        return []


def _apply(board: Board, ev: Event) -> bool:
    """Apply one event; return whether it is a step of its own."""
    kind = ev.kind
    data = ev.payload or {}
    seat_no = ev.seat if ev.seat in (0, 1) else None
    seat = board.seats[seat_no] if seat_no is not None else None
    if kind == "hand_started":
        board.dealer = int(data.get("dealer", 0))
        board.round_wind = str(data.get("round_wind", "1z"))
        winds = data.get("seat_winds")
        if isinstance(winds, list) and len(winds) == 2:
            board.seat_winds = [str(w) for w in winds]
        board.wall = int(data.get("wall_size", 0))
        return True
    if kind in SKIPPED:
        if kind == "prompt" and data.get("phase") != "pre_deal":
            board.dealing = False
        return False
    if kind == "pass":
        return not data.get("auto")
    if seat is not None:
        board.turn = seat_no
    if kind == "pre_deal_choice" and seat is not None:
        seat.open_hand = bool(data.get("open_hand"))
        seat.start_double = bool(data.get("double"))
    elif kind == "double_choice" and seat is not None:
        seat.deal_double = bool(data.get("double"))
    elif kind == "deal" and seat is not None:
        tiles = [_code(t) for t in data.get("tiles") or []]
        seat.concealed = tiles
        _sort(seat.concealed)
        board.wall -= len(tiles)
    elif kind == "draw" and seat is not None:
        seat.settle_drawn()
        tile = data.get("tile")
        seat.drawn = _code(tile) if tile else None
        if board.dealing and seat_no != board.dealer:
            seat.settle_drawn()  # 补花 in the deal: the other seat is not drawing
        if isinstance(data.get("wall"), int):
            board.wall = int(data["wall"])
        else:
            board.wall -= 1
    elif kind == "flower" and seat is not None:
        code = _code(data.get("flower", ""))
        seat.take(code)
        seat.flowers.append(code)
    elif kind == "indicator":
        if data.get("bonus_tile"):
            board.bonus_tile = str(data["bonus_tile"])
        if data.get("wild"):
            board.wild = str(data["wild"])
            board.wall -= 1
    elif kind == "task":
        board.task = dict(data)
    elif kind == "discard" and seat is not None:
        tile = _code(data.get("tile", ""))
        from_draw = seat.drawn is not None and seat.drawn == tile
        seat.take(tile)
        seat.settle_drawn()
        seat.discards.append(
            Discard(tile, from_draw, seat.ready_pending, bool(data.get("auto")))
        )
        seat.ready_pending = False
        board.last = {"seat": seat_no, "index": len(seat.discards) - 1}
    elif kind == "ready" and seat is not None:
        seat.ready = True
        seat.ready_pending = data.get("tile") is not None
    elif kind in ("chi", "pung", "kong") and seat is not None:
        other = board.seats[1 - (seat_no or 0)]
        if kind == "chi":
            tiles = [_code(t) for t in data.get("tiles") or []]
            claimed = _code(data.get("claimed", ""))
        else:
            claimed = _code(data.get("tile", ""))
            tiles = [claimed] * (3 if kind == "pung" else 4)
        if other.discards and other.discards[-1].tile == claimed:
            other.discards.pop()
        board.last = None
        rest = list(tiles)
        if claimed in rest:
            rest.remove(claimed)
        seat.settle_drawn()
        for t in rest:
            seat.take(t)
        seat.melds.append(MeldShown(kind, tuple(tiles), claimed))
    elif kind == "concealed_kong" and seat is not None:
        tile = _code(data.get("tile", ""))
        seat.settle_drawn()
        for _ in range(4):
            seat.take(tile)
        seat.melds.append(MeldShown("concealed_kong", (tile,) * 4))
    elif kind == "kong_completed" and seat is not None:
        tile = _code(data.get("tile", ""))
        seat.take(tile)
        seat.settle_drawn()
        for i, m in enumerate(seat.melds):
            if m.kind == "pung" and m.tiles and m.tiles[0] == tile:
                seat.melds[i] = MeldShown("kong", (tile,) * 4, m.claimed)
                break
    elif kind == "swap" and seat is not None:
        out = data.get("out")
        if out:
            seat.take(str(out))
            seat.settle_drawn()
            seat.swapped.append(str(out))
        seat.swaps = int(data.get("swaps", seat.swaps + 1))
    elif kind == "win_declined" and seat is not None:
        seat.win_doubles = int(data.get("win_doubles", seat.win_doubles + 1))
    elif kind == "auto_play" and seat is not None:
        seat.auto_play = bool(data.get("on"))
    elif kind == "hand_ended":
        _end(board, data)
    return True


def _end(board: Board, data: dict[str, Any]) -> None:
    board.result = {
        k: data.get(k)
        for k in (
            "reason",
            "winner",
            "loser",
            "self_drawn",
            "robbed_kong",
            "win_tile",
            "fan_total",
            "fans",
            "task_done",
            "settlement",
        )
    }
    winner = data.get("winner")
    win_tile = data.get("win_tile")
    hands = data.get("hands")
    if winner in (0, 1) and win_tile and not data.get("self_drawn"):
        loser = board.seats[1 - int(winner)]
        if data.get("robbed_kong"):
            loser.take(str(win_tile))
        elif loser.discards and loser.discards[-1].tile == win_tile:
            loser.discards.pop()
        board.last = None
    for i in (0, 1):
        s = board.seats[i]
        if isinstance(hands, list) and len(hands) == 2 and isinstance(hands[i], list):
            tiles = [_code(t) for t in hands[i]]
            if i == winner and win_tile and str(win_tile) in tiles:
                tiles.remove(str(win_tile))
                s.concealed, s.drawn = tiles, str(win_tile)
            else:
                s.concealed, s.drawn = tiles, None
            _sort(s.concealed)
        else:
            s.settle_drawn()
    board.turn = winner if winner in (0, 1) else None


def build_steps(events: Sequence[Event]) -> list[Step]:
    """Return every step of a hand's log (see the module docstring).

    Raises:
        ValueError: the log does not start with ``hand_started``.
    """
    if not events or events[0].kind != "hand_started":
        raise ValueError("a hand log starts with hand_started")
    board = Board()
    _apply(board, events[0])
    steps = [Step(0, 0, "start", None, dict(events[0].payload), False, board.as_dict())]
    pending_timeout = False
    i = 1
    while i < len(events):
        ev = events[i]
        if ev.kind == "timeout":
            pending_timeout = True
            i += 1
            continue
        shown = _apply(board, ev)
        # both seats' deal events make one step
        while (
            ev.kind == "deal" and i + 1 < len(events) and events[i + 1].kind == "deal"
        ):
            i += 1
            ev = events[i]
            _apply(board, ev)
        if shown:
            steps.append(
                Step(
                    index=len(steps),
                    seq=ev.seq,
                    kind=ev.kind,
                    seat=None if ev.kind == "deal" else ev.seat,
                    data=dict(ev.payload or {}),
                    timeout=pending_timeout,
                    board=board.as_dict(),
                )
            )
            pending_timeout = False
        i += 1
    return steps


def step_of(steps: Sequence[Step], seq: int) -> int:
    """Index of the step the event ``seq`` belongs to (the last step if past)."""
    from bisect import bisect_left

    i = bisect_left([st.seq for st in steps], seq)
    return min(i, len(steps) - 1)
