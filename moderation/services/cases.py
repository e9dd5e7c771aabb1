"""Cases after a decision or left waiting: appeals, escalation, lifting sanctions."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from ..models import UPHELD, Appeal, AuditEntry, Case, Sanction
from ..selectors import moderators
from .audit import audit, case_snapshot
from .decisions import DecisionError
from .notices import notify_escalated


def case_appeal(
    *, case_id: int, user: User, text: str, now: datetime | None = None
) -> Appeal:
    """The reported player's appeal (a reply to the decision): reopen the case.

    The case goes back to the queue (status open, ``appealed``), its
    24-hour clock starts again and triage runs again on commit.  A muted
    player may appeal (the appeal is the way out of a mute).

    Raises:
        DecisionError: not the player's case, not decided, decided in the
            player's favour (dismissed, no hand left reversed: nothing to
            appeal), appealed already, or a blank text.
    """
    from ..tasks import triage_case

    now = now or timezone.now()
    text = (text or "").strip()[:4000]
    if not text:
        raise DecisionError(_("请写下申诉的理由"))
    with transaction.atomic():
        case = Case.objects.select_for_update().filter(pk=case_id).first()
        if case is None or case.suspect_id != user.pk:
            raise DecisionError(_("没有这个案件"))
        if case.appealed or (
            case.decided_at is not None
            and Appeal.objects.filter(case=case, created__gte=case.decided_at).exists()
        ):
            raise DecisionError(_("你已经对这次处理提出过申诉"))
        if case.status != Case.Status.DECIDED:
            raise DecisionError(_("这个案件现在不能申诉"))
        if not (case.outcome in UPHELD or case.reversed_hands):
            # only the sanctioned side appeals: a dismissal went their way
            raise DecisionError(
                _("这个案件的处理结果对你有利（驳回），没有可以申诉的处罚。")
            )
        before = case_snapshot(case)
        appeal = Appeal.objects.create(case=case, user=user, text=text, created=now)
        case.status = Case.Status.OPEN
        case.appealed = True
        case.opened = now
        case.escalated, case.escalated_at = False, None
        case.save(
            update_fields=["status", "appealed", "opened", "escalated", "escalated_at"]
        )
        audit(
            action=AuditEntry.Action.APPEAL,
            actor=user,
            at=now,
            case=case,
            subject_id=user.pk,
            reason=text,
            before=before,
            after=case_snapshot(case),
        )
        transaction.on_commit(lambda: triage_case.delay(case_id))
    return appeal


def case_escalate_overdue(*, now: datetime | None = None) -> int:
    """Escalate every case undecided ``MAHJONG_CASE_ESCALATE_HOURS`` after it
    opened: flag it (sorted first in the queue), audit it and send every
    moderator an inbox message.  Returns how many cases were escalated; a
    case is escalated once per opening (an appeal starts a new clock).
    Celery beat runs it every ``MAHJONG_ESCALATE_EVERY`` seconds (15 min).
    """
    now = now or timezone.now()
    due = now - timedelta(hours=settings.MAHJONG_CASE_ESCALATE_HOURS)
    staff = list(moderators())
    count = 0
    ids = list(
        Case.objects.exclude(status=Case.Status.DECIDED)
        .filter(escalated=False, opened__lte=due)
        .order_by("opened", "id")
        .values_list("pk", flat=True)
    )
    for case_id in ids:
        with transaction.atomic():
            case = Case.objects.select_for_update().get(pk=case_id)
            if case.escalated or case.status == Case.Status.DECIDED:
                continue
            before = case_snapshot(case)
            case.escalated, case.escalated_at = True, now
            case.save(update_fields=["escalated", "escalated_at"])
            audit(
                action=AuditEntry.Action.ESCALATE,
                actor=None,
                at=now,
                case=case,
                subject_id=case.suspect_id,
                before=before,
                after=case_snapshot(case),
            )
            notify_escalated(case=case, moderators=staff)
            count += 1
    return count


def sanction_lift(
    *, sanction_id: int, by: User, reason: str, now: datetime | None = None
) -> Sanction:
    """End a sanction early (audited); on commit the player and the
    reporters of the sanction's case are told, with ``reason``.

    Raises:
        DecisionError: a blank reason, or lifted already.
    """
    from ..tasks import notify_lifted

    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise DecisionError(_("请写明解除的理由"))
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().get(pk=sanction_id)
        if sanction.lifted_at is not None:
            raise DecisionError(_("这项处罚已经解除"))
        before = {"lifted_at": None, "ends": _iso(sanction.ends)}
        sanction.lifted_at, sanction.lifted_by = now, by
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        audit(
            action=AuditEntry.Action.LIFT,
            actor=by,
            at=now,
            case=sanction.case,
            subject_id=sanction.user_id,
            reason=reason,
            before=before,
            after={"lifted_at": now.isoformat(), "sanction": sanction.pk},
        )
        sanction_id = sanction.pk
        transaction.on_commit(lambda: notify_lifted.delay(sanction_id, reason))
    return sanction


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
