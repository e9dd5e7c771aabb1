"""Admin for the leaderboard: per-player statistics (read-only: rebuilt nightly)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import BoardSnapshot, PlayerStats


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    """Counters and ratings; the settlement and the nightly job write them."""

    list_display = [
        "user",
        "ruleset",
        "hands",
        "wins",
        "win_rate",
        "points",
        "coins",
        "max_fan",
        "rating",
        "deviation",
        "rated_hands",
        "last_played",
    ]
    list_filter = ["ruleset"]
    search_fields = ["=user__username", "user__profile__nickname"]
    list_select_related = ["user"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BoardSnapshot)
class BoardSnapshotAdmin(admin.ModelAdmin):
    """The nightly snapshots (read-only: the recalculation writes them)."""

    list_display = [
        "date",
        "period",
        "ruleset",
        "user",
        "points_rank",
        "coins_rank",
        "rating_rank",
        "winrate_rank",
        "maxfan_rank",
    ]
    list_filter = ["period", "ruleset", "date"]
    search_fields = ["=user__username", "user__profile__nickname"]
    list_select_related = ["user"]
    date_hierarchy = "date"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
