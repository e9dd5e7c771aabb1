"""Account writes: profiles, bot accounts, level schemes and the inbox (站内信).

Keyword-only, typed; views, admin actions, signals and commands call these.
Balances change only through :mod:`accounts.ledger`.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from .ledger import ledger_grant
from .models import LevelScheme, Message, Profile, User

BOT_NICKNAMES = {
    "easy": "电脑（简单）",
    "normal": "电脑（普通）",
    "hard": "电脑（困难）",
}
"""Nicknames (data) of the bot accounts, one per bot level."""

BOT_USERNAME_PREFIX = "bot-"
"""The bot accounts' usernames are this and the level (:func:`bot_username`)."""

_BOT_LIKE = re.compile(r"bot[-_.+@\s]|(电脑|computer)(\(|$)")
"""A name reserved for the bots, matched at the start of its skeleton with
spaces removed (:func:`name_clash`): the username prefix ``bot-`` (or ``bot``
and another separator) and the display names ``电脑（普通）`` / ``Computer
(Normal)`` (``games.display.names.bot_name``; NFKC turns （ into ( )."""


def profile_create(*, user: User, nickname: str = "") -> Profile:
    """Create ``user``'s profile with the starting grant.

    Coins start at ``settings.MAHJONG_STARTING_COINS`` (游戏币) and rating points at
    ``settings.MAHJONG_STARTING_POINTS`` (实力积分), posted to the ledger as a
    ``grant``. The nickname defaults to the username, unchanged: sign-up
    and admin refuse a username that is or looks like another player's
    nickname or username (:func:`name_clash`), so it is free. Only an account
    made without that check (``createsuperuser``, a script) or a race with a
    player taking that nickname meanwhile gets the username with the lowest
    free number (:func:`nickname_free`: 西窗月 → 西窗月2); the welcome message
    then tells the player (``accounts.signals``). Idempotent: an existing
    profile is returned unchanged.
    """
    existing = Profile.objects.filter(user=user).first()
    if existing is not None:
        return existing
    base = (nickname or user.get_username())[:32]
    for attempt in range(20):
        try:
            with transaction.atomic():
                profile, created = Profile.objects.get_or_create(
                    user=user,
                    defaults={"nickname": nickname_free(base=base, attempt=attempt)},
                )
                if created:
                    ledger_grant(
                        user=user,
                        coins=settings.MAHJONG_STARTING_COINS,
                        points=settings.MAHJONG_STARTING_POINTS,
                    )
                    profile.refresh_from_db()
            return profile
        except IntegrityError:
            # Another sign-up took the same nickname between the check and the insert.
            continue
    raise ValueError(f"no free nickname near {base!r}")


def profile_admin_set(
    *, profile: Profile, nickname: str, is_bot: bool, bot_level: str
) -> Profile:
    """Staff: set ``profile``'s nickname (if given) and bot flags; return it.

    The nickname goes through :func:`profile_set_nickname` (same checks);
    an empty one keeps the current nickname.

    Raises:
        ValueError: as :func:`profile_set_nickname`.
    """
    if nickname.strip() and nickname.strip() != profile.nickname:
        profile_set_nickname(profile=profile, nickname=nickname)
    if (profile.is_bot, profile.bot_level) != (is_bot, bot_level):
        profile.is_bot, profile.bot_level = is_bot, bot_level
        profile.save(update_fields=["is_bot", "bot_level"])
    return profile


def bot_username(*, level: str) -> str:
    """The username of the bot of ``level``'s account: ``bot-<level>``.

    Raises:
        ValueError: an empty level.
    """
    if not level:
        raise ValueError("a bot account needs a level")
    return f"{BOT_USERNAME_PREFIX}{level}"


def bot_account(*, level: str) -> User:
    """Return the account of the bot of ``level`` (``bot-<level>``), creating it.

    Bots have accounts so their hands have rows (``games.HandSeat``) and
    they have ratings; they never log in (unusable password) and are never
    on the boards.  Safe under concurrent first use (the username is unique:
    the loser of a race reads the winner's row).

    Raises:
        ValueError: an empty level.
    """
    username = bot_username(level=level)
    user = User.objects.filter(username=username).first()
    if user is None:
        try:
            with transaction.atomic():
                user = User(username=username, email="")
                user.set_unusable_password()
                user.save()
                profile = Profile.objects.get(user=user)
                profile.is_bot = True
                profile.bot_level = level
                profile.nickname = nickname_free(
                    base=BOT_NICKNAMES.get(level, f"电脑（{level}）")
                )
                profile.save(update_fields=["is_bot", "bot_level", "nickname"])
        except IntegrityError:
            user = User.objects.get(username=username)
    return user


def nickname_taken(*, nickname: str, exclude_profile_id: int | None = None) -> bool:
    """True when another profile already uses ``nickname``, ignoring case."""
    others = Profile.objects.filter(nickname__iexact=nickname.strip())
    if exclude_profile_id is not None:
        others = others.exclude(pk=exclude_profile_id)
    return others.exists()


