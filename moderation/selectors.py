"""Moderation reads: a player's own reports, the moderators."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import Permission
from django.db.models import Q, QuerySet

from accounts.models import User

from .models import UPHELD, Case, Report


@dataclass(frozen=True)
class MyReport:
    """One of a player's reports as they may see it (no evidence).

    ``status`` is ``open`` (submitted), ``review`` (a moderator is looking
    at it) or ``decided``; ``action_taken`` tells a decided one's outcome
    (True: the reported player was acted against; False: no action).
    """

    pk: int
    created: datetime
    category: str
    category_label: str
    text: str
    hand_id: int | None
    suspect: str
    status: str
    action_taken: bool | None


def my_reports(*, user: User, limit: int = 50) -> list[MyReport]:
    """``user``'s reports, newest first, with their case's public status."""
    rows = (
        Report.objects.filter(reporter=user)
        .select_related("case", "case__suspect__profile")
        .order_by("-created", "-id")[:limit]
    )
    out = []
    for r in rows:
        case = r.case
        decided = case.status == Case.Status.DECIDED
        profile = getattr(case.suspect, "profile", None)
        out.append(
            MyReport(
                pk=r.pk,
                created=r.created,
                category=r.category,
                category_label=str(r.get_category_display()),
                text=r.text,
                hand_id=r.hand_id,
                suspect=profile.nickname if profile else case.suspect.get_username(),
                status=str(case.status),
                action_taken=(case.outcome in UPHELD) if decided else None,
            )
        )
    return out


def moderators() -> QuerySet[User]:
    """Active staff who may decide cases (the permission, or superusers)."""
    perm = Permission.objects.filter(
        content_type__app_label="moderation", codename="decide_case"
    ).first()
    holders = Q(is_superuser=True)
    if perm is not None:
        holders |= Q(user_permissions=perm) | Q(groups__permissions=perm)
    return User.objects.filter(holders, is_active=True, is_staff=True).distinct()
