"""Sitting down: 快速开始 pairing, 人机练习, 好友房, 继续 / 分组, leaving.

A player holds at most one open table (waiting, playing or settling): asking
for another while a hand is being played returns the playing table; a
waiting or settling table is left first.  Pairing in a room is serialised by
locking the room row.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts.data_names import data_name
from accounts.formats import thousands
from accounts.models import Profile, User
from accounts.services import bot_account
from games.engine.bots import LEVELS

from ..models import Match, Room, Table
from ..presence import lobby_beat, waiters_present
from .clock import clock_clear, clock_set
from .deal import table_deal
from .errors import TableError
from .locking import table_lock
from .notify import notify_kick, notify_table
from .seats import seat_force_auto

OPEN = (Table.Status.WAITING, Table.Status.PLAYING, Table.Status.SETTLING)


def _room_name(room: Room) -> Any:
    """The room's stored name, translated when the refusal is read."""
    return lazy(data_name, str)(room.name)


def _check_balance(user: User, room: Room) -> None:
    coins = Profile.objects.filter(user=user).values_list("coins", flat=True).first()
    if coins is None:
        raise TableError(_("找不到你的玩家资料"))
    if coins < room.min_balance:
        raise TableError(
            _("%(room)s需要至少 %(need)s 游戏币，你现在有 %(have)s"),
            room=_room_name(room),
            need=thousands(room.min_balance),  # 20,000 as the site writes it
            have=thousands(coins),
        )


def _check_allowed(user: User) -> None:
    """Refuse a suspended, banned or play-banned player, saying why and until
    when (``moderation.restrictions``, issue 14)."""
    from moderation.restrictions import SEATING, blocking, sanction_message

    sanction = blocking(user_id=user.pk, kinds=SEATING)
    if sanction is not None:  # said in the language active when it is read
        raise TableError(lazy(sanction_message, str)(sanction))


def _check_room(room: Room) -> None:
    if not room.active:
        raise TableError(_("%(room)s暂未开放"), room=_room_name(room))


def _restricted_users() -> Any:
    """User ids (a subquery) that may not be matched now (moderation)."""
    from moderation.restrictions import seating_excluded_users

    return seating_excluded_users()


def table_open_of(*, user: User | int) -> Table | None:
    """The open table ``user`` (a user or a user id) sits at, or None."""
    return (
        Table.objects.filter(Q(seat0=user) | Q(seat1=user), status__in=OPEN)
        .order_by("-id")
        .first()
    )


def _free_user(user: User) -> Table | None:
    """Leave a waiting/settling table; return a table still being played."""
    table = table_open_of(user=user)
    if table is None:
        return None
    if table.status == Table.Status.PLAYING:
        return table
    locked = table_lock(table_id=table.pk)
    _close(locked, note="left", seat=locked.seat_of(user.pk))
    return None


def _close(table: Table, *, note: str = "", seat: int | None = None) -> None:
    """Close ``table`` (reason ``note``: left, regroup, balance, timeout,
    removed, absent (a queued player who was no longer there); ``seat``: the
    seat whose player's leaving closed it, if any).

    The reason and seat are kept on the row: the other player's frame says
    the opponent left instead of going quiet (issue 11 §4).  The settlement
    countdown (``settle_deadline``) is kept: the closed table's frame sends a
    browser still on it to the lobby once the countdown has run out
    (games.presenters ``settlement.goto``), and :func:`table_settle_timeout`
    re-sends the frames at that moment.
    """
    table.status = Table.Status.CLOSED
    table.deadline = None
    table.closed_reason = note[:8]
    table.closed_seat = seat
    table.save()
    if table.match is not None and table.match.ended is None:
        Match.objects.filter(pk=table.match.pk).update(ended=datetime.now(tz=UTC))
    notify_table(table.pk)


