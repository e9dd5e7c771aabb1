"""A moderator's work on a case: inquiry, reversal preview, the decision.

Interfaces (the admin) check the ``moderation.decide_case`` permission; the
services check the case's state and its inquiry lock, write the change,
the sanction and the ledger reversals in one transaction, and append the
audit entry.  Notices and the sanction's enforcement run on commit
(Celery tasks).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import LedgerEntry, Profile, User
from games.models import HandSeat
from games.services.reversal import hand_restore, hand_reverse

from ..evidence import case_hand_ids
from ..models import AuditEntry, Case, Outcome, Sanction
from ..restrictions import active_q
from .audit import audit, balances, case_snapshot, sanctions_of

MAX_DAYS = 3650
"""Longest mute or suspension a decision may set (days)."""


class DecisionError(ValueError):
    """A moderation action refused; ``str(exc)`` is the translated message."""


def _locked(case_id: int) -> Case:
    case = Case.objects.select_for_update().filter(pk=case_id).first()
    if case is None:
        raise DecisionError(_("没有这个案件"))
    return case


def _check_lock(case: Case, moderator: User, now: datetime) -> None:
    holder = case.inquiry_holder(now)
    if holder is not None and holder != moderator.pk:
        name = User.objects.filter(pk=holder).values_list("username", flat=True)
        raise DecisionError(
            _("这个案件正由 %(name)s 审查，请等审查结束。")
            % {"name": name.first() or holder}
        )


def case_inquiry_open(
    *, case_id: int, moderator: User, now: datetime | None = None
) -> Case:
    """Open an inquiry: the case is locked to ``moderator`` (lichess Inquiry).

    The lock lasts ``MAHJONG_INQUIRY_MINUTES``; only the holder may decide
    meanwhile.  Reopening one's own inquiry renews it.

    Raises:
        DecisionError: decided already, or another moderator's inquiry.
    """
    now = now or timezone.now()
    with transaction.atomic():
        case = _locked(case_id)
        if case.status == Case.Status.DECIDED:
            raise DecisionError(_("这个案件已经处理过了"))
        _check_lock(case, moderator, now)
        before = case_snapshot(case)
        case.inquiry_by, case.inquiry_at = moderator, now
        case.status = Case.Status.REVIEW
        case.save(update_fields=["inquiry_by", "inquiry_at", "status"])
        audit(
            action=AuditEntry.Action.INQUIRY_OPEN,
            actor=moderator,
            at=now,
            case=case,
            subject_id=case.suspect_id,
            before=before,
            after=case_snapshot(case),
        )
    return case


def case_inquiry_close(
    *, case_id: int, moderator: User, now: datetime | None = None
) -> Case:
    """Close the inquiry (the holder, or anyone once it expired).

    Raises:
        DecisionError: another moderator's open inquiry.
    """
    now = now or timezone.now()
    with transaction.atomic():
        case = _locked(case_id)
        _check_lock(case, moderator, now)
        before = case_snapshot(case)
        case.inquiry_by, case.inquiry_at = None, None
        if case.status == Case.Status.REVIEW:
            case.status = Case.Status.OPEN
        case.save(update_fields=["inquiry_by", "inquiry_at", "status"])
        audit(
            action=AuditEntry.Action.INQUIRY_CLOSE,
            actor=moderator,
            at=now,
            case=case,
            subject_id=case.suspect_id,
            before=before,
            after=case_snapshot(case),
        )
    return case


@dataclass
class ReversalPreview:
    """What reversing (or restoring) hands will post, before it is applied.

    ``rows``: one per ledger entry to undo — ``hand``, ``user``, ``name``,
    ``currency``, ``kind`` (hand / rake / recalc, or reversal when a
    reversal is undone), ``amount`` (what will be posted: the opposite of
    the entry), ``restore`` (True: the row puts back what an earlier
    reversal took).  ``totals``: per user and currency.  ``players_coins``:
    the players' coins in sum; ``rake``: the site's rake returned (negative:
    taken again by a restoration).  Conserved when ``players_coins == rake``
    (what one side gives back the other receives, and the rake comes back
    from the site).  ``skipped``: hands with nothing left to reverse or
    restore.
    """

    hand_ids: list[int]
    restore_ids: list[int] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[int, dict[str, int]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    players_coins: int = 0
    rake: int = 0
    points: int = 0
    skipped: list[int] = field(default_factory=list)

    @property
    def conserved(self) -> bool:
        return self.players_coins == self.rake

    @property
    def all_ids(self) -> list[int]:
        """Every hand previewed (reversals and restorations)."""
        return sorted(set(self.hand_ids) | set(self.restore_ids))


_SETTLED = [LedgerEntry.Kind.HAND, LedgerEntry.Kind.RAKE, LedgerEntry.Kind.RECALC]


def reversal_preview(
    *, hand_ids: Iterable[int], restore_ids: Iterable[int] = ()
) -> ReversalPreview:
    """The reversal of ``hand_ids``' coins and 实力积分, and the restoration
    of ``restore_ids`` (hands reversed earlier); nothing written."""
    ids = sorted({int(h) for h in hand_ids})
    back = sorted({int(h) for h in restore_ids} - set(ids))
    preview = ReversalPreview(hand_ids=ids, restore_ids=back)
    entries = list(
        LedgerEntry.objects.filter(
            hand_id__in=ids, kind__in=_SETTLED, reversed_by__isnull=True
        ).order_by("hand_id", "id")
    ) + list(
        LedgerEntry.objects.filter(
            hand_id__in=back,
            kind=LedgerEntry.Kind.REVERSAL,
            reverses__kind__in=_SETTLED,
            reversed_by__isnull=True,
        )
        .select_related("reverses")
        .order_by("hand_id", "id")
    )
    names = dict(
        Profile.objects.filter(user_id__in={e.user_id for e in entries}).values_list(
            "user_id", "nickname"
        )
    )
    totals: dict[int, dict[str, int]] = defaultdict(lambda: {"coins": 0, "points": 0})
    for e in entries:
        amount = -int(e.amount)
        restore = e.kind == LedgerEntry.Kind.REVERSAL
        kind = e.reverses.kind if restore and e.reverses else e.kind
        preview.rows.append(
            {
                "hand": e.hand_id,
                "user": e.user_id,
                "name": names.get(e.user_id, str(e.user_id)),
                "currency": e.currency,
                "kind": kind,
                "amount": amount,
                "restore": restore,
            }
        )
        totals[e.user_id][e.currency] += amount
        if e.currency == LedgerEntry.Currency.COINS:
            preview.players_coins += amount
            if kind == LedgerEntry.Kind.RAKE:
                preview.rake += amount
        else:
            preview.points += amount
    preview.totals = dict(totals)
    preview.names = names
    found = {e.hand_id for e in entries}
    preview.skipped = [h for h in preview.all_ids if h not in found]
    return preview


def reversible_hands(case: Case) -> list[int]:
    """Hands a decision on ``case`` may reverse (or restore): settled hands of
    the suspect attached to the case, in its evidence's pair histories (which
    leave reversed hands out) or reversed by it."""
    ids = set(case_hand_ids(case)) | set(case.reversed_hands or [])
    for pair in (case.evidence or {}).get("pairs", []):
        ids.update(pair.get("hand_ids", []))
    return sorted(
        set(
            HandSeat.objects.filter(
                hand_id__in=ids, user_id=case.suspect_id, practice=False
            ).values_list("hand_id", flat=True)
        ),
        reverse=True,
    )


def case_decide(
    *,
    case_id: int,
    moderator: User,
    outcome: str,
    reason: str,
    days: int | None = None,
    reverse_hand_ids: Sequence[int] = (),
    restore_hand_ids: Sequence[int] = (),
    previewed_hand_ids: Sequence[int] = (),
    now: datetime | None = None,
) -> Case:
    """Decide a case: dismiss, warn, mute or suspend for ``days``, ban.

    ``reverse_hand_ids`` (not with a dismissal) are reversed through the
    ledger (``games.services.reversal.hand_reverse``: coins, rake and
    实力积分 back); ``restore_hand_ids`` (hands an earlier decision on this
    case reversed) get back what the reversal took
    (``games.services.reversal.hand_restore``).  Together they must equal
    ``previewed_hand_ids`` — the moderator saw :func:`reversal_preview` of
    exactly these first.

    A later decision (the case was reopened by an appeal) replaces the
    earlier one: every sanction the case still has in force is lifted with
    this decision's reason (one ``lift`` audit entry each) before the new
    outcome's sanction, if any, is written — so a dismissal after an appeal
    leaves nothing of the earlier suspension in force.  Writes the
    sanction, closes the inquiry, appends the audit entry (before/after:
    the case, the suspect's sanctions, the balances the reversal touched;
    ``after`` also names the sanctions lifted and the hands reversed and
    restored by this decision) and, on commit, sends the notices and
    enforces a suspension or ban.

    Raises:
        DecisionError: blank reason, unknown outcome, bad ``days``, hands
            not previewed or not the case's, decided already, or locked by
            another moderator's inquiry.
    """
    from ..tasks import enforce_sanction, notify_decision

    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise DecisionError(_("请写明处理理由"))
    if outcome not in Outcome.values:
        raise DecisionError(_("未知的处理方式"))
    if outcome in (Outcome.MUTE, Outcome.SUSPEND) and (
        days is None or not 1 <= days <= MAX_DAYS
    ):
        raise DecisionError(_("请填写 1 到 %(max)d 之间的天数") % {"max": MAX_DAYS})
    wanted = sorted({int(h) for h in reverse_hand_ids})
    restore = sorted({int(h) for h in restore_hand_ids})
    if wanted and outcome == Outcome.DISMISS:
        raise DecisionError(_("驳回时不能冲正牌局"))
    if set(wanted) & set(restore):
        raise DecisionError(_("同一牌局不能既冲正又恢复"))
    if sorted(set(wanted) | set(restore)) != sorted(
        {int(h) for h in previewed_hand_ids}
    ):
        raise DecisionError(_("请先预览冲正，再确认处理"))
    with transaction.atomic():
        case = _locked(case_id)
        if case.status == Case.Status.DECIDED:
            raise DecisionError(_("这个案件已经处理过了"))
        _check_lock(case, moderator, now)
        allowed = set(reversible_hands(case)) - set(case.reversed_hands or [])
        if not set(wanted) <= allowed:
            raise DecisionError(_("只能冲正这个案件相关的牌局"))
        if not set(restore) <= set(case.reversed_hands or []):
            raise DecisionError(_("只能恢复这个案件冲正过的牌局"))
        touched = set(
            HandSeat.objects.filter(hand_id__in=wanted + restore).values_list(
                "user_id", flat=True
            )
        )
        before = {
            "case": case_snapshot(case),
            "sanctions": sanctions_of(case.suspect_id, now),
            "balances": balances(touched),
        }
        lifted = _lift_case_sanctions(case, moderator, reason, now)
        sanction = None
        kind = {
            Outcome.MUTE: Sanction.Kind.MUTE,
            Outcome.SUSPEND: Sanction.Kind.SUSPEND,
            Outcome.BAN: Sanction.Kind.BAN,
        }.get(Outcome(outcome))
        if kind is not None:
            sanction = Sanction.objects.create(
                user_id=case.suspect_id,
                kind=kind,
                reason=reason,
                starts=now,
                ends=now + timedelta(days=days) if days and kind != "ban" else None,
                case=case,
                created_by=moderator,
            )
        reversed_entries = restored_entries = 0
        for hand_id in wanted:
            reversed_entries += hand_reverse(
                hand_id=hand_id,
                reason=f"#{case.pk}: {reason}"[:255],
                by=moderator,
            )
        for hand_id in restore:
            restored_entries += hand_restore(
                hand_id=hand_id,
                reason=f"#{case.pk}: {reason}"[:255],
                by=moderator,
            )
        case.status = Case.Status.DECIDED
        case.outcome = outcome
        case.reason = reason
        case.decided_by, case.decided_at = moderator, now
        case.inquiry_by, case.inquiry_at = None, None
        case.appealed = False
        case.reversed_hands = sorted(
            (set(case.reversed_hands or []) | set(wanted)) - set(restore)
        )
        case.save()
        entry = audit(
            action=AuditEntry.Action.DECIDE,
            actor=moderator,
            at=now,
            case=case,
            subject_id=case.suspect_id,
            reason=reason,
            before=before,
            after={
                "case": case_snapshot(case),
                "sanctions": sanctions_of(case.suspect_id, now),
                "balances": balances(touched),
                "sanction": sanction.pk if sanction else None,
                "days": days,
                "reversed": wanted,
                "reversed_entries": reversed_entries,
                "restored": restore,
                "restored_entries": restored_entries,
                "lifted": [
                    {"id": s.pk, "kind": s.kind, "ends": _iso(s.ends)} for s in lifted
                ],
            },
        )
        case_id, entry_id = case.pk, entry.pk
        transaction.on_commit(lambda: notify_decision.delay(case_id, entry_id))
        if sanction is not None and sanction.kind in (
            Sanction.Kind.SUSPEND,
            Sanction.Kind.BAN,
        ):
            sanction_id = sanction.pk
            transaction.on_commit(lambda: enforce_sanction.delay(sanction_id))
    return case


def _lift_case_sanctions(
    case: Case, moderator: User, reason: str, now: datetime
) -> list[Sanction]:
    """Lift the sanctions ``case`` still has in force (a later decision
    replaces them); one ``lift`` audit entry each.  Case row locked."""
    lifted = list(
        Sanction.objects.select_for_update()
        .filter(active_q(now), case=case)
        .order_by("id")
    )
    for sanction in lifted:
        sanction.lifted_at, sanction.lifted_by = now, moderator
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        audit(
            action=AuditEntry.Action.LIFT,
            actor=moderator,
            at=now,
            case=case,
            subject_id=sanction.user_id,
            reason=reason,
            before={"sanction": sanction.pk, "kind": sanction.kind, "lifted_at": None},
            after={"sanction": sanction.pk, "lifted_at": now.isoformat()},
        )
    return lifted


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
