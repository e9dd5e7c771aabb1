"""Admin for rooms, tables, matches, hands (with their event logs) and hand seats.

Reports and their cases are moderation's (``moderation.admin``).
"""

from django.contrib import admin

from .models import (
    HandEvent,
    HandRecord,
    HandReview,
    HandSeat,
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


class HandEventInline(admin.TabularInline):
    model = HandEvent
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "seat", "payload", "public", "visible_to", "at", "action")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):  # the log is append-only
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


@admin.register(HandEvent)
class HandEventAdmin(admin.ModelAdmin):
    list_display = ("hand", "seq", "kind", "seat", "at")
    list_filter = ("kind",)
    search_fields = ("=hand__id",)
    raw_id_fields = ("hand",)


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

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
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

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
