"""The replay (回放) pages: a finished hand step by step, its export and import,
the public switch and the fairness page.

Thin: each view of one hand checks access (``games.selectors.access_replay``)
through ``_replay_view``, the one place that also decides what a visitor who is
not signed in gets (the sign-in page, not a 404); then it builds or
reads the cached replay (``games.replay``) and renders.  ``?step=N`` is the
step shown; with ``part=board`` only the board partial is sent (the page's
script moves step by step with it).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.template import engines
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import selectors
from .engine.review import decision_from_json
from .models import HandRecord
from .record import record_context
from .replay.board import step_of
from .replay.handfile import HandFileError, hand_file_from_record, parse_hand_file
from .replay.present import page_data, step_context
from .replay.replay import Replay, cached_replay
from .services.review import review_for

BOARD = "games/replay/board.html"
IMPORT_TTL = 24 * 3600
"""Seconds an imported file stays viewable (the link of an import)."""


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _review_by_step(
    replay: Replay, record: HandRecord, seats: list[int]
) -> tuple[dict[int, list[Any]], dict[str, Any] | None]:
    """The reviewed decisions the viewer may see, by step, and the summary."""
    if not seats:
        return {}, None
    stored = review_for(record=record)
    if stored is None:
        return {}, None
    decisions = [decision_from_json(d) for d in stored.decisions]
    by_step: dict[int, list[Any]] = {}
    for d in decisions:
        if d.seat in seats:
            by_step.setdefault(step_of(replay.steps, d.seq), []).append(d)
    summary = []
    for seat in seats:
        agreed, made = stored.counts(seat)
        mine = [d for d in decisions if d.seat == seat]
        costly = sorted(
            (d for d in mine if d.shanten_lost or d.useful_lost),
            key=lambda d: (-d.shanten_lost, -d.useful_lost, d.seq),
        )[:5]
        summary.append(
            {
                "seat": seat,
                "name": replay.file.players[seat].display,
                "agreed": agreed,
                "decisions": made,
                # the choices that were not the computer's (the agreement
                # counts identical ones; ``costly`` lists those that lost)
                "differed": made - agreed,
                "rate": agreed / made if made else None,
                "useful_lost": sum(d.useful_lost for d in mine),
                "shanten_lost": sum(d.shanten_lost for d in mine),
                "costly": [
                    {"step": step_of(replay.steps, d.seq), "decision": d}
                    for d in costly
                ],
            }
        )
    return by_step, {"seats": summary, "error": stored.error}


def _replay_view(
    view: Callable[[HttpRequest, selectors.ReplayAccess], HttpResponse],
) -> Callable[[HttpRequest, int], HttpResponse]:
    """Make ``view(request, access)`` a view of ``hands/<hand_id>/…``.

    One access rule for the replay page, its export and its public switch:
    ``selectors.access_replay`` (its two players and staff, anyone once it is
    public). A visitor who is not signed in and may not see the hand is sent
    to sign in (``?next=`` the URL asked for); a signed-in one gets 404 (the
    hand's existence is not revealed).
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, hand_id: int) -> HttpResponse:
        try:
            access = selectors.access_replay(user=request.user, hand_id=hand_id)
        except Http404:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise
        return view(request, access)

    return wrapped


def _render_board(ctx: dict[str, Any]) -> str:
    return engines["jinja2"].get_template(BOARD).render(ctx)


def _respond(
    request: HttpRequest,
    replay: Replay,
    *,
    bottom: int,
    base_url: str,
    page: dict[str, Any],
    review: dict[int, list[Any]] | None = None,
) -> HttpResponse:
    step = _int(request.GET.get("step"), 0)
    ctx = step_context(replay, step, bottom=bottom, review=review, base_url=base_url)
    if request.GET.get("part") == "board":
        return HttpResponse(_render_board(ctx))
    page.update(ctx)
    page["board_html"] = _render_board(ctx)
    page["replay"] = replay
    page["bottom"] = bottom
    page["base_url"] = base_url
    return render(request, "games/replay.html", page)


@require_GET
@_replay_view
def hand_replay(request: HttpRequest, access: selectors.ReplayAccess) -> HttpResponse:
    """回放: a finished hand step by step (the record page's URL)."""
    record = access.record
    default_bottom = access.seat if access.seat is not None else 0
    bottom = _int(request.GET.get("seat"), default_bottom)
    bottom = bottom if bottom in (0, 1) else default_bottom
    base_url = reverse("games:hand_record", args=[record.pk])
    page: dict[str, Any] = {"record": record, "access": access}
    try:
        # the commitment is unique to the hand (a test database reuses ids)
        key = ("hand", record.pk, record.commitment, record.status)
        replay = cached_replay(key, lambda: hand_file_from_record(record))
    except ValueError:  # no log: a hand booked without one
        page.update(record_context(record))
        return render(request, "games/replay_nolog.html", page)
    review, summary = _review_by_step(replay, record, access.review_seats)
    page.update(
        {
            "rows": record_context(record)["rows"],
            "review_summary": summary,
            "data": page_data(replay, review_seats=access.review_seats),
            "export_url": reverse("games:hand_export", args=[record.pk]),
        }
    )
    return _respond(
        request, replay, bottom=bottom, base_url=base_url, page=page, review=review
    )


