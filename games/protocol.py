"""The browser's table messages (interface layer): what they ask for.

A websocket message (``{"action": "continue"}``) or a form post
(``/table/<id>/continue/``) names either a table-level request, which
:data:`TABLE_REQUESTS` maps to the one service in ``games.services.tables``
that carries it out (the services take no request names: issue 15, no
string dispatch under named wrappers), or a move in the hand, which
:func:`parse_move` reads into a typed :class:`~games.services.moves.Move`
for ``games.services.act.table_act``.  :func:`refusal_message` turns what a
service refused into the short sentence the player sees.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, cast

from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from games.engine.errors import (
    ActionError,
    AheadActionError,
    HandOverError,
    IllegalActionError,
    InvalidActionError,
    OutOfTurnError,
    StaleActionError,
)
from games.rules.errors import NotationError
from games.rules.tiles import Tile, parse_tiles

from .models import Table
from .services import tables
from .services.errors import TableError
from .services.moves import MOVE_KINDS, Move, MoveKind

log = logging.getLogger(__name__)


class TableRequest(Protocol):
    """A table-level request: ``(*, user, table_id) -> Table`` (the table the
    player is at afterwards: for 分组 a new one)."""

    def __call__(self, *, user: User, table_id: int) -> Table: ...


#: request name (the ``action`` a browser sends) → the service answering it
TABLE_REQUESTS: dict[str, TableRequest] = {
    "continue": tables.table_continue,
    "regroup": tables.table_regroup,
    "leave": tables.table_leave,
    "accept_bot": tables.table_accept_bot,
}


# ----------------------------------------------------------------- moves
ALIASES = {
    "hu": "win",
    "ting": "ready",
    "auto": "auto_play",
    "tuoguan": "auto_play",
}
"""Button names (data-action) → move kinds."""

BAD_SEQ = gettext_lazy("缺少或无效的序号")
BAD_TILE = gettext_lazy("牌名无效")
UNKNOWN_ACTION = gettext_lazy("未知的操作")


class RequestError(InvalidActionError):
    """A malformed browser request, with the fixed message its player sees.

    ``str(exc)`` is the detail for the server log (it may quote the request);
    ``player_message`` never does (see :func:`refusal_message`).
    """

    def __init__(self, detail: str, player_message: Any) -> None:
        super().__init__(detail)
        self.player_message = player_message


_FLAG_TEXT = {"true": True, "1": True, "false": False, "0": False}


def _flag(value: object, name: str) -> bool:
    """A yes/no field: JSON true/false, or the form strings "true"/"false"/"1"/"0".

    Raises:
        InvalidActionError: anything else ("yes", 2, a list, …).
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _FLAG_TEXT:
        return _FLAG_TEXT[value.strip().lower()]
    raise InvalidActionError(f"{name} must be true or false")


def _seq(payload: dict[str, Any]) -> int:
    raw = payload.get("seq")
    if raw is None or raw == "":
        raise RequestError("缺少序号 seq", BAD_SEQ)
    if isinstance(raw, bool):
        raise RequestError("序号 seq 必须是整数", BAD_SEQ)
    try:
        return int(raw)
    except (TypeError, ValueError, OverflowError):  # OverflowError: 1e999
        text = repr(raw)[:40]
        raise RequestError(f"序号 seq 必须是整数，收到 {text}", BAD_SEQ) from None


def action_kind(payload: object) -> str:
    """Return the (alias-resolved) kind a browser payload asks for.

    Raises:
        InvalidActionError: not a JSON object, or no ``action`` string.
    """
    if not isinstance(payload, dict):
        raise InvalidActionError("消息必须是 JSON 对象")
    kind = payload.get("action", payload.get("kind"))
    if not isinstance(kind, str) or not kind:
        raise InvalidActionError("缺少操作名 action")
    return ALIASES.get(kind, kind)


