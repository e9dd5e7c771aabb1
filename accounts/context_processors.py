"""Template context for the page header: the signed-in player's summary."""

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .selectors import inbox_unread_count, level_for_points, profile_for_user


def _summary(request: HttpRequest) -> dict[str, Any] | None:
    profile = profile_for_user(user=request.user)  # type: ignore[arg-type]
    if profile is None:
        return None
    from moderation.restrictions import player_notice

    return {
        "profile": profile,
        "level": level_for_points(points=profile.rating_points),
        "unread": inbox_unread_count(user=request.user),  # type: ignore[arg-type]
        "restriction": player_notice(user_id=request.user.pk),
    }


def player(request: HttpRequest) -> dict[str, Any]:
    """Add ``player`` ({profile, level, unread, restriction} or None), queried
    only when used; ``restriction`` says why and until when a sanction holds."""
    return {"player": SimpleLazyObject(lambda: _summary(request))}