@require_GET
@_replay_view
def hand_export(request: HttpRequest, access: selectors.ReplayAccess) -> HttpResponse:
    """The whole hand as a JSON file (schema: docs/hand-export.md)."""
    hand_id = access.record.pk
    data = hand_file_from_record(access.record).to_json()
    response = JsonResponse(
        data, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="hand-{hand_id}.json"'
    return response


@require_POST
@_replay_view
def hand_share(request: HttpRequest, access: selectors.ReplayAccess) -> HttpResponse:
    """A player makes the replay public (anyone with the link) or private again."""
    hand_id = access.record.pk
    if not access.is_player:
        raise Http404("not a player of this hand")
    public = request.POST.get("public") == "1"
    HandRecord.objects.filter(pk=hand_id).update(public=public)
    if public:
        messages.success(request, _("回放已公开：任何人都可以通过链接观看。"))
    else:
        messages.success(request, _("回放已设为仅双方和管理员可见。"))
    return redirect(reverse("games:hand_record", args=[hand_id]))


def _file_started(started: str | None) -> datetime | None:
    """A hand file's ``started`` (ISO 8601, e.g. ``2026-12-04T17:06:00+00:00``) as
    an aware datetime, so the page shows it as the hand's own page does (server
    local time, ``Y-m-d H:i``); a time without an offset is read as UTC, as the
    export writes it. None when absent or not a date-time."""
    if not started:
        return None
    try:
        value = parse_datetime(started)
    except ValueError:
        return None
    if value is None:
        return None
    if timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    return value


def _import_key(digest: str) -> str:
    return f"replay-import:{digest}"


@require_http_methods(["GET", "POST"])
def replay_import(request: HttpRequest) -> HttpResponse:
    """导入: load an exported hand file into the viewer (no account needed)."""
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        raw: bytes = b""
        if upload is not None:
            if upload.size and upload.size > 1_000_000:
                error = _("文件太大（最多 1 MB）。")
            else:
                raw = upload.read(1_000_001)
        else:
            raw = (request.POST.get("text") or "").encode("utf-8")
        if error is None and not raw.strip():
            error = _("请选择一个牌局文件，或粘贴它的内容。")
        if error is None:
            try:
                parse_hand_file(raw)
            except HandFileError as exc:
                error = str(exc)
        if error is None:
            digest = hashlib.sha256(raw).hexdigest()[:32]
            cache.set(_import_key(digest), raw, IMPORT_TTL)
            return redirect(reverse("games:replay_imported", args=[digest]))
    return render(
        request,
        "games/replay_import.html",
        {"error": error},
        status=400 if error else 200,
    )


@require_GET
def replay_imported(request: HttpRequest, digest: str) -> HttpResponse:
    """An imported file in the viewer (kept for a day)."""
    raw = cache.get(_import_key(digest))
    if raw is None:
        return render(
            request,
            "games/replay_import.html",
            {"error": _("这个导入已过期，请重新选择文件。")},
            status=404,
        )
    try:
        hf = parse_hand_file(raw)
    except HandFileError as exc:  # pragma: no cover - checked on upload
        return render(request, "games/replay_import.html", {"error": str(exc)})
    replay = cached_replay(("file", digest), lambda: hf)
    base_url = reverse("games:replay_imported", args=[digest])
    bottom = _int(request.GET.get("seat"), 0)
    page: dict[str, Any] = {
        "imported": True,
        "started": _file_started(replay.file.started),
        "data": page_data(replay, review_seats=[]),
        "rows": [],
        "review_summary": None,
    }
    return _respond(
        request,
        replay,
        bottom=bottom if bottom in (0, 1) else 0,
        base_url=base_url,
        page=page,
    )


@require_GET
def fair(request: HttpRequest) -> HttpResponse:
    """公平性: how the wall is shuffled and how anyone can check it.

    The rule sets' walls are listed from the rule-set data.
    """
    from games.rules.rulesets import NAMES
    from games.rules.rulesets import get as get_ruleset
    from games.rules.tiles import format_tiles

    walls = []
    for name in NAMES:
        rs = get_ruleset(name)
        walls.append(
            {
                "name": name,
                "kinds": format_tiles(list(rs.kinds)),
                "flowers": format_tiles(list(rs.flowers)) if rs.flowers else "",
                "size": rs.wall_size,
            }
        )
    return render(request, "games/fair.html", {"walls": walls})


SCRIPT = Path(settings.BASE_DIR) / "tools" / "verify_hand.py"


@require_GET
def fair_script(request: HttpRequest) -> FileResponse:
    """The offline checker (tools/verify_hand.py), as a download."""
    response = FileResponse(
        SCRIPT.open("rb"), content_type="text/x-python; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="verify_hand.py"'
    return response
