"""Account reads: levels derived from 实力积分, the ledger's checks, the inbox."""

from dataclasses import dataclass

from django.db.models import QuerySet, Sum

from .models import LedgerEntry, Level, LevelScheme, Message, Profile, User


def user_display(user: User) -> str:
    """The name a signed-in player is shown as in allauth's messages and mails.

    The player's 昵称 (what every table, leaderboard and player page shows),
    or the username for an account without a profile (a bare superuser).
    Wired as ``ACCOUNT_USER_DISPLAY``, so "以 … 成功登录" names the player
    as others see them.
    """
    # a missing profile raises RelatedObjectDoesNotExist, an AttributeError
    profile: Profile | None = getattr(user, "profile", None)
    if profile is not None and profile.nickname:
        return profile.nickname
    return user.get_username()


def level_scheme_active() -> LevelScheme | None:
    """Return the active level scheme, or None if the admin switched all off."""
    return LevelScheme.objects.filter(is_active=True).first()


def level_for_points(*, points: int, scheme: LevelScheme | None = None) -> Level | None:
    """Return the level that ``points`` (实力积分) reaches in ``scheme``.

    ``scheme`` defaults to the active one. The level is the one with the highest
    ``min_points`` not above ``points``; points below every threshold (negative
    balances) get the scheme's lowest level. None only if there is no scheme or it
    has no levels. Source: 实力积分等级说明 of seed 002 (雀蛋 0 … 自摸王 2000000).
    """
    scheme = scheme or level_scheme_active()
    if scheme is None:
        return None
    levels = scheme.levels.order_by("-min_points")
    return levels.filter(min_points__lte=points).first() or levels.last()


@dataclass(frozen=True)
class LevelProgress:
    """Where ``points`` stands: current level, next level and the share achieved.

    ``fraction`` is in [0, 1]; at the top level ``next_level`` is None and
    ``fraction`` is 1.
    """

    level: Level | None
    next_level: Level | None
    points: int
    fraction: float

    @property
    def points_to_next(self) -> int | None:
        if self.next_level is None:
            return None
        return self.next_level.min_points - self.points


def level_progress(*, points: int, scheme: LevelScheme | None = None) -> LevelProgress:
    """Return the level reached by ``points`` and the progress to the next one."""
    scheme = scheme or level_scheme_active()
    level = level_for_points(points=points, scheme=scheme)
    if scheme is None or level is None:
        return LevelProgress(level=None, next_level=None, points=points, fraction=0.0)
    next_level = (
        scheme.levels.filter(min_points__gt=level.min_points)
        .order_by("min_points")
        .first()
    )
    if next_level is None:
        return LevelProgress(level=level, next_level=None, points=points, fraction=1.0)
    span = next_level.min_points - level.min_points
    done = min(max(points - level.min_points, 0), span)
    return LevelProgress(
        level=level, next_level=next_level, points=points, fraction=done / span
    )


def profile_for_user(*, user: User) -> Profile | None:
    """Return ``user``'s profile, or None for anonymous users or a missing row."""
    if not user.is_authenticated:
        return None
    return Profile.objects.filter(user=user).first()


def inbox_messages(*, user: User) -> QuerySet[Message]:
    """Return ``user``'s messages, newest first, with senders fetched."""
    return Message.objects.filter(recipient=user).select_related("sender")


def inbox_unread_count(*, user: User) -> int:
    """Return how many of ``user``'s messages are unread (0 for anonymous users)."""
    if not user.is_authenticated:
        return 0
    return Message.objects.filter(recipient=user, read_at__isnull=True).count()


@dataclass(frozen=True)
class Drift:
    """A profile whose stored balance differs from its ledger's sum."""

    user_id: int
    currency: str
    stored: int
    ledger: int


def ledger_drift(*, user_ids: list[int] | None = None) -> list[Drift]:
    """Return every balance that is not the sum of its ledger entries.

    Empty when the books agree (the invariant :mod:`accounts.ledger`
    keeps; the nightly recalculation repairs what this finds).  Two queries.
    """
    sums: dict[tuple[int, str], int] = {}
    entries = LedgerEntry.objects.all()
    profiles = Profile.objects.all()
    if user_ids is not None:
        entries = entries.filter(user_id__in=user_ids)
        profiles = profiles.filter(user_id__in=user_ids)
    for row in entries.values("user_id", "currency").annotate(total=Sum("amount")):
        sums[(row["user_id"], row["currency"])] = int(row["total"] or 0)
    out = []
    for user_id, coins, points in profiles.values_list(
        "user_id", "coins", "rating_points"
    ):
        for currency, stored in (("coins", coins), ("points", points)):
            ledger = sums.get((user_id, currency), 0)
            if ledger != stored:
                out.append(Drift(user_id, currency, stored, ledger))
    return out
