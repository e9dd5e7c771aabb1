"""A seat's move as the browser asked for it, and the engine action it means.

The interface layer (games.protocol) reads the browser's message into a
:class:`Move`: typed values, no strings left to parse.  Some moves mean a
different engine action depending on the hand (加倍 before or after the
deal, 托管 as a toggle, "杠" whichever kong is legal), so the move is
resolved against the hand here, under the table lock (:func:`move_action`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

from django.utils.translation import gettext_lazy

from games.engine.actions import Action, AutoPlay, Ready, action_from_json
from games.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    StaleActionError,
)
from games.engine.hand import Hand
from games.engine.state import Phase
from games.rules.tiles import Tile

MoveKind = Literal[
    "discard",
    "win",
    "pass",
    "chi",
    "pung",
    "kong",
    "concealed_kong",
    "added_kong",
    "ready",
    "swap",
    "pre_deal",
    "double",
    "auto_play",
]
"""What a seat may ask for: the engine's action kinds but ``timeout`` (only
a deadline makes that one)."""

MOVE_KINDS: frozenset[str] = frozenset(get_args(MoveKind))


@dataclass(frozen=True, kw_only=True)
class Move:
    """One seat's move, before the hand resolves it (the seat comes from
    the table, never from the browser).

    ``kind`` ``double`` is 开始加倍 (with ``open_hand``) before the deal and
    加倍 after it; ``kong`` is whichever kong is legal for ``tile`` (any one
    when ``tile`` is None); ``auto_play`` with ``on`` None toggles 托管.
    ``double`` None means the kind's default (True for ``double``, False for
    ``pre_deal``).
    """

    kind: MoveKind
    seq: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] | None = None
    on: bool | None = None
    open_hand: bool = False
    double: bool | None = None

    def __post_init__(self) -> None:
        if self.kind not in MOVE_KINDS:
            raise InvalidActionError(f"unknown move {self.kind!r}")


def move_action(*, move: Move, hand: Hand, seat: int) -> Action:
    """The engine action ``move`` means for ``seat`` in ``hand`` now.

    Raises:
        InvalidActionError: fields the action needs are missing or wrong.
        IllegalActionError: a ``kong`` with no legal kong for its tile.
    """
    state = hand.state
    tile = None if move.tile is None else str(move.tile)
    data: dict[str, Any] = {"seat": seat, "seq": move.seq, "kind": move.kind}
    if move.kind == "kong":
        return _resolve_kong(hand, seat, move.seq, tile)
    if move.kind == "double" and state.phase is Phase.PRE_DEAL:
        data.update(
            kind="pre_deal",
            double=True if move.double is None else move.double,
            open_hand=move.open_hand,
        )
    elif move.kind == "double":
        data.update(double=True if move.double is None else move.double)
    elif move.kind == "pre_deal":
        data.update(open_hand=move.open_hand, double=bool(move.double))
    elif move.kind == "auto_play":
        data.update(on=(not state.auto[seat]) if move.on is None else move.on)
    elif move.kind == "chi":
        data.update(tiles=None if move.tiles is None else [str(t) for t in move.tiles])
    elif move.kind in ("discard", "swap", "concealed_kong", "added_kong", "ready"):
        data.update(tile=tile)
    return action_from_json(data)


def _resolve_kong(hand: Hand, seat: int, seq: int, tile: str | None) -> Action:
    """The legal kong for ``tile``, or any one."""
    options = [
        a
        for a in hand.legal_actions(seat)
        if a.kind in ("kong", "concealed_kong", "added_kong")
    ]
    last = hand.state.last_discard
    for a in options:
        a_tile = getattr(a, "tile", None)
        if a.kind == "kong" and last is not None:
            a_tile = Tile.from_index(last)
        if tile is None or str(a_tile) == tile:
            return action_from_json({**a.to_json(), "seq": seq})
    raise IllegalActionError("现在不能杠" + (f" {tile}" if tile else ""))


STALE_TOGGLE = gettext_lazy(
    "这个托管或报听请求来自旧的画面，没有生效；请按当前状态再操作"
)


class StaleToggleError(StaleActionError):
    """托管 or a tile-less 报听 sent with an old ``seq`` (an old tab)."""

    player_message = STALE_TOGGLE


def cancel_auto_now(
    *, move: Move, action: Action, hand: Hand, rob_veiled: bool
) -> Action:
    """A 取消托管 answers the hand as it is now, whatever screen it came from.

    托管 plays a seat's moves as fast as the table allows (against a bot,
    several a second), so the player's 取消托管 press nearly always carries a
    number the hand has already passed, and was refused as stale (tester,
    issue 15 session: 2 presses in 3).  An explicit "off" (``on`` False) is
    safe from any screen: it only hands the seat back to its player.  So
    when ``move`` says ``on`` False and the seat is in 托管, ``action`` (what
    the move means, :func:`move_action`) is renumbered to the hand's current
    ``seq``.  Under a claim veil the answer is the same whether or not a
    window is really open (a veiled seat's 托管 at the shown number is taken
    at "now" too, games.services.veil.unveil_seq), so nothing leaks; under a
    加杠's ROB veil, where 托管 is refused, and for a toggle without ``on``
    or an "on", the number is kept (and :func:`refuse_stale_toggle` still
    refuses an old one).  Returns the action to apply.
    """
    if (
        move.on is False
        and isinstance(action, AutoPlay)
        and not action.on
        and not rob_veiled
        and hand.state.auto[action.seat]
        and action.seq < hand.seq
    ):
        return dataclasses.replace(action, seq=hand.seq)
    return action


def refuse_stale_toggle(*, action: Action, hand: Hand) -> None:
    """Refuse 托管 and tile-less 报听 unless they answer the current ``seq``.

    The engine takes these two without a prompt, so it refuses only a
    ``seq`` older than the seat's own last action; an old tab could flip
    托管 or declare 报听 long after (issue 11 §5.8).  The live table asks
    for the hand's current ``seq`` (the veiled seat's shown number maps to
    it, games.services.veil.unveil_seq).  Checked here, not in the engine, so
    logs written before stay replayable.

    Raises:
        StaleToggleError: ``action`` is such a request with an older ``seq``.
    """
    unprompted = isinstance(action, AutoPlay) or (
        isinstance(action, Ready) and action.tile is None
    )
    if unprompted and action.seq < hand.seq:
        raise StaleToggleError(
            f"{action.kind} at seq {action.seq}, the hand is at {hand.seq}"
        )
