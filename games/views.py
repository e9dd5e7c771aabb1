"""Pages of the games app: lobby (大厅), table, and the small POSTs
around a table (快速开始, 人机练习, 好友房, 继续, 分组); 举报 is moderation's.

Thin on purpose: each view parses the request, calls one service or selector
(games.services / games.selectors, where the rules live) and renders or
redirects.  The live table itself talks over the WebSocket (games.consumers);
its first paint here uses the same context and partials as every later frame
(games.presenters).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import presence, presenters, selectors
from .engine.bots import LEVELS
from .models import Room, Table
from .services import tables as table_services
from .services.play import TableError
from .templatetags.mj_table import BOT_LEVEL_LABELS

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


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Render the lobby (大厅): rooms with stake, minimum, players, rule set."""
    current = None
    balance = None
    _lobby_beat(request)
    if request.user.is_authenticated:
        current = table_services.open_table_of(request.user)
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
            "queue": selectors.queue_state(request.user),
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
    queue = selectors.queue_state(request.user)
    if queue is None:
        current = table_services.open_table_of(request.user)
        if current is not None and current.status == Table.Status.PLAYING:
            return _go(request, _table_url(current))
    return render(
        request,
        "games/partials/lobby_queue.html",
        {"queue": queue, "beat": settings.MAHJONG_PRESENCE_BEAT},
    )


def _room(room_id: int) -> Room:
    return get_object_or_404(Room, pk=room_id, active=True)


@login_required
@require_POST
def quick_match(request: HttpRequest, room_id: int) -> HttpResponse:
    """快速开始: pair with a waiting player or wait at a new table."""
    try:
        table = table_services.quick_match(request.user, _room(room_id))
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    return _go(request, _table_url(table))


@login_required
@require_POST
def play_bot(request: HttpRequest, room_id: int) -> HttpResponse:
    """人机练习: a practice table against the bot level chosen in the form."""
    level = request.POST.get("level") or None
    try:
        table = table_services.play_bot(request.user, _room(room_id), level)
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    return _go(request, _table_url(table))


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
    try:
        table = table_services.create_friend_table(request.user, _room(room_id))
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    return _go(request, _table_url(table))


@login_required
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open an invite link: take the friend table's free seat."""
    try:
        table = table_services.join_friend_table(request.user, token)
    except TableError as exc:
        return _refuse(request, exc, reverse("games:lobby"))
    return redirect(_table_url(table))


# ----------------------------------------------------------------- table
@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table page (first paint; the WebSocket keeps it current)."""
    t, seat = selectors.access_table(request.user, table_id)
    from moderation.restrictions import account_refusal

    refusal = account_refusal(user_id=request.user.pk)
    if refusal:  # suspended or banned: not at a table (moderation)
        _say(request, refusal)
        return redirect(reverse("games:lobby"))
    context: dict[str, Any] = presenters.seat_context(t, seat, user=request.user)
    context["beat_ms"] = int(settings.MAHJONG_PRESENCE_BEAT * 1000)
    return render(request, "games/table.html", context)


def _table_request(request: HttpRequest, table_id: int, kind: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    try:
        if kind == "continue":
            result = table_services.continue_match(request.user, table)
        elif kind == "regroup":
            result = table_services.regroup(request.user, table)
        elif kind == "leave":
            result = table_services.leave_table(request.user, table)
        else:
            result = table_services.do_table_request(table.pk, request.user, kind)
    except TableError as exc:
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
