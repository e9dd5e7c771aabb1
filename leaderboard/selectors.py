"""Leaderboard reads."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from accounts.models import Level, Profile
from accounts.selectors import level_scheme_active

from .models import OVERALL, PlayerStats


@dataclass(frozen=True)
class LeaderboardRow:
    """One ranked player: 1-based ``rank``, profile and level by the active scheme."""

    rank: int
    profile: Profile
    level: Level | None


def leaderboard_page(
    *, page_number: int | str | None, per_page: int
) -> tuple[Page, list[LeaderboardRow]]:
    """Return one page of human players by 实力积分 (ties: earlier sign-up first).

    Bots are left out. Levels come from the active scheme, loaded once per page.
    """
    hands = PlayerStats.objects.filter(user_id=OuterRef("user_id"), ruleset=OVERALL)
    profiles = (
        Profile.objects.filter(is_bot=False, user__is_active=True)
        .annotate(hands=Coalesce(Subquery(hands.values("hands")[:1]), 0))
        .order_by("-rating_points", "created", "id")
    )
    page = Paginator(profiles, per_page).get_page(page_number)
    scheme = level_scheme_active()
    levels = list(scheme.levels.order_by("-min_points")) if scheme else []
    rows = []
    for offset, profile in enumerate(page.object_list):
        level = next(
            (lv for lv in levels if lv.min_points <= profile.rating_points), None
        )
        if level is None and levels:
            level = levels[-1]
        rows.append(
            LeaderboardRow(
                rank=page.start_index() + offset, profile=profile, level=level
            )
        )
    return page, rows
