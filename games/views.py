"""Pages of the games app: lobby (大厅), table, and the small POSTs
around a table (快速开始, 人机练习, 好友房, 继续, 分组); 举报 is moderation's.

Thin on purpose: each view parses the request, calls one service or selector
(games.services / games.selectors, where the rules live) and renders or
redirects.  The live table itself talks over the WebSocket (games.consumers);
its first paint here uses the same context and partials as every later frame
(games.presenters).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.signed_in import signed_in_user

from . import presence, presenters, selectors
from .display.names import BOT_LEVEL_LABELS
from .engine.bots import LEVELS
from .models import Room, Table
from .protocol import TABLE_REQUESTS
from .services import TableError
from .services import tables as table_services

BOT_LEVELS = tuple(BOT_LEVEL_LABELS.items())
"""Bot levels offered in the lobby, weakest first (keys of engine.bots.LEVELS)."""


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Redirect; for htmx requests say so with ``HX-Redirect`` (a full page load)."""
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _say(request: HttpRequest, message: str) -> None:
    """Flash ``message`` unless the page's sanction banner says it already
    (a suspended player reads the reason once, not once per click)."""
    from moderation.restrictions import player_notice

    user_id = request.user.pk if request.user.is_authenticated else None
    if message != player_notice(user_id=user_id):
        messages.error(request, message)


def _seat_block(request: HttpRequest) -> str | None:
    """Why the signed-in player may not sit at a table now, or None: the
    lobby's play buttons are disabled with it (moderation)."""
    from moderation.restrictions import seat_refusal

    if not request.user.is_authenticated:
        return None
    return seat_refusal(user_id=request.user.pk)


def _refuse(request: HttpRequest, exc: Exception, back: str) -> HttpResponse:
    """Show a service refusal: a flash message and back to ``back``."""
    _say(request, str(exc))
    return _go(request, back)


def _table_url(table: Table) -> str:
    return reverse("games:table", args=[table.pk])


# ----------------------------------------------------------------- lobby
def _lobby_beat(request: HttpRequest) -> None:
    """The signed-in player has the lobby open (games.presence)."""
    if request.user.is_authenticated:
        presence.lobby_beat(user_id=request.user.pk)


@never_cache
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Render the lobby (大厅): rooms with stake, minimum, players, rule set.

    Never cached (its banner and queue are live state; Back brings it anew,
    static/js/fresh-on-back.js)."""
    current = None
    balance = None
    _lobby_beat(request)
    if request.user.is_authenticated:
        current = table_services.table_open_of(user=request.user)
        profile = getattr(request.user, "profile", None)
        balance = getattr(profile, "coins", None)
    rooms = selectors.lobby_rooms()
    return render(
        request,
        "games/lobby.html",
        {
            "rooms": rooms,
            "groups": selectors.lobby_groups(rooms),
            "balance": balance,
            "current": current,
            "queue": selectors.queue_state(user=request.user),
            "beat": settings.MAHJONG_PRESENCE_BEAT,
            "seat_block": _seat_block(request),
            "bot_levels": [(k, str(v)) for k, v in BOT_LEVELS if k in LEVELS],
        },
    )


@require_GET
def lobby_rooms(request: HttpRequest) -> HttpResponse:
    """The rooms list alone (htmx polling keeps the counts fresh)."""
    balance = None
    _lobby_beat(request)
    if request.user.is_authenticated:
        profile = getattr(request.user, "profile", None)
        balance = getattr(profile, "coins", None)
    rooms = selectors.lobby_rooms()
    return render(
        request,
        "games/partials/lobby_rooms.html",
        {
            "rooms": rooms,
            "groups": selectors.lobby_groups(rooms),
            "balance": balance,
            "seat_block": _seat_block(request),
            "bot_levels": [(k, str(v)) for k, v in BOT_LEVELS if k in LEVELS],
        },
    )


@login_required
@require_GET
def lobby_queue(request: HttpRequest) -> HttpResponse:
    """The queued player's panel, polled every ``MAHJONG_PRESENCE_BEAT`` s.

    Each poll is the lobby's presence heartbeat (issue 11 §1); once the
    player is paired (their table is being played) it sends them there.
    """
    _lobby_beat(request)
    queue = selectors.queue_state(user=request.user)
    if queue is None:
        current = table_services.table_open_of(user=signed_in_user(request))
        if current is not None and current.status == Table.Status.PLAYING:
            return _go(request, _table_url(current))
    return render(
        request,
        "games/partials/lobby_queue.html",
        {"queue": queue, "beat": settings.MAHJONG_PRESENCE_BEAT},
    )


def _room(room_id: int) -> Room:
    return get_object_or_404(Room, pk=room_id, active=True)


def _sit(request: HttpRequest, sit: Callable[[User], Table]) -> HttpResponse:
    """Run a sitting-down service (``sit(user)``) and go to its table.

    A player holds one open table, and a hand still being played wins over
    the new one (games.services.tables): then the page says so, else the
    player lands back at the old table without a word (tester: 人机练习 of
    another rule set opened the unfinished jj hand).
    """
    user = signed_in_user(request)
    before = table_services.table_open_of(user=user)
    try:
        table = sit(user)
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    if (
        before is not None
        and before.pk == table.pk
        and before.status == Table.Status.PLAYING
    ):
        messages.info(request, _("你还有一局没有打完：先回到这一桌。"))
    return _go(request, _table_url(table))


@login_required
@require_POST
def quick_match(request: HttpRequest, room_id: int) -> HttpResponse:
    """快速开始: pair with a waiting player or wait at a new table."""
    room = _room(room_id)
    return _sit(
        request, lambda user: table_services.table_quick_match(user=user, room=room)
    )


@login_required
@require_POST
def play_bot(request: HttpRequest, room_id: int) -> HttpResponse:
    """人机练习: a practice table against the bot level chosen in the form."""
    level = request.POST.get("level") or None
    room = _room(room_id)
    return _sit(
        request,
        lambda user: table_services.table_play_bot(user=user, room=room, level=level),
    )


@login_required
@require_POST
def friend_table(request: HttpRequest, room_id: int | None = None) -> HttpResponse:
    """好友房: a private table; its page shows the invite link.

    The host picks the rule set and the stake by picking the room: in the
    path, or as the ``room`` field of the lobby's 好友房 form (one per rule
    set, a select of that rule set's stakes).
    """
    if room_id is None:
        try:
            room_id = int(request.POST.get("room", ""))
        except ValueError:
            return _refuse(request, TableError(_("请选择房间")), reverse("games:lobby"))
    room = _room(room_id)
    return _sit(
        request, lambda user: table_services.table_create_friend(user=user, room=room)
    )


@login_required
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open an invite link: take the friend table's free seat."""
    try:
        table = table_services.table_join_friend(
            user=signed_in_user(request), token=token
        )
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    return redirect(_table_url(table))