def _tiles(value: object) -> tuple[Tile, ...] | None:
    """``tiles`` of 吃: "345m" or a list of tile names."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return tuple(parse_tiles(value))
        except NotationError as exc:
            raise RequestError(f"tiles: {exc}", BAD_TILE) from exc
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InvalidActionError("tiles must be a list of tiles such as '5m'")
    try:
        return tuple(Tile.parse(t) for t in value)
    except NotationError as exc:
        raise InvalidActionError(f"tiles: {exc}") from exc


def parse_move(payload: object) -> Move:
    """Read a browser payload into the move it asks for.

    The payload is ``{"action": kind, "seq": N, ...fields}`` as htmx's
    ``ws-send`` sends a form (values may be strings): ``tile`` "5m",
    ``tiles`` "345m" or a list, ``on``/``open_hand``/``double`` flags.
    Button aliases: hu → win, ting → ready, auto → auto_play (toggle when
    ``on`` is absent), open → 明牌 before the deal, double → 开始加倍 before
    the deal or 加倍 after it, kong → whichever kong (on the discard, 暗杠,
    加杠) is legal for ``tile``.  The seat comes from the session, never
    from the payload.

    Raises:
        InvalidActionError: malformed payload, unknown action, bad tiles
            (a :class:`RequestError` says what to tell the player).
    """
    kind = action_kind(payload)
    assert isinstance(payload, dict)
    seq = _seq(payload)
    raw = payload.get("tile")
    tile = None
    if raw is not None and raw != "":
        if not isinstance(raw, str):
            raise RequestError("tile 必须是牌名，例如 5m", BAD_TILE)
        try:
            tile = Tile.parse(raw)
        except NotationError as exc:
            raise RequestError(f"tile: {exc}", BAD_TILE) from exc
    if kind == "open":
        return Move(
            kind="pre_deal",
            seq=seq,
            open_hand=True,
            double=_flag(payload.get("double", False), "double"),
        )
    if kind == "double":
        return Move(
            kind="double",
            seq=seq,
            double=_flag(payload.get("double", True), "double"),
            open_hand=_flag(payload.get("open_hand", False), "open_hand"),
        )
    if kind == "pre_deal":
        return Move(
            kind="pre_deal",
            seq=seq,
            open_hand=_flag(payload.get("open_hand", False), "open_hand"),
            double=_flag(payload.get("double", False), "double"),
        )
    if kind == "auto_play":
        on = payload.get("on")
        return Move(
            kind="auto_play", seq=seq, on=None if on in (None, "") else _flag(on, "on")
        )
    if kind == "chi":
        return Move(kind="chi", seq=seq, tiles=_tiles(payload.get("tiles")))
    if kind not in MOVE_KINDS:
        raise RequestError(f"未知操作 {kind!r}", UNKNOWN_ACTION)
    return Move(kind=cast(MoveKind, kind), seq=seq, tile=tile)


# ------------------------------------------------------------- refusals
REFUSALS: list[tuple[type[ActionError], Any]] = [
    (StaleActionError, gettext_lazy("牌局已更新，请按当前状态操作")),
    (AheadActionError, gettext_lazy("序号无效，请按当前状态操作")),
    (OutOfTurnError, gettext_lazy("还没轮到你")),
    (HandOverError, gettext_lazy("这一盘已经结束")),
    (InvalidActionError, gettext_lazy("无法识别的操作")),
    (IllegalActionError, gettext_lazy("现在不能这样操作")),
]
"""Engine error type → the short message a player sees (first match wins)."""

LOG_DETAIL_MAX = 300
"""Characters of a refusal's detail kept in the server log."""

PLAYER_TEXT_MAX = 60
"""A table message longer than this is cut (it may quote a request)."""


def refusal_message(exc: Exception) -> str:
    """The short, translated message shown to a player for a refused request.

    Engine errors map by type to a fixed sentence (the detail, which may quote
    the player's input, goes to the server log, truncated, never to the
    page); an error may carry its own ``player_message`` (a
    :class:`RequestError`, games.services.moves.StaleToggleError); a
    :class:`TableError` is already a player message.  Translated in the
    active language (the consumer activates the player's).
    """
    for cls, text in REFUSALS:
        if isinstance(exc, cls):
            text = getattr(exc, "player_message", None) or text
            detail = str(exc)
            if len(detail) > LOG_DETAIL_MAX:
                detail = detail[:LOG_DETAIL_MAX] + "…"
            log.info("refused (%s): %s", type(exc).__name__, detail)
            return str(text)
    if isinstance(exc, TableError):
        text = str(exc)
        return text if len(text) <= PLAYER_TEXT_MAX else text[:PLAYER_TEXT_MAX] + "…"
    log.info("refused (%s)", type(exc).__name__)
    return gettext("无法识别的操作")