@dataclass(frozen=True)
class NameClash:
    """Another player whose name a chosen name is or imitates.

    ``nickname``: that player's nickname (public, may be shown);
    ``on_nickname``: the match is on their nickname (else only on their login
    name, which is not shown); ``same``: equal ignoring case (else a
    look-alike); ``bot``: the name is reserved for the bot accounts (no
    player matched: ``nickname`` is empty).
    """

    nickname: str
    on_nickname: bool
    same: bool
    bot: bool = False


def name_clash(*, name: str, exclude_user_id: int | None = None) -> NameClash | None:
    """The other player ``name`` is or looks like, or None: the one rule for
    every chosen name (sign-up username, nickname on the profile and in admin,
    admin username).

    ``name`` clashes with a player (not ``exclude_user_id``) whose nickname or
    username equals, ignoring case, ``name`` or its skeleton
    (:func:`accounts.nicknames.nickname_skeleton`: NFKC — full-width letters,
    CJK compatibility ideographs — and look-alike letters such as Cyrillic а
    replaced by their ASCII twins, case-folded). Nicknames are matched before
    usernames. Two queries at most.

    A name that starts like a bot's username (``bot-``) or display name
    (``电脑（…）``, ``Computer (…)``) clashes with the bots (``bot=True``),
    except for a bot account itself (``exclude_user_id``): the bots' own
    accounts are made by :func:`bot_account`, and staff may still edit them.
    """
    from .nicknames import nickname_skeleton

    name = name.strip()
    if not name:
        return None
    if _BOT_LIKE.match("".join(nickname_skeleton(name).split())) and not (
        exclude_user_id is not None
        and Profile.objects.filter(user_id=exclude_user_id, is_bot=True).exists()
    ):
        return NameClash(nickname="", on_nickname=False, same=False, bot=True)
    keys = {name, nickname_skeleton(name)}
    folded = name.casefold()
    others = Profile.objects.all()
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    by_nickname = Q()
    by_username = Q()
    for key in keys:
        by_nickname |= Q(nickname__iexact=key)
        by_username |= Q(user__username__iexact=key)
    for on_nickname, match in ((True, by_nickname), (False, by_username)):
        row = others.filter(match).values_list("nickname", "user__username").first()
        if row is not None:
            matched = row[0] if on_nickname else row[1]
            return NameClash(
                nickname=row[0],
                on_nickname=on_nickname,
                same=matched.casefold() == folded,
            )
    return None


def nickname_free(*, base: str, attempt: int = 0) -> str:
    """``base`` if unused (ignoring case), else ``base`` + the lowest free number.

    Used for the default nickname at sign-up (the username), which may clash with a
    nickname another player chose. The result is at most 32 characters; ``attempt``
    skips that many free candidates (retries after a concurrent insert).
    """
    from .nicknames import nickname_repair

    base = nickname_repair(base) or "player"
    candidates = [base] + [f"{base[: 32 - len(str(n))]}{n}" for n in range(2, 10_000)]
    for candidate in candidates:
        if not nickname_taken(nickname=candidate):
            if attempt == 0:
                return candidate
            attempt -= 1
    raise ValueError(f"no free nickname near {base!r}")


def profile_set_nickname(*, profile: Profile, nickname: str) -> Profile:
    """Set the nickname shown at tables.

    ``nickname`` is normalised (NFKC, ends trimmed) first.  Raise
    ``ValueError`` if it breaks a rule of :mod:`accounts.nicknames` (blank,
    longer than 32 characters, invisible or control characters, ``/ \\ ? #
    %``), is reserved for the bots, or is or looks like another player's
    nickname or username (:func:`name_clash`; the database constraint
    ``unique_profile_nickname_ci`` backs the check against races).
    """
    from .nicknames import nickname_normalize, nickname_problem

    nickname = nickname_normalize(nickname)
    problem = nickname_problem(nickname)
    if problem is not None:
        raise ValueError(f"nickname refused: {problem.value}")
    clash = name_clash(name=nickname, exclude_user_id=profile.user_id)
    if clash is not None and clash.bot:
        raise ValueError("nickname is reserved for the bots")
    if clash is not None and not clash.same:
        raise ValueError("nickname looks like another player's")
    if clash is not None:
        raise ValueError("nickname is used by another player")
    old = profile.nickname
    profile.nickname = nickname
    try:
        with transaction.atomic():
            profile.save(update_fields=["nickname"])
    except IntegrityError as exc:
        profile.nickname = old
        raise ValueError("nickname is used by another player") from exc
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
    *,
    recipient: User,
    subject: str,
    body: str,
    sender: User | None = None,
    reply_url: str = "",
    i18n: dict[str, Any] | None = None,
) -> Message:
    """Deliver one inbox message to ``recipient``; ``sender=None`` means the system.

    ``reply_url``: the message invites a reply (e.g. an appeal of a
    moderation decision), and the inbox shows a reply form posting there.
    ``i18n``: the msgids and parameters of a system message, so it is shown
    in the reader's language (:meth:`Message.shown`).
    Raise ``ValueError`` when the subject or body is blank.
    """
    subject = subject.strip()
    if not subject or not body.strip():
        raise ValueError("an inbox message needs a subject and a body")
    return Message.objects.create(
        recipient=recipient,
        sender=sender,
        subject=subject[:120],
        body=body,
        reply_url=reply_url,
        i18n=i18n,
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
