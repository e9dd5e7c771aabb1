"""Sanctions with teeth: enforcing a suspension or ban, play bans for abandoning.

Play bans (lichess): thresholds are settings, all in
``mahjong_site/settings/app.py`` (``MAHJONG_PLAYBAN_*``) and described in
the README.  Each hand records how each seat ended it
(``games.HandSeat.ending``: played, 托管 after a disconnect, left); among a
player's last ``MAHJONG_PLAYBAN_WINDOW`` non-practice hands since their last
play ban, ``MAHJONG_PLAYBAN_ABANDONS`` or more that did not end ``played``
give a play ban, ``MAHJONG_PLAYBAN_STEPS[n]`` seconds long where n counts
their play bans of the last ``MAHJONG_PLAYBAN_MEMORY_DAYS`` days (the last
step is the cap).  A play ban expires by itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.ledger import lock_profiles
from games.models import HandSeat

from ..models import AuditEntry, Sanction
from ..restrictions import active_q, sanction_message
from .audit import audit
from .notices import notify_playban

PLAYBAN_REASON = "abandons"
"""The play ban's ``Sanction.reason_code`` (its words: ``SANCTION_REASONS``)."""
"""The play ban's reason (msgid; stored in Chinese, shown translated)."""


def sanction_enforce(*, sanction_id: int, now: datetime | None = None) -> bool:
    """Take a suspended or banned player away from their table, at once.

    A live hand is finished by 托管 for their seat, a waiting or settling
    table closes, and their open websockets are closed with the reason
    (``games.services.tables.table_remove_player``).  Returns False when
    the sanction is not active (lifted, expired) or not of those kinds.
    """
    from games.services.tables import table_remove_player

    now = now or timezone.now()
    sanction = Sanction.objects.filter(pk=sanction_id).first()
    if sanction is None or sanction.kind not in (
        Sanction.Kind.SUSPEND,
        Sanction.Kind.BAN,
    ):
        return False
    if not sanction.is_active(now):
        return False
    table_remove_player(
        user_id=sanction.user_id,
        message=sanction_message(sanction),
        now=now.timestamp(),
    )
    return True


def playban_check(*, user_id: int, now: datetime | None = None) -> Sanction | None:
    """Give ``user_id`` a play ban if their recent hands say so (see module).

    Runs after a hand a seat did not play to the end (on commit of the
    settlement).  Returns the new play ban, or None.
    """
    now = now or timezone.now()
    window = settings.MAHJONG_PLAYBAN_WINDOW
    threshold = settings.MAHJONG_PLAYBAN_ABANDONS
    steps = list(settings.MAHJONG_PLAYBAN_STEPS) or [600]
    with transaction.atomic():
        lock_profiles(user_ids=[user_id])  # one check at a time per player
        if Sanction.objects.filter(
            active_q(now), user_id=user_id, kind=Sanction.Kind.PLAYBAN
        ).exists():
            return None
        last = (
            Sanction.objects.filter(user_id=user_id, kind=Sanction.Kind.PLAYBAN)
            .order_by("-starts")
            .values_list("starts", flat=True)
            .first()
        )
        hands = HandSeat.objects.filter(user_id=user_id, practice=False)
        if last is not None:
            hands = hands.filter(ended__gt=last)
        endings = list(
            hands.order_by("-ended", "-id").values_list("ending", flat=True)[:window]
        )
        abandoned = sum(1 for e in endings if e != HandSeat.Ending.PLAYED)
        if abandoned < threshold:
            return None
        memory = now - timedelta(days=settings.MAHJONG_PLAYBAN_MEMORY_DAYS)
        earlier = Sanction.objects.filter(
            user_id=user_id, kind=Sanction.Kind.PLAYBAN, starts__gte=memory
        ).count()
        seconds = steps[min(earlier, len(steps) - 1)]
        params = {"window": len(endings), "n": abandoned}
        sanction = Sanction.objects.create(
            user_id=user_id,
            kind=Sanction.Kind.PLAYBAN,
            reason="",
            reason_code=PLAYBAN_REASON,
            reason_params=params,
            starts=now,
            ends=now + timedelta(seconds=seconds),
        )
        audit(
            action=AuditEntry.Action.PLAYBAN,
            actor=None,
            at=now,
            subject_id=user_id,
            reason=PLAYBAN_REASON,
            before={"playbans": earlier},
            after={
                "sanction": sanction.pk,
                "seconds": seconds,
                "endings": endings,
                "reason_params": params,
            },
        )
        notify_playban(sanction=sanction)
    return sanction