def _start_match(table: Table, now: float) -> None:
    # paired: the bot offer planned while it waited can no longer be due
    clock_clear(table_id=table.pk, kind="bot_offer")
    if table.is_bot:
        # the bot's account exists before its first hand is settled: created
        # once here, never on the move that ends a hand
        bot_account(level=table.bot_level or "normal")
    table.match = Match.objects.create(
        table=table,
        seat0_id=table.seat0_id,
        seat1_id=table.seat1_id,
        wins=[0, 0],
        coins=[0, 0],
        dealer=0,
        round_starter=0,
    )
    table_deal(table=table, now=now)


MATCH_CANDIDATES = 50
"""Waiting tables one 快速开始 looks at (oldest first)."""


def _present_waiter(room: Room, user: User, now: float) -> Table | None:
    """The oldest waiting 快速开始 table of ``room`` whose player is present.

    Issue 11 §1 (coins were lost to an absent opponent): only a player whose
    waiting table or lobby is open (games.presence, heartbeats within
    ``MAHJONG_PRESENCE_TTL``) is paired.  The waiting tables of absent
    players met on the way are closed (reason ``absent``): they left the
    queue.  Call with the room row locked.
    """
    candidates = list(
        Table.objects.select_for_update(of=("self",))
        .select_related("room")
        .filter(
            room=room,
            kind=Table.Kind.QUICK,
            status=Table.Status.WAITING,
            seat1__isnull=True,
        )
        .exclude(seat0=user)
        .exclude(seat0__in=_restricted_users())
        .order_by("created", "id")[:MATCH_CANDIDATES]
    )
    present = waiters_present(
        [(t.pk, t.seat0_id) for t in candidates if t.seat0_id], now=now
    )
    for table in candidates:
        if table.pk in present:
            return table
        _close(table, note="absent", seat=0)
    return None


def table_quick_match(*, user: User, room: Room, now: float | None = None) -> Table:
    """快速开始 / 分组: pair ``user`` with a player waiting in ``room``.

    Only present players are paired (:func:`_present_waiter`); ``user``
    counts as present from this request on (their lobby mark).  Returns the
    table: ``PLAYING`` when paired (the first hand is dealt), else a new
    ``WAITING`` table with ``user`` on seat 0; after
    ``MAHJONG_BOT_OFFER_AFTER`` seconds its frame offers a bot
    (``accept_bot``).

    Raises:
        TableError: room closed, or balance below the room's minimum.
    """
    now = time.time() if now is None else now
    _check_allowed(user)
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _check_room(room)
        _check_balance(user, room)
        playing = _free_user(user)
        if playing is not None:
            return playing
        lobby_beat(user_id=user.pk, now=now)
        waiting = _present_waiter(room, user, now)
        if waiting is not None:
            waiting.seat1 = user
            _start_match(waiting, now)
            return waiting
        table = Table.objects.create(
            room=room,
            kind=Table.Kind.QUICK,
            seat0=user,
            created=datetime.fromtimestamp(now, tz=UTC),
        )
        clock_set(
            table_id=table.pk,
            kind="bot_offer",
            at=now + settings.MAHJONG_BOT_OFFER_AFTER,
        )
        return table


def table_play_bot(
    *, user: User, room: Room, level: str | None = None, now: float | None = None
) -> Table:
    """人机练习: a table against the server's bot of ``level``; deal at once.

    Practice: no coins or points move.

    Raises:
        TableError: room closed or unknown level.
    """
    now = time.time() if now is None else now
    level = level or settings.MAHJONG_DEFAULT_BOT_LEVEL
    if level not in LEVELS:
        raise TableError(_("没有这个机器人等级：%(level)s"), level=level[:20])
    _check_allowed(user)
    with transaction.atomic():
        _check_room(room)
        playing = _free_user(user)
        if playing is not None:
            return playing
        table = Table.objects.create(
            room=room,
            kind=Table.Kind.BOT,
            seat0=user,
            bot_level=level,
        )
        _start_match(table, now)
        return table


def table_create_friend(*, user: User, room: Room) -> Table:
    """好友房: a private waiting table; share ``/t/<invite_token>``.

    Raises:
        TableError: room closed, balance too low, or a hand in play.
    """
    _check_allowed(user)
    with transaction.atomic():
        _check_room(room)
        _check_balance(user, room)
        playing = _free_user(user)
        if playing is not None:
            raise TableError(_("你还有一盘没有打完"))
        return Table.objects.create(
            room=room,
            kind=Table.Kind.FRIEND,
            seat0=user,
            invite_token=secrets.token_urlsafe(12),
        )


