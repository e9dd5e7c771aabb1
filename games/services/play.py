"""Playing a hand at a table: start, apply actions, timers, 托管, the veil.

Every write here runs in one transaction holding the table row lock
(``select_for_update``), so two processes (Daphne consumers, Celery workers)
never change a table at the same time; the engine's ``Hand`` is loaded from
the per-process cache or rebuilt from seed + log (games.services.hands).
After the commit every consumer of the table is told to render its own
seat's frame (``notify_table``), and the next deadline job is scheduled.

The veil (issue 6; issue 11 §5.2): whether the opponent could claim a
discard, or rob a 加杠, must not show in anything the discarder observes —
``seq``, frames and their order, timer fields, timing.  The engine opens the
windows in both cases; the hands are dealt with ``turn_from_discard`` (the
opponent's turn deadline counts from the discard, seed 000); and
games.services.veil decides what the discarder's frame shows meanwhile.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from games.engine.actions import (
    ACTION_TYPES,
    Action,
    AutoPlay,
    Discard,
    Pass,
    Ready,
    Timeout,
    Win,
    action_from_json,
)
from games.engine.bots import Bot, make_bot
from games.engine.errors import (
    ActionError,
    AheadActionError,
    HandOverError,
    IllegalActionError,
    InvalidActionError,
    OutOfTurnError,
    StaleActionError,
)
from games.engine.events import Event
from games.engine.hand import Hand
from games.engine.state import Phase
from games.rules.errors import NotationError
from games.rules.tiles import Tile, parse_tiles
from mahjong_site.prepared import PreparedQuery

from ..models import HandRecord, Table
from ..presence import seat_present
from .hands import event_to_row, forget_hand, hand_lock, load_hand, remember_hand
from .notify import notify_table, schedule, scheduler_mode
from .unplayable import annul_on_failure
from .veil import active_veil, set_veil, unveil_seq, update_veil

log = logging.getLogger(__name__)


class TableError(ValueError):
    """A request the table refuses; ``str(exc)`` is shown to the player.

    ``message`` is a msgid marked with ``gettext_lazy`` (Chinese, with
    ``%(name)s`` placeholders) and ``params`` its values (strings, numbers or
    lazy strings); ``str(exc)`` translates both in the language active when it
    is read, so a refusal raised in a service is shown in the player's
    language by the consumer or view that catches it (issue 11 §6).
    """

    def __init__(self, message: Any, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        text = str(self.message)
        if not self.params:
            return text
        return text % {k: str(v) for k, v in self.params.items()}


ALIASES = {
    "hu": "win",
    "ting": "ready",
    "auto": "auto_play",
    "tuoguan": "auto_play",
}
"""Button names (data-action) → engine action kinds."""

META_ACTIONS = frozenset({"continue", "regroup", "leave", "accept_bot", "sync"})
"""Table-level requests handled outside the engine."""

_BOTS: dict[int, Bot] = {}


def _epoch(dt: datetime | None) -> float | None:
    return None if dt is None else dt.timestamp()


def _dt(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def lock_table(table_id: int) -> Table:
    """Fetch and lock the table row (call inside ``transaction.atomic``).

    Raises:
        TableError: no such table.
    """
    table = _LOCKED_TABLE.first(table_id)
    if table is None:
        raise TableError(gettext_lazy("牌桌不存在。"))
    return table


_LOCKED_TABLE: PreparedQuery[Table] = PreparedQuery(
    lambda pk: (
        Table.objects.select_for_update(of=("self",))
        .select_related("room", "hand", "match")
        .order_by()
        .filter(pk=pk)
    )
)
"""The row :func:`lock_table` reads, compiled once (every move runs it)."""


def _bot_for(table: Table) -> Bot:
    bot = _BOTS.get(table.pk)
    if bot is None or bot.level != table.bot_level:
        bot = make_bot(table.bot_level or "normal", random.Random(secrets.randbits(64)))
        if len(_BOTS) > 4096:
            _BOTS.clear()
        _BOTS[table.pk] = bot
    return bot


# --------------------------------------------------------------------- parsing
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


class RequestError(InvalidActionError):
    """A malformed browser request, with the fixed message its player sees.

    ``str(exc)`` is the detail for the server log (it may quote the request);
    ``player_message`` never does (see :func:`refusal_message`).
    """

    def __init__(self, detail: str, player_message: Any) -> None:
        super().__init__(detail)
        self.player_message = player_message


BAD_SEQ = gettext_lazy("缺少或无效的序号")
BAD_TILE = gettext_lazy("牌名无效")
UNKNOWN_ACTION = gettext_lazy("未知的操作")


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


def check_action(payload: dict[str, Any], hand: Hand, seat: int) -> Action:
    """Turn a browser payload into an engine action for ``seat``.

    The payload is ``{"action": kind, "seq": N, ...fields}`` as htmx's
    ``ws-send`` sends a form (values may be strings): ``tile`` "5m",
    ``tiles`` "345m" or a list, ``on``/``open_hand``/``double`` flags.
    Button aliases: hu → win, ting → ready, auto → auto_play (toggle when
    ``on`` is absent), open → 明牌 before the deal, double → 开始加倍 before
    the deal or 加倍 after it, kong → whichever kong (on the discard, 暗杠,
    加杠) is legal for ``tile``.  The seat comes from the session, never
    from the payload.

    Raises:
        InvalidActionError: malformed payload, unknown action, bad tiles.
    """
    kind = action_kind(payload)
    seq = _seq(payload)
    state = hand.state
    data: dict[str, Any] = {"seat": seat, "seq": seq}
    tile = payload.get("tile")
    if tile == "":
        tile = None
    if tile is not None:
        if not isinstance(tile, str):
            raise RequestError("tile 必须是牌名，例如 5m", BAD_TILE)
        try:
            Tile.parse(tile)
        except NotationError as exc:
            raise RequestError(f"tile: {exc}", BAD_TILE) from exc
    if kind == "open":
        data.update(
            kind="pre_deal",
            open_hand=True,
            double=_flag(payload.get("double", False), "double"),
        )
    elif kind == "double":
        if state.phase is Phase.PRE_DEAL:
            data.update(
                kind="pre_deal",
                double=_flag(payload.get("double", True), "double"),
                open_hand=_flag(payload.get("open_hand", False), "open_hand"),
            )
        else:
            data.update(
                kind="double", double=_flag(payload.get("double", True), "double")
            )
    elif kind == "pre_deal":
        data.update(
            kind="pre_deal",
            open_hand=_flag(payload.get("open_hand", False), "open_hand"),
            double=_flag(payload.get("double", False), "double"),
        )
    elif kind == "auto_play":
        on = payload.get("on")
        data.update(
            kind="auto_play",
            on=(not state.auto[seat]) if on in (None, "") else _flag(on, "on"),
        )
    elif kind == "kong":
        return _resolve_kong(hand, seat, seq, tile)
    elif kind == "chi":
        tiles = payload.get("tiles")
        if isinstance(tiles, str):
            try:
                tiles = [str(t) for t in parse_tiles(tiles)]
            except NotationError as exc:
                raise RequestError(f"tiles: {exc}", BAD_TILE) from exc
        data.update(kind="chi", tiles=tiles)
    elif kind in ("discard", "swap", "concealed_kong", "added_kong"):
        data.update(kind=kind, tile=tile)
    elif kind == "ready":
        data.update(kind="ready", tile=tile)
    elif kind in ("win", "pass"):
        data.update(kind=kind)
    elif kind == "timeout" or kind not in ACTION_TYPES:
        raise RequestError(f"未知操作 {kind!r}", UNKNOWN_ACTION)
    else:  # pragma: no cover - every engine kind is handled above
        data.update(kind=kind)
    return action_from_json(data)


def _resolve_kong(hand: Hand, seat: int, seq: int, tile: str | None) -> Action:
    """The legal kong for ``tile`` (already checked notation), or any one."""
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


def _refuse_stale_toggle(action: Action, hand: Hand) -> None:
    """Refuse 托管 and tile-less 报听 unless they answer the current ``seq``.

    The engine takes these two without a prompt, so it refuses only a
    ``seq`` older than the seat's own last action; an old tab could flip
    托管 or declare 报听 long after (issue 11 §5.8).  The live table asks
    for the hand's current ``seq`` (the veiled seat's shown number maps to
    it, games.services.veil.unveil_seq).  Checked here, not in the engine, so logs
    written before stay replayable.

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
    page); a :class:`TableError` is already a player message.  Translated in
    the active language (the consumer activates the player's).
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


# ------------------------------------------------------------------ hand start
def start_hand(table: Table, *, now: float | None = None) -> HandRecord:
    """Deal a new hand at ``table`` (locked by the caller) and persist its log.

    Seeds come from :mod:`secrets`; the log's first event carries only the
    SHA-256 commitment, the seed is revealed when the hand ends.  Balances for
    the coin cap are the players' 游戏币 now (a bot table uses the human's
    for both; it is practice and moves nothing).

    Raises:
        TableError: a seat is empty.
    """
    from accounts.models import Profile

    now = time.time() if now is None else now
    match = table.match
    if match is None or table.seat0_id is None:
        raise TableError(gettext_lazy("牌桌还没有坐满"))
    if table.seat1_id is None and not table.is_bot:
        raise TableError(gettext_lazy("牌桌还没有坐满"))
    coins = dict(
        Profile.objects.filter(
            user_id__in=[u for u in (table.seat0_id, table.seat1_id) if u]
        ).values_list("user_id", "coins")
    )
    c0 = max(0, coins.get(table.seat0_id, 0))
    c1 = c0 if table.is_bot else max(0, coins.get(table.seat1_id, 0))
    seed = secrets.token_hex(16)
    hand = Hand.new(
        table.room.ruleset,
        now=now,
        seed=seed,
        dealer=match.dealer,
        round_wind=Tile.parse(match.round_wind),
        stake=table.room.stake,
        balances=(c0, c1),
        prompt_locked=True,  # 报听's forced discards are paced (_run_auto)
        turn_from_discard=True,  # the claim veil's deadlines (games.services.veil)
    )
    record = HandRecord.objects.create(
        table=table,
        match=match,
        number=match.hands_played + 1,
        seat0_id=table.seat0_id,
        seat1_id=table.seat1_id,
        ruleset=hand.ruleset.name,
        stake=table.room.stake,
        practice=table.is_bot,
        commitment=hand.state.commitment,
        secret_seed=seed,
    )
    table.hand = record
    table.status = Table.Status.PLAYING
    table.continue_votes = []
    table.settle_deadline = None
    table.veil = None
    events = list(hand.events)
    try:
        events += _run_auto(table, hand, now)
        _persist(table, record, hand, events, now)
    except Exception:
        forget_hand(record.pk)
        raise
    remember_hand(record.pk, hand)
    away = _away_since(table)
    for seat in (0, 1):
        if not table.is_human(seat):
            continue
        if away[seat] is not None:
            # left before this hand: 托管 a whole grace after leaving
            at = away[seat] + settings.MAHJONG_DISCONNECT_GRACE
        elif seat_present(table_id=table.pk, seat=seat, now=now):
            continue
        else:
            # not at the table yet (a 快速开始 pairing redirects the player
            # here right now): look again after one heartbeat
            at = now + settings.MAHJONG_PRESENCE_BEAT
        schedule("seat_away", [table.pk, seat, record.pk], at=max(now, at))
    return record


# ---------------------------------------------------------------- auto moves
def _automated_seat(table: Table, hand: Hand) -> int | None:
    """The pending seat whose move needs no person, if any.

    The bot, a seat in 托管, or a seat locked by 报听 whose only move is to
    discard its drawn tile (:meth:`Hand.locked_discard`; the live table's
    hands are dealt with ``prompt_locked``).  A locked person who can win or
    kong is asked.
    """
    if hand.ended:
        return None
    s = hand.state
    return next(
        (
            i
            for i in (0, 1)
            if s.pending[i]
            and (
                not table.is_human(i) or s.auto[i] or hand.locked_discard(i) is not None
            )
        ),
        None,
    )


def _discarders(events: Sequence[Event]) -> set[int]:
    """The seats that discarded in ``events``."""
    return {e.seat for e in events if e.kind == "discard" and e.seat is not None}


def _run_auto(
    table: Table, hand: Hand, now: float, before: Sequence[Event] = ()
) -> list[Event]:
    """Play the moves that need no human (:func:`_automated_seat`).

    A locked 报听 seat with no win or kong makes its forced discard
    (:meth:`Hand.locked_discard`, bot or person); otherwise a 托管 seat's
    move is chosen by :func:`_auto_move` (a bot, or the win) and the bot
    seat's by the table's bot.  Paced so people can follow the play: with
    ``MAHJONG_AUTO_PACE`` > 0 this stops before an automated move of a seat
    that has already discarded in this run — a full round of automated play
    (托管 or 报听 against the bot, two seats in 托管 or 报听) — and
    :func:`_persist` schedules :func:`do_auto_step` to go on ``pace``
    seconds later.  ``before``: the events of this request so far (a
    person's move or timeout); a seat that discarded there counts as having
    discarded in this run, so a locked person's forced discard waits a pace
    after their own.  A bot answering a person, or 托管 or 报听 answering a
    person's discard, still moves at once.  Returns the events.
    """
    out: list[Event] = []
    paced = settings.MAHJONG_AUTO_PACE > 0
    discarded = _discarders(before)
    for _ in range(1000):
        seat = _automated_seat(table, hand)
        if seat is None or (paced and seat in discarded):
            break
        forced = hand.locked_discard(seat)
        if forced is not None:
            action: Action = forced
        elif table.is_human(seat):
            action = _auto_move(table, hand, seat)
        else:
            action = _bot_for(table).choose(hand.view(seat), hand.legal_actions(seat))
        events = hand.apply(action, now=now)
        discarded |= _discarders(events)
        out += events
    return out


@annul_on_failure(lambda table_id, hand_id, *a, **k: hand_id)
def do_auto_step(
    table_id: int, hand_id: int, seq: int, *, now: float | None = None
) -> bool:
    """Go on with paced automated play (see :func:`_run_auto`) if still due.

    Runs under the table lock and does nothing unless hand ``hand_id`` is live
    at ``seq`` with an automated seat to move, so a job that fires twice or
    after a person acted changes nothing.  Returns whether it moved.
    """
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return False
        record = table.hand
        if (
            record is None
            or record.pk != hand_id
            or record.status != HandRecord.Status.LIVE
            or table.seq != seq
        ):
            return False
        now = time.time() if now is None else now
        with hand_lock(record.pk):
            hand = load_hand(record, seq=seq)
            if _automated_seat(table, hand) is None:
                return False
            try:
                events = _run_auto(table, hand, now)
                _persist(table, record, hand, events, now)
            except Exception:
                forget_hand(record.pk)
                raise
    return bool(events)


_AUTO_BOTS: dict[tuple[int, int], Bot] = {}


def _auto_move(table: Table, hand: Hand, seat: int) -> Action:
    """The move 托管 makes for a human ``seat`` (logged as that move).

    Seed 000 异常处理: a seat in 托管 that can win, wins; before the deal and
    at 加倍 it declines (托管 never raises a player's stake); otherwise the
    issue-5 bot of level ``MAHJONG_DEFAULT_BOT_LEVEL`` chooses among the
    legal actions.  A ``timeout`` is logged only when a deadline passes.
    """
    s = hand.state
    default = hand.default_action(seat)
    if default is None:  # pragma: no cover - only pending seats get here
        return Timeout(seat, s.seq)
    if table.closed_reason == "removed" and table.closed_seat == seat:
        return _removed_move(hand, seat, default)
    if isinstance(default, Win) or s.phase in (Phase.PRE_DEAL, Phase.DOUBLE):
        return default
    key = (table.pk, seat)
    level = settings.MAHJONG_DEFAULT_BOT_LEVEL or "normal"
    bot = _AUTO_BOTS.get(key)
    if bot is None or bot.level != level:
        bot = make_bot(level, random.Random(secrets.randbits(64)))
        if len(_AUTO_BOTS) > 4096:
            _AUTO_BOTS.clear()
        _AUTO_BOTS[key] = bot
    try:
        return bot.choose(hand.view(seat), hand.legal_actions(seat))
    except ValueError:  # pragma: no cover - a pending seat always has a move
        log.exception("托管 bot found no move for table %s seat %s", table.pk, seat)
        return default


def _removed_move(hand: Hand, seat: int, default: Action) -> Action:
    """托管 of a player suspended or banned during the hand (issue 14).

    It finishes the hand without playing for them: never a win, claim or
    kong — a pass when asked about a discard, the drawn tile (the timeout's
    discard) on its turn, every pre-deal choice declined — so the ban cannot
    win them coins; the opponent may still win.
    """
    if not isinstance(default, Win):
        return default
    s = hand.state
    legal = hand.legal_actions(seat)
    if s.phase is not Phase.TURN:
        return next((a for a in legal if isinstance(a, Pass)), default)
    drawn = s.drawn[seat]
    discards = [a for a in legal if isinstance(a, Discard)]
    same = [a for a in discards if drawn is not None and a.tile.index == drawn]
    return (same or discards or [default])[0]


def _persist(
    table: Table,
    record: HandRecord,
    hand: Hand,
    events: list[Event],
    now: float,
    *,
    reveal: dict[str, Any] | None = None,
) -> None:
    """Write ``events``, settle an ended hand, set the deadline, notify."""
    from ..models import HandEvent
    from .settlement import settle_hand

    HandEvent.objects.bulk_create([event_to_row(record, e) for e in events])
    table.seq = hand.seq
    table.deadline = None
    if hand.ended:
        table.veil = None
        settle_hand(table=table, record=record, hand=hand, now=now)
    else:
        update_veil(table, hand, now)  # whoever discarded (games.services.veil)
        _arm_timer(table, record, hand, now)
        if _automated_seat(table, hand) is not None:  # paced: go on shortly
            schedule(
                "table_auto_step",
                [table.pk, record.pk, hand.seq],
                at=now + settings.MAHJONG_AUTO_PACE,
            )
    table.save()
    notify_table(
        table.pk,
        reveal=reveal,
        hand_id=record.pk,
        events=[e.to_json() for e in events],
    )


def _arm_timer(table: Table, record: HandRecord, hand: Hand, now: float) -> None:
    """Set ``table.deadline`` and make sure a timeout job will look at it.

    In the "sweep" mode (the default with a broker) the deadline on the row
    is all: :func:`sweep_deadlines` finds it.  Otherwise one job per table is
    enough: a job that finds the table moved on re-arms
    for the current prompt (:func:`do_timeout`).  So a new job is scheduled
    only when none is pending early enough (``timer_at`` in the future and not
    after the new deadline); a job that was lost (``timer_at`` in the past) is
    replaced at the next move.
    """
    s = hand.state
    humans = [i for i in (0, 1) if s.pending[i] and table.is_human(i)]
    if hand.ended or not humans or s.deadline is None:
        return
    table.deadline = _dt(s.deadline)
    _arm_job(table, record, hand.seq, s.deadline, now)


def _arm_job(
    table: Table, record: HandRecord, seq: int, deadline: float, now: float
) -> None:
    if scheduler_mode() == "sweep":  # sweep_deadlines reads table.deadline
        table.timer_at = None
        return
    at = deadline + settings.MAHJONG_DEADLINE_SLACK
    pending = _epoch(table.timer_at)
    if pending is not None and now < pending <= at:
        return
    table.timer_at = _dt(at)
    schedule("table_deadline", [table.pk, record.pk, seq], at=at)


# -------------------------------------------------------------------- actions
def do_apply_action(
    table_id: int, user: Any, payload: object, *, now: float | None = None
) -> Table:
    """Apply a browser's action for ``user``'s seat at table ``table_id``.

    Locks the table row; loads the hand; parses the payload
    (:func:`check_action`); applies it with the engine; plays the bot's and
    托管 seats' moves until a human must act; persists the events; settles an
    ended hand; schedules the next deadline; on commit, notifies the table.
    Table-level requests (``continue``, ``regroup``, ``leave``,
    ``accept_bot``) go to games.services.tables.

    Returns the table (for ``regroup``: the player's new table).

    Raises:
        TableError: not seated here, no live hand.
        ActionError (InvalidActionError, StaleActionError, OutOfTurnError,
            IllegalActionError, HandOverError): refused by the engine; the
            hand and the database are unchanged.
    """
    from . import tables as table_services

    kind = action_kind(payload)
    assert isinstance(payload, dict)
    now = time.time() if now is None else now
    if kind in META_ACTIONS:
        return table_services.do_table_request(table_id, user, kind)
    with transaction.atomic():
        table = lock_table(table_id)
        seat = table.seat_of(getattr(user, "pk", None))
        if seat is None:
            raise TableError(gettext_lazy("你不在这张牌桌的座位上"))
        record = table.hand
        if record is None or record.status != HandRecord.Status.LIVE:
            raise TableError(gettext_lazy("现在没有进行中的牌局"))
        with hand_lock(record.pk):
            hand = load_hand(record, seq=table.seq)
            veil = active_veil(table, seat, hand, now)
            if veil is not None:
                payload = unveil_seq(
                    payload, hand, veil, action_kind(payload), _seq(payload)
                )
            action = check_action(payload, hand, seat)
            _refuse_stale_toggle(action, hand)
            try:
                events = hand.apply(action, now=now)
            except ActionError:
                raise  # refused: the hand is unchanged
            except Exception:
                forget_hand(record.pk)  # it may have changed halfway
                raise
            try:
                events += _run_auto(table, hand, now, events)
                reveal = set_veil(
                    table, hand, seat, action, now, kept=veil, added=len(events)
                )
                _persist(table, record, hand, events, now, reveal=reveal)
            except Exception:
                forget_hand(record.pk)
                raise
    return table


# -------------------------------------------------------------------- timers
def _clear_deadline(table: Table) -> None:
    """No person's prompt is open at this seq: nothing to time out (so the
    deadline sweep stops looking at the table)."""
    if table.deadline is not None:
        table.deadline = None
        table.save(update_fields=["deadline", "updated"])


@annul_on_failure(lambda table_id, hand_id, *a, **k: hand_id)
def do_timeout(
    table_id: int, hand_id: int, seq: int, *, now: float | None = None
) -> bool:
    """Apply ``timeout`` for every seat the prompt at ``seq`` still waits for.

    Runs under the table lock and does nothing unless the table's current
    hand is ``hand_id`` and still at ``seq`` — so a job that fires twice, or
    after the seat answered, changes nothing.  Returns whether it acted.  A
    hand the server cannot evaluate is annulled instead (issue 11 §5.1,
    games.services.unplayable), and False returned.
    """
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return False
        record = table.hand
        if record is None or record.status != HandRecord.Status.LIVE:
            return False
        now = time.time() if now is None else now
        if record.pk != hand_id or table.seq != seq:
            # moved on since this job was planned: watch the current prompt
            # (its deadline is on the row; no need to load the hand here)
            deadline = _epoch(table.deadline)
            if deadline is not None:
                _arm_job(table, record, table.seq, deadline, now)
                table.save(update_fields=["timer_at", "updated"])
            return False
        with hand_lock(record.pk):
            hand = load_hand(record, seq=seq)
            s = hand.state
            if s.deadline is None:
                _clear_deadline(table)
                return False
            if now < s.deadline - 0.5:  # fired early (clock skew): try again later
                table.timer_at = None
                _arm_timer(table, record, hand, now)
                table.save(update_fields=["deadline", "timer_at", "updated"])
                return False
            now = max(now, s.deadline)
            seats = [i for i in (0, 1) if s.pending[i] and table.is_human(i)]
            if not seats:
                _clear_deadline(table)
                return False
            events: list[Event] = []
            try:
                for seat in seats:
                    if hand.state.pending[seat] and not hand.ended:
                        events += hand.apply(Timeout(seat, hand.seq), now=now)
                events += _run_auto(table, hand, now, events)
                _persist(table, record, hand, events, now)
            except Exception:
                forget_hand(record.pk)
                raise
    return True


def sweep_deadlines(*, now: float | None = None, limit: int = 500) -> int:
    """Apply ``timeout`` at every playing table whose deadline has passed.

    The "sweep" scheduler (settings.MAHJONG_SCHEDULER): Celery beat runs
    this every MAHJONG_SWEEP_EVERY seconds (``games.sweep_deadlines``)
    instead of one countdown job per prompt, which cost about 0.4 Celery jobs
    per move (benchmarks/bench_ws.py).  Reads the tables whose
    ``deadline + MAHJONG_DEADLINE_SLACK`` is at or before ``now`` (epoch
    seconds, default the clock), at most ``limit`` of them, the most overdue
    first, and calls :func:`do_timeout` for each at the sequence number it
    read: a table that moved on meanwhile, or that another sweep (another
    worker) just handled, is left alone, so a timeout is applied once.
    Returns how many tables it acted on.  One table's error is logged and
    does not stop the others; a table whose hand cannot be evaluated is
    annulled by :func:`do_timeout` and leaves the sweep (issue 11 §5.1).
    """
    now = time.time() if now is None else now
    due = (
        Table.objects.filter(
            status=Table.Status.PLAYING,
            deadline__lte=_dt(now - settings.MAHJONG_DEADLINE_SLACK),
            hand__isnull=False,
        )
        .order_by("deadline")
        .values_list("pk", "hand_id", "seq")[:limit]
    )
    acted = 0
    for table_id, hand_id, seq in list(due):
        try:
            acted += do_timeout(table_id, hand_id, seq, now=now)
        except Exception:
            log.exception("deadline sweep: table %s failed", table_id)
    return acted


def _set_auto(table: Table, seat: int, on: bool, now: float) -> bool:
    record = table.hand
    if record is None or record.status != HandRecord.Status.LIVE:
        return False
    with hand_lock(record.pk):
        hand = load_hand(record, seq=table.seq)
        if hand.state.auto[seat] == on and _automated_seat(table, hand) is None:
            return False
        try:
            events = []
            if hand.state.auto[seat] != on:
                events += hand.apply(AutoPlay(seat, hand.seq, on), now=now)
            # also resumes paced automated play whose step job was lost (a
            # restart): a player opening the table is enough to go on
            events += _run_auto(table, hand, now)
            _persist(table, record, hand, events, now)
        except Exception:
            forget_hand(record.pk)
            raise
    return True


def _away_since(table: Table) -> list[float | None]:
    """Per seat, when its last websocket closed (epoch s), None if connected."""
    away = list(table.away_since or [])
    return [float(a) if a is not None else None for a in (away + [None, None])[:2]]


def note_connect(table_id: int, seat: int, *, now: float | None = None) -> None:
    """A websocket of ``seat`` opened (registered in games.presence first).

    The seat is back: its ``away_since`` is cleared (the opponent's frame
    drops "对手断线" and says "对手已回来") and control is handed back (托管
    off; both broadcast on change).
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return
        away = _away_since(table)
        if away[seat] is not None:
            away[seat] = None  # any pending grace job now finds the seat back
            table.away_since = away
            table.save(update_fields=["away_since", "updated"])
            notify_table(table.pk)
        _set_auto(table, seat, False, now)


def note_disconnect(table_id: int, seat: int, *, now: float | None = None) -> bool:
    """``seat`` may have gone: a websocket closed, or its presence expired.

    Presence (games.presence) decides: while another socket of the seat is
    live nothing happens.  Otherwise the first call records the moment in
    ``table.away_since`` (the grace starts), schedules a ``seat_away`` job for
    the end of the grace (``MAHJONG_DISCONNECT_GRACE`` seconds) and tells
    the opponent at once (issue 11 §4: "对手断线，N 秒后托管").  Idempotent:
    a seat already away keeps its moment.  Returns whether it marked the seat
    away.
    """
    now = time.time() if now is None else now
    if seat_present(table_id=table_id, seat=seat, now=now):
        return False
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return False
        return _mark_away(table, seat, now)


def _mark_away(table: Table, seat: int, now: float) -> bool:
    """Start ``seat``'s grace at ``now`` unless it has started (table locked)."""
    away = _away_since(table)
    if away[seat] is not None or not table.is_human(seat):
        return False
    if table.status not in (Table.Status.PLAYING, Table.Status.SETTLING):
        return False
    away[seat] = now
    table.away_since = away
    table.save(update_fields=["away_since", "updated"])
    if table.hand_id is not None and table.status == Table.Status.PLAYING:
        schedule(
            "seat_away",
            [table.pk, seat, table.hand_id],
            at=now + settings.MAHJONG_DISCONNECT_GRACE,
        )
    notify_table(table.pk)
    return True


def seat_force_auto(
    table_id: int, seat: int, *, now: float | None = None, removed: bool = False
) -> bool:
    """托管 on for ``seat`` at once, connected or not; return whether it changed.

    Moderation (issue 14): the live hand of a suspended or banned player is
    finished by 托管 (their websockets are closed and refused, so nothing
    turns it off again).  Logged as the engine action ``auto_play``.
    ``removed``: the seat's player was suspended or banned — the table is
    marked (``closed_reason`` "removed" and ``closed_seat`` while the hand
    is played), so their 托管 never wins, claims or kongs for them
    (:func:`_removed_move`), the opponent's frame says so, and the table
    closes when the hand is settled (no 继续 with them).
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return False
        if not table.is_human(seat):
            return False
        if removed and table.status == Table.Status.PLAYING:
            table.closed_reason, table.closed_seat = "removed", seat
            table.save(update_fields=["closed_reason", "closed_seat", "updated"])
        changed = _set_auto(table, seat, True, now)
        if removed and not changed:
            notify_table(table.pk)  # the opponent's frame says what happened
        return changed


AWAY_TOLERANCE = 0.5
"""Seconds a ``seat_away`` job may run early (clocks of different processes)."""


@annul_on_failure(lambda table_id, seat, hand_id, *a, **k: hand_id)
def do_seat_away(
    table_id: int, seat: int, hand_id: int, *, now: float | None = None
) -> bool:
    """Look at ``seat``'s presence; after a whole grace away: 托管.

    The job scheduled when a seat went away (or at the deal, or by
    ``resume_tables``).  Presence (games.presence, TTL heartbeats) decides,
    never a count of sockets: a seat with a live socket on any process is
    here (a stale ``away_since`` is cleared and the opponent told); a seat
    with none that was not yet marked away is marked now (the grace starts,
    another job is scheduled); a seat away for the whole grace
    (``MAHJONG_DISCONNECT_GRACE``, counted from ``table.away_since[seat]``)
    goes to 托管 — logged as the engine action ``auto_play`` (seed 000
    异常处理: 断线 → 托管, which wins when it can).  A job from an earlier
    absence that fires during a later, short one does nothing (the later
    absence has its own job).  Returns whether 托管 was switched on.
    """
    now = time.time() if now is None else now
    present = seat_present(table_id=table_id, seat=seat, now=now)
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except TableError:
            return False
        if table.hand_id != hand_id or not table.is_human(seat):
            return False
        away = _away_since(table)
        since = away[seat]
        if present:
            if since is not None:  # back (on another process) or never gone
                away[seat] = None
                table.away_since = away
                table.save(update_fields=["away_since", "updated"])
                notify_table(table.pk)
            return False
        if since is None:
            _mark_away(table, seat, now)
            return False
        grace = settings.MAHJONG_DISCONNECT_GRACE
        if now < since + grace - min(AWAY_TOLERANCE, grace / 10):
            return False
        return _set_auto(table, seat, True, now)
