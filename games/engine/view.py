"""``view(seat)``: what one seat may see of a hand, as JSON-ready data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..rules.melds import MeldKind
from ..rules.tiles import ALL_TILES, NUM_KINDS, Tile
from .actions import JSON
from .errors import InvalidActionError
from .state import Phase
from .task import task_state

if TYPE_CHECKING:
    from .hand import Hand


_TEXT = tuple(str(t) for t in ALL_TILES)
_t = _TEXT.__getitem__  # tile index -> notation


WHITE_DRAGON = "5z"


def tile_mark(code: object, wild: object, bonus: object) -> str:
    """How a tile of a seat's own hand is marked, by tile codes (``"5z"``).

    ``wild`` (the 财神 kind, seed 002), ``standin`` (白板 standing in for the
    财神 kind's own face: "白板代替财神牌"; not when 白板 is itself the 财神),
    ``bonus`` (the 加番牌, seed 001) or ``""``.  ``wild``/``bonus`` are the
    view's ``indicators`` (``None`` without them).
    """
    if not code:
        return ""
    if wild and code == wild:
        return "wild"
    if wild and code == WHITE_DRAGON and wild != WHITE_DRAGON:
        return "standin"
    if bonus and code == bonus:
        return "bonus"
    return ""


def render_view(hand: Hand, seat: int) -> dict[str, JSON]:
    """What ``seat`` may see, JSON-ready.

    Own tiles (sorted, the drawn tile apart), the opponent's concealed
    count (its tiles only under 明牌 or after the end), melds (the
    opponent's 暗杠 face down), discards, flowers, wall count,
    indicators, whose turn, deadline, legal actions, doubles, 任务, and
    ``short_win``: tiles that would have completed this seat's hand but
    below the minimum fan (``[{tile, fan, needed}]``).
    Never the wall, the seed (before the end) or hidden tiles.
    """
    s = hand.state
    if seat not in (0, 1):
        raise InvalidActionError("seat must be 0 or 1")
    ended = s.phase is Phase.ENDED

    def side(i: int) -> dict[str, JSON]:
        mine = i == seat
        show = mine or ended or s.open_hand[i]
        counts = s.concealed[i]
        drawn = s.drawn[i]
        n_tiles = sum(counts)
        melds: list[JSON] = []
        for m in s.melds[i]:
            hidden = m.kind is MeldKind.CONCEALED_KONG and not (mine or ended)
            melds.append(
                {
                    "kind": m.kind.value,
                    "tiles": None if hidden else [str(t) for t in m.tiles],
                }
            )
        out: dict[str, JSON] = {
            "seat": i,
            "wind": str(hand.seat_wind(i)),
            "concealed_count": n_tiles,
            "melds": melds,
            "discards": [_t(t) for t in s.discards[i]],
            "flowers": [_t(t) for t in s.flowers[i]],
            "ready": s.ready[i],
            # where its 报听 began in ``discards`` (the discard made with it
            # and the locked hand's after it), None before a 报听
            "ready_discard_index": s.ready_pool[i] if s.ready[i] else None,
            "auto_play": s.auto[i],
            "open_hand": s.open_hand[i],
            "start_double": s.start_double[i],
            "deal_double": s.deal_double[i],
            "win_doubles": s.win_doubles[i],
            "swaps": s.swaps[i],
        }
        if show:
            standing = list(counts)
            if drawn is not None and not ended:
                standing[drawn] -= 1
            text: list[str] = []
            for k, n in enumerate(standing):
                if n:
                    text += (_TEXT[k],) * n
            out["concealed"] = text
            out["drawn"] = None if drawn is None or ended else _t(drawn)
        if mine or ended:
            out["swapped"] = [_t(t) for t in s.swapped[i]]
        return out

    return {
        "seq": s.seq,
        "ruleset": s.ruleset,
        "seat": seat,
        "dealer": s.dealer,
        "round_wind": _t(s.round_wind),
        "phase": s.phase.value,
        "turn": s.turn,
        "pending": [i for i in (0, 1) if s.pending[i]],
        "deadline": s.deadline,
        "wall_count": s.wall_count,
        "commitment": s.commitment,
        "last_discard": None if s.last_discard is None else _t(s.last_discard),
        "indicators": {
            "bonus_tile": None if s.bonus_tile is None else _t(s.bonus_tile),
            "wild": None if s.wild is None else _t(s.wild),
        },
        "task": None if s.task is None else s.task.to_json(),
        # how this seat stands with the 任务 (games.engine.task.task_state)
        "task_state": task_state(s, seat),
        # this seat's tiles since its last action that completed its hand
        # below the minimum (own tiles only: nothing about the opponent)
        "short_win": [
            {"tile": _t(t), "fan": fan, "needed": hand.ruleset.min_fan}
            for t, fan in s.short_win[seat]
        ],
        "me": side(seat),
        "opponent": side(1 - seat),
        "legal_actions": [a.to_json() for a in hand.legal_actions(seat)],
        "result": s.result,
        "seed": s.seed if ended else None,
    }


def visible_counts(view: Mapping[str, Any]) -> list[int]:
    """Per kind (34 entries), the copies the seat of ``view`` can see.

    ``view`` is :func:`render_view`'s value: both sides' concealed tiles (the
    opponent's only when shown), drawn tiles, melds and discards, and the 财神
    indicator; clamped at 4.  ``4 - n`` is what the seat counts as left of a
    wait.
    """
    seen = [0] * NUM_KINDS

    def add(text: str | None) -> None:
        if text:
            i = Tile.parse(text).index
            if i < NUM_KINDS:
                seen[i] += 1

    for key in ("me", "opponent"):
        side = view[key]
        for t in side.get("concealed") or ():
            add(t)
        add(side.get("drawn"))
        for m in side["melds"]:
            for t in m["tiles"] or ():
                add(t)
        for t in side["discards"]:
            add(t)
    add(view["indicators"].get("wild"))
    return [min(n, 4) for n in seen]
