"""The audit log's writer and the snapshots it stores (before / after)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from accounts.models import Profile, User

from ..models import AuditEntry, Case, Sanction
from ..restrictions import active_q


def case_snapshot(case: Case) -> dict[str, Any]:
    """The fields of ``case`` a moderation action may change."""
    return {
        "status": case.status,
        "outcome": case.outcome,
        "reason": case.reason,
        "inquiry_by": case.inquiry_by_id,
        "escalated": case.escalated,
        "appealed": case.appealed,
        "priority": case.priority,
        "reversed_hands": list(case.reversed_hands or []),
    }


def balances(user_ids: Iterable[int]) -> dict[str, dict[str, int]]:
    """``{user id: {"coins", "points"}}`` as stored now."""
    return {
        str(uid): {"coins": int(coins), "points": int(points)}
        for uid, coins, points in Profile.objects.filter(
            user_id__in=list(user_ids)
        ).values_list("user_id", "coins", "rating_points")
    }


def sanctions_of(user_id: int, now: datetime) -> list[dict[str, Any]]:
    """The user's active sanctions (kind, ends, id)."""
    return [
        {"id": s.pk, "kind": s.kind, "ends": s.ends.isoformat() if s.ends else None}
        for s in Sanction.objects.filter(active_q(now), user_id=user_id)
    ]


def audit(
    *,
    action: str,
    actor: User | None,
    at: datetime,
    case: Case | None = None,
    subject_id: int | None = None,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry to the audit log (``AuditEntry``, never changed)."""
    return AuditEntry.objects.create(
        case=case,
        action=action,
        actor=actor,
        subject_id=subject_id,
        at=at,
        reason=reason,
        before=before,
        after=after,
    )


def audit_live_hand_view(
    *, actor: User, hand_id: int, status: str, seats: list[int | None], at: datetime
) -> AuditEntry:
    """Record that ``actor`` (a superuser) read the private events of a hand
    while it was live (admin; issue 11 §5.7).  ``seats`` are its players' ids.
    """
    return audit(
        action=AuditEntry.Action.LIVE_HAND_VIEW,
        actor=actor,
        at=at,
        subject_id=None,
        after={"hand": hand_id, "status": status, "players": seats},
    )
