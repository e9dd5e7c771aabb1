"""What a player's active sanctions forbid, and how the player is told (reads).

One place for the teeth of a decision:

- **suspension, ban** — no seat at a table (lobby, 快速开始 matching, 人机练习,
  好友房, 继续, the table page and its websocket), no reports, off the
  boards (:func:`board_excluded_users`, used by
  ``leaderboard.eligibility``);
- **play ban** (abandoning, ``moderation.services.playbans``) — no seat at
  a table; reports and boards are unaffected;
- **mute** — no free text: reports without their text, no nickname change.

The messages say why (the decision's reason) and until when (local time).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import Sanction

SEATING = (Sanction.Kind.SUSPEND, Sanction.Kind.BAN, Sanction.Kind.PLAYBAN)
"""Kinds that keep a player from sitting at a table and being matched."""

ACCOUNT = (Sanction.Kind.SUSPEND, Sanction.Kind.BAN)
"""Kinds that also refuse reports and the table page and take a player off
the boards."""


def active_q(now: datetime) -> Q:
    """A filter on :class:`Sanction` rows active at ``now``."""
    return Q(lifted_at__isnull=True, starts__lte=now) & (
        Q(ends__isnull=True) | Q(ends__gt=now)
    )


def active_sanctions(
    *, user_id: int, kinds: tuple[str, ...] | None = None, now: datetime | None = None
) -> QuerySet[Sanction]:
    """``user_id``'s sanctions active at ``now``, the longest-lasting first."""
    now = now or timezone.now()
    rows = Sanction.objects.filter(active_q(now), user_id=user_id)
    if kinds is not None:
        rows = rows.filter(kind__in=kinds)
    # a ban (no end) first, then the latest end
    return rows.order_by(F("ends").desc(nulls_first=True), "-id")


def blocking(
    *, user_id: int | None, kinds: tuple[str, ...], now: datetime | None = None
) -> Sanction | None:
    """The active sanction of ``kinds`` that lasts longest, or None."""
    if user_id is None:
        return None
    return active_sanctions(user_id=user_id, kinds=kinds, now=now).first()


def board_excluded_users(
    *, now: datetime | None = None
) -> QuerySet[Sanction, Mapping[str, Any]]:
    """User ids (a values query) of players suspended or banned at ``now``."""
    now = now or timezone.now()
    return Sanction.objects.filter(active_q(now), kind__in=ACCOUNT).values("user_id")


def seating_excluded_users(
    *, now: datetime | None = None
) -> QuerySet[Sanction, Mapping[str, Any]]:
    """User ids (a values query) who may not be matched at ``now``."""
    now = now or timezone.now()
    return Sanction.objects.filter(active_q(now), kind__in=SEATING).values("user_id")


def until_text(sanction: Sanction) -> str:
    """ "until when" for a player: a local date and time, or 解除前一直有效."""
    if sanction.ends is None:
        return _("解除前一直有效")
    return date_format(timezone.localtime(sanction.ends), "Y-m-d H:i")


def sanction_message(sanction: Sanction) -> str:
    """What the player reads about ``sanction``: what, until when, why."""
    what = {
        Sanction.Kind.SUSPEND: _("你的账号已被暂停"),
        Sanction.Kind.BAN: _("你的账号已被封禁"),
        Sanction.Kind.PLAYBAN: _("你因多次中途弃局被暂时禁止入座"),
        Sanction.Kind.MUTE: _("你已被禁言"),
    }[Sanction.Kind(sanction.kind)]
    if sanction.ends is None:  # "until until lifted" in English otherwise
        return _("%(what)s（解除前一直有效）。原因：%(reason)s") % {
            "what": what,
            "reason": sanction.reason_text(),
        }
    return _("%(what)s（至 %(until)s）。原因：%(reason)s") % {
        "what": what,
        "until": until_text(sanction),
        "reason": sanction.reason_text(),
    }


def seat_refusal(*, user_id: int | None, now: datetime | None = None) -> str | None:
    """Why ``user_id`` may not sit at a table or be matched now, or None."""
    sanction = blocking(user_id=user_id, kinds=SEATING, now=now)
    return sanction_message(sanction) if sanction else None


def account_refusal(*, user_id: int | None, now: datetime | None = None) -> str | None:
    """Why ``user_id`` may not report or open a table page now (suspended,
    banned), or None."""
    sanction = blocking(user_id=user_id, kinds=ACCOUNT, now=now)
    return sanction_message(sanction) if sanction else None


def is_muted(*, user_id: int | None, now: datetime | None = None) -> Sanction | None:
    """The active mute of ``user_id`` (or a suspension/ban, which mute too)."""
    return blocking(
        user_id=user_id,
        kinds=(Sanction.Kind.MUTE, Sanction.Kind.SUSPEND, Sanction.Kind.BAN),
        now=now,
    )


def player_notice(*, user_id: int | None, now: datetime | None = None) -> str | None:
    """The banner a sanctioned player sees on every page (the longest-lasting
    active sanction of any kind), or None."""
    if user_id is None:
        return None
    sanction = active_sanctions(user_id=user_id, now=now).first()
    return sanction_message(sanction) if sanction else None
