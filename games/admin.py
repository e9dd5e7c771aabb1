"""Admin for rooms, tables, matches, hands (with their event logs) and hand seats.

Reports and their cases are moderation's (``moderation.admin``).
"""

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import selectors
from .models import (
    Due,
    HandEvent,
    HandRecord,
    HandReview,
    HandSeat,
    HandSnapshot,
    Match,
    Room,
    Table,
)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "stake", "min_balance", "ruleset", "active", "order")
    list_editable = ("active", "order")
    list_filter = ("active", "ruleset")
    search_fields = ("name",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "room",
        "kind",
        "status",
        "seat0",
        "seat1",
        "bot_level",
        "seq",
        "deadline",
        "updated",
    )
    list_filter = ("status", "kind", "room")
    search_fields = ("=id", "seat0__username", "seat1__username", "invite_token")
    raw_id_fields = ("seat0", "seat1", "match", "hand")
    date_hierarchy = "created"


@admin.register(Due)
class DueAdmin(admin.ModelAdmin):
    """The clock's planned rows (games.services.clock), read-only: the loop
    deletes each when it runs it."""

    list_display = ("table", "kind", "at", "hand", "seq", "seat")
    list_filter = ("kind",)
    search_fields = ("=table__id",)
    raw_id_fields = ("table", "hand")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(HandSnapshot)
class HandSnapshotAdmin(admin.ModelAdmin):
    """Which hand is stored at which seq, nothing more: the snapshot itself
    (the wall, both hands, the seed) is never shown, not even to staff; the
    hand's events are, with the redaction of the hand's admin page."""

    list_display = ("hand", "seq")
    fields = ("hand", "seq")
    search_fields = ("=hand__id",)
    raw_id_fields = ("hand",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "table",
        "seat0",
        "seat1",
        "hands_played",
        "dealer",
        "started",
    )
    search_fields = ("=id", "seat0__username", "seat1__username")
    raw_id_fields = ("table", "seat0", "seat1")
    list_filter = ("started",)


def _hidden(request: HttpRequest, record: HandRecord | None) -> bool:
    return record is not None and selectors.live_events_hidden(
        user=request.user, status=record.status
    )


def _audit_live_view(request: HttpRequest, record: HandRecord | None) -> None:
    """Log a superuser's view of a live hand's private events (issue 11 §5.7)."""
    if record is None or record.status != HandRecord.Status.LIVE:
        return
    from moderation.services.audit import audit_live_hand_view

    audit_live_hand_view(
        actor=request.user,  # type: ignore[arg-type]
        hand_id=record.pk,
        status=record.status,
        seats=[record.seat0_id, record.seat1_id],
        at=timezone.now(),
    )


FULL_EVENT_FIELDS = ("seq", "kind", "seat", "shown", "visible_to", "at", "action")
LIVE_EVENT_FIELDS = ("seq", "kind", "seat", "shown", "at")
"""What staff see of a live hand's events: the redacted payloads, no actions."""


class HandEventInline(admin.TabularInline):
    """A hand's log; while the hand is live, staff other than superusers see
    each private event (deal, draws) as the opponent does (issue 11 §5.7)."""

    model = HandEvent
    extra = 0
    can_delete = False
    fields = FULL_EVENT_FIELDS
    readonly_fields = FULL_EVENT_FIELDS

    def get_queryset(self, request: HttpRequest) -> Any:
        return selectors.events_as_seen(
            events=super().get_queryset(request), user=request.user
        )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return LIVE_EVENT_FIELDS if _hidden(request, obj) else FULL_EVENT_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    @admin.display(description=_("内容"))
    def shown(self, obj: HandEvent) -> Any:
        return json.dumps(obj.shown, ensure_ascii=False)  # type: ignore[attr-defined]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is append-only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(HandRecord)
class HandRecordAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "table",
        "number",
        "ruleset",
        "stake",
        "seat0",
        "seat1",
        "status",
        "settled",
        "practice",
        "started",
        "ended",
    )
    list_filter = ("status", "ruleset", "settled", "practice")
    search_fields = ("=id", "seat0__username", "seat1__username", "commitment")
    raw_id_fields = ("table", "match", "seat0", "seat1")
    readonly_fields = ("commitment", "seed", "result", "settlement", "settled")
    date_hierarchy = "started"
    inlines = [HandEventInline]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        if response.status_code == 200 and request.method == "GET":
            record = self.get_object(request, object_id)
            if not _hidden(request, record):
                _audit_live_view(request, record)
        return response


@admin.register(HandEvent)
class HandEventAdmin(admin.ModelAdmin):
    """The log, read-only; a live hand's private events as for the inline."""

    list_display = ("hand", "seq", "kind", "seat", "at")
    list_filter = ("kind",)
    search_fields = ("=hand__id",)
    raw_id_fields = ("hand",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return selectors.events_as_seen(
            events=super().get_queryset(request).select_related("hand"),
            user=request.user,
        )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        hand = obj.hand if obj is not None else None
        fields = LIVE_EVENT_FIELDS if _hidden(request, hand) else FULL_EVENT_FIELDS
        return ("hand", *fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    @admin.display(description=_("内容"))
    def shown(self, obj: HandEvent) -> Any:
        return json.dumps(obj.shown, ensure_ascii=False)  # type: ignore[attr-defined]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        event = self.get_object(request, object_id)
        private = event is not None and event.public is not None
        if (
            response.status_code == 200
            and private
            and event is not None  # (private says so; for the type checker)
            and not _hidden(request, event.hand)
        ):
            _audit_live_view(request, event.hand)  # a private event of a live hand
        return response

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the log is append-only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(HandSeat)
class HandSeatAdmin(admin.ModelAdmin):
    """A row per player per hand, written by the settlement: read-only."""

    list_display = (
        "hand",
        "seat",
        "user",
        "ruleset",
        "result",
        "fan",
        "coins",
        "points",
        "rating_after",
        "ending",
        "reversed",
        "ended",
    )
    list_filter = ("result", "ending", "ruleset", "practice", "reversed")
    search_fields = ("=hand__id", "user__username", "user__profile__nickname")
    list_select_related = ("user",)
    raw_id_fields = ("hand", "user", "opponent")
    date_hierarchy = "ended"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(HandReview)
class HandReviewAdmin(admin.ModelAdmin):
    """Reviews are computed from the log (games.services.review): read-only."""

    list_display = (
        "hand",
        "seat0_agreed",
        "seat0_decisions",
        "seat1_agreed",
        "seat1_decisions",
        "seconds",
        "error",
        "created",
    )
    search_fields = ("=hand__id",)
    raw_id_fields = ("hand",)
    date_hierarchy = "created"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
