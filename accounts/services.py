"""Account writes: profiles, level schemes and the inbox (站内信).

Keyword-only, typed; views, admin actions, signals and commands call these.
"""

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import LevelScheme, Message, Profile, User


def profile_create(*, user: User, nickname: str = "") -> Profile:
    """Create ``user``'s profile with the starting grant.

    Coins start at ``settings.MAHJONG_STARTING_COINS`` (游戏币) and rating points at
    ``settings.MAHJONG_STARTING_POINTS`` (实力积分); the nickname defaults to the
    username. Idempotent: an existing profile is returned unchanged.
    """
    profile, _created = Profile.objects.get_or_create(
        user=user,
        defaults={
            "nickname": (nickname or user.get_username())[:32],
            "coins": settings.MAHJONG_STARTING_COINS,
            "rating_points": settings.MAHJONG_STARTING_POINTS,
        },
    )
    return profile


def profile_set_nickname(*, profile: Profile, nickname: str) -> Profile:
    """Set the nickname shown at tables; raise ``ValueError`` if blank or too long."""
    nickname = nickname.strip()
    if not nickname:
        raise ValueError("nickname must not be blank")
    if len(nickname) > 32:
        raise ValueError("nickname must be at most 32 characters")
    profile.nickname = nickname
    profile.save(update_fields=["nickname"])
    return profile


def level_scheme_activate(*, scheme: LevelScheme) -> LevelScheme:
    """Make ``scheme`` the only active level scheme (all players' levels follow it).

    Runs in one transaction: the others are switched off before this one is
    switched on, so the one-active constraint holds at every statement.
    """
    with transaction.atomic():
        LevelScheme.objects.exclude(pk=scheme.pk).filter(is_active=True).update(
            is_active=False
        )
        LevelScheme.objects.filter(pk=scheme.pk).update(is_active=True)
    scheme.is_active = True
    return scheme


def inbox_send(
    *, recipient: User, subject: str, body: str, sender: User | None = None
) -> Message:
    """Deliver one inbox message to ``recipient``; ``sender=None`` means the system.

    Raise ``ValueError`` when the subject or body is blank.
    """
    subject = subject.strip()
    if not subject or not body.strip():
        raise ValueError("an inbox message needs a subject and a body")
    return Message.objects.create(
        recipient=recipient, sender=sender, subject=subject[:120], body=body
    )


def inbox_mark_read(
    *,
    user: User,
    message_ids: Iterable[int] | None = None,
    now: datetime | None = None,
) -> int:
    """Mark ``user``'s unread messages read (all, or only ``message_ids``).

    Messages of other users are never touched. Return how many changed.
    """
    unread = Message.objects.filter(recipient=user, read_at__isnull=True)
    if message_ids is not None:
        unread = unread.filter(pk__in=list(message_ids))
    return unread.update(read_at=now or timezone.now())