def table_join_friend(*, user: User, token: str, now: float | None = None) -> Table:
    """Take the free seat of the friend table ``token`` and deal.

    The host, or the guest again, just gets the table back.

    Raises:
        TableError: unknown/closed invitation, table full, balance too low.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        table = (
            Table.objects.select_for_update(of=("self",))
            .select_related("room")
            .filter(invite_token=token, kind=Table.Kind.FRIEND)
            .first()
        )
        if table is None:
            raise TableError(_("邀请链接无效"))
        if table.seat_of(user.pk) is not None:
            return table
        if table.status != Table.Status.WAITING or table.seat1_id is not None:
            raise TableError(_("这张牌桌已经满了或已关闭"))
        _check_allowed(user)
        _check_balance(user, table.room)
        playing = _free_user(user)
        if playing is not None:
            raise TableError(_("你还有一盘没有打完"))
        table.seat1 = user
        _start_match(table, now)
        return table


def _seated(table_id: int, user: User) -> tuple[Table, int]:
    """Lock table ``table_id``; return it and ``user``'s seat there.

    Raises:
        TableError: no such table, or ``user`` is not seated there.
    """
    table = table_lock(table_id=table_id)
    seat = table.seat_of(user.pk)
    if seat is None:
        raise TableError(_("你不在这张牌桌的座位上"))
    return table, seat


def _between_hands(table: Table) -> None:
    """Refuse 继续 / 分组 unless the table is settling (between two hands)."""
    if table.status == Table.Status.CLOSED:
        raise TableError(_("牌桌已解散，请回大厅或分组"))
    if table.status != Table.Status.SETTLING:
        raise TableError(_("只有一盘结束后才能继续或分组"))


def table_continue(*, user: User, table_id: int, now: float | None = None) -> Table:
    """继续: vote for the next hand; deal when both (or the bot) agree.

    The next dealer follows seed 000 (the winner deals; a draw keeps the
    dealer).  If a player can no longer afford the room, the table closes.
    Returns the table.

    Raises:
        TableError: not seated, restricted, or the table is not between hands.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        table, seat = _seated(table_id, user)
        _check_allowed(user)
        _between_hands(table)
        votes = set(table.continue_votes or [])
        votes.add(seat)
        if table.is_bot:
            votes.add(1)
        table.continue_votes = sorted(votes)
        if votes != {0, 1}:
            table.save(update_fields=["continue_votes", "updated"])
            notify_table(table.pk)
            return table
        room = table.room
        coins: dict[int, int] = dict(
            Profile.objects.filter(
                user_id__in=[u for u in (table.seat0_id, table.seat1_id) if u]
            ).values_list("user_id", "coins")
        )
        poor = not table.is_bot and any(c < room.min_balance for c in coins.values())
        if poor:  # someone can no longer afford the room: back to the lobby
            _close(table, note="balance")
            return table
        table_deal(table=table, now=now, coins=coins)  # the balances just read
        return table