# ----------------------------------------------------------------- table
@never_cache
@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table page (first paint; the WebSocket keeps it current).

    Never cached: Back to a table showed the browser's copy of the page as
    first opened (the deal) until the socket's frame arrived."""
    t, seat = selectors.access_table(user=request.user, table_id=table_id)
    from moderation.restrictions import account_refusal

    refusal = account_refusal(user_id=request.user.pk)
    if refusal:  # suspended or banned: not at a table (moderation)
        _say(request, refusal)
        return redirect(reverse("games:lobby"))
    context: dict[str, Any] = presenters.seat_context(t, seat, user=request.user)
    context["beat_ms"] = int(settings.MAHJONG_PRESENCE_BEAT * 1000)
    # this page's tab token: the page opened last acts for the seat
    # (games.presence.tab_take); its socket and its requests carry it
    context["tab"] = presence.new_tab()
    return render(request, "games/table.html", context)


def _table_request(request: HttpRequest, table_id: int, kind: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seat_of(request.user.pk)
    tab = request.headers.get("X-MJ-Tab")
    if seat is not None and not presence.tab_holds(
        table_id=table.pk, seat=seat, tab=tab
    ):  # a page whose seat another page of the player holds: not applied
        message = _("此牌桌已在另一个窗口打开，这个窗口里的操作没有生效")
        if getattr(request, "htmx", False):
            return HttpResponse(
                presenters.render_toast(message), headers={"HX-Reswap": "none"}
            )
        return _refuse(request, TableError(message), _table_url(table))
    try:
        result = TABLE_REQUESTS[kind](user=signed_in_user(request), table_id=table.pk)
    except TableError as exc:
        table.refresh_from_db(fields=["status"])
        if table.status == Table.Status.CLOSED:
            # The settlement countdown ran out as 继续 was pressed: the page is
            # on its way to the lobby, where a toast of the table page has no
            # place (tester: htmx:oobErrorNoTarget); the lobby shows the reason.
            return _refuse(request, exc, reverse("games:lobby"))
        if getattr(request, "htmx", False):
            return HttpResponse(
                presenters.render_toast(str(exc)),
                headers={"HX-Reswap": "none"},
            )
        return _refuse(request, exc, _table_url(table))
    if kind == "leave" or result.status == Table.Status.CLOSED:
        return _go(request, reverse("games:lobby"))
    if result.pk != table.pk:
        return _go(request, _table_url(result))
    if getattr(request, "htmx", False):
        return HttpResponse(status=204)  # the new frame arrives over the socket
    return redirect(_table_url(result))


@login_required
@require_POST
def continue_match(request: HttpRequest, table_id: int) -> HttpResponse:
    """继续: same opponent, next hand (deals when both agree)."""
    return _table_request(request, table_id, "continue")


@login_required
@require_POST
def regroup(request: HttpRequest, table_id: int) -> HttpResponse:
    """分组: back to matchmaking in the same room."""
    return _table_request(request, table_id, "regroup")


@login_required
@require_POST
def leave(request: HttpRequest, table_id: int) -> HttpResponse:
    """Leave a waiting or settled table for the lobby."""
    return _table_request(request, table_id, "leave")


@login_required
@require_POST
def accept_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    """No opponent came: play the bot at this waiting table."""
    return _table_request(request, table_id, "accept_bot")