def table_regroup(*, user: User, table_id: int, now: float | None = None) -> Table:
    """分组: leave this table after the hand and look for a new opponent.

    Also after the opponent left (the table is closed).  A practice table's
    player gets a new practice table (never a staked queue), others
    :func:`table_quick_match` in the same room.  Returns the new table.

    Raises:
        TableError: not seated, restricted, or the hand is still being played;
            what :func:`table_quick_match` raises.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        table, seat = _seated(table_id, user)
        _check_allowed(user)
        if table.status != Table.Status.CLOSED:  # else the opponent left first
            _between_hands(table)
            _close(table, note="regroup", seat=seat)
        room = table.room
    # outside the closed table's lock
    if table.is_bot:
        return table_play_bot(
            user=user, room=room, level=table.bot_level or None, now=now
        )
    return table_quick_match(user=user, room=room, now=now)


def table_leave(*, user: User, table_id: int) -> Table:
    """Return to the lobby from a waiting or settling table (closes it).

    Raises:
        TableError: not seated, or the hand is still being played.
    """
    with transaction.atomic():
        table, seat = _seated(table_id, user)
        if table.status == Table.Status.PLAYING:
            raise TableError(_("这一盘还没有结束"))
        if table.status != Table.Status.CLOSED:
            _close(table, note="left", seat=seat)
        return table


def table_accept_bot(*, user: User, table_id: int, now: float | None = None) -> Table:
    """Take the bot offered at a waiting 快速开始 table and deal at once.

    Raises:
        TableError: not seated, restricted, or no bot is offered now.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        table, _seat = _seated(table_id, user)
        _check_allowed(user)
        if table.status != Table.Status.WAITING or table.kind != Table.Kind.QUICK:
            raise TableError(_("现在不能换成机器人对手"))
        table.kind = Table.Kind.BOT
        table.bot_level = settings.MAHJONG_DEFAULT_BOT_LEVEL
        _start_match(table, now)
        return table


def table_settle_timeout(
    *, table_id: int, hand_id: int, now: float | None = None
) -> bool:
    """The settlement countdown of hand ``hand_id`` ended (the clock's ``settle``).

    Seed 000 (继续: only while the countdown runs; 分组 includes a timeout
    without an action) and issue 6: a player who did neither returns to the
    lobby.  A player who pressed 继续 whose opponent did not is told so
    (issue 11 §4: not silently put back into matchmaking): their panel says
    the opponent did not continue and offers 分组 and the lobby.

    The table closes; every browser still on it then gets a frame whose
    settlement carries ``goto`` (the lobby, for players who did not press
    继续), which static/js/table.js follows.  A table closed earlier (the
    opponent left) only has its frames re-sent, so the browser left on it
    goes to the lobby now unless its player pressed 继续.

    Returns True when this call closed the table; False if the table had
    moved on (next hand dealt, or already closed), so the job is safe to
    run twice.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        try:
            table = table_lock(table_id=table_id)
        except TableError:
            return False
        if table.hand_id != hand_id:
            return False
        ends = datetime.fromtimestamp(now, tz=UTC)
        if table.status == Table.Status.CLOSED:
            if table.settle_deadline is not None:  # closed during the countdown
                if table.settle_deadline > ends:
                    table.settle_deadline = ends
                    table.save(update_fields=["settle_deadline", "updated"])
                notify_table(table.pk)  # the browser left on it: to the lobby
            return False
        if table.status != Table.Status.SETTLING:
            return False
        if table.settle_deadline is None or table.settle_deadline > ends:
            table.settle_deadline = ends  # the countdown is over as of now
        _close(table, note="timeout")
        return True


def table_remove_player(
    *, user_id: int, message: str, now: float | None = None
) -> Table | None:
    """Take ``user_id`` away from the table they are at (moderation, issue 14).

    A waiting or settling table closes; at a table being played their seat
    goes to 托管, which finishes the hand without ever winning for them, and
    the table closes when it is settled (``games.services.seats.seat_force_auto``
    with ``removed``).  Either way their open websockets
    there are closed with ``message`` (on commit).  Returns the table, or
    None when they sat at none.
    """
    now = time.time() if now is None else now
    table = table_open_of(user=user_id)
    if table is None:
        return None
    seat = table.seat_of(user_id)
    if table.status == Table.Status.PLAYING and seat is not None:
        seat_force_auto(table_id=table.pk, seat=seat, now=now, removed=True)
    else:
        with transaction.atomic():
            locked = table_lock(table_id=table.pk)
            if locked.status in (Table.Status.WAITING, Table.Status.SETTLING):
                _close(locked, note="removed", seat=locked.seat_of(user_id))
    with transaction.atomic():
        notify_kick(table.pk, user_id=user_id, message=message)
    return table


def table_refresh(*, table_id: int) -> bool:
    """Re-render a waiting table's frames (the bot offer appears); return
    whether the table was still waiting."""
    if Table.objects.filter(pk=table_id, status=Table.Status.WAITING).exists():
        with transaction.atomic():
            notify_table(table_id)
        return True
    return False
