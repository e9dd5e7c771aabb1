"""举报: filing a report, as an atom of the open case against the suspect.

lichess's shape: one open case per suspect and category; each reporter is
one atom of it per category (a second report by the same player in the same
category adds their words and hands to their atom; in another category it
is an atom of its own, its category kept).  A report against a player who
has an open case of another category, reported within
``MAHJONG_REPORT_MERGE_HOURS``, joins that case too.  Triage
(``moderation.tasks.triage_case``) runs on commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ledger import lock_profiles
from accounts.models import User
from games.models import HandRecord

from ..models import Case, Category, Report
from ..restrictions import account_refusal, is_muted, until_text

TEXT_MAX = 2000
"""Characters of one report's text (an atom keeps at most twice that)."""


class ReportError(ValueError):
    """A report refused; ``str(exc)`` is the translated message for the player."""


def _other_seat_user(hand: HandRecord, reporter_id: int) -> int:
    seat = hand.seat_of(reporter_id)
    if seat is None:
        raise ReportError(_("只能举报自己参加的牌局"))
    other = hand.seat1_id if seat == 0 else hand.seat0_id
    if hand.practice or other is None:
        raise ReportError(_("人机练习的牌局不能举报"))
    return int(other)


def reportable_hands(*, reporter_id: int, suspect_id: int, limit: int) -> list[int]:
    """The last ``limit`` non-practice hands the two players played together."""
    return list(
        HandRecord.objects.filter(
            Q(seat0_id=reporter_id, seat1_id=suspect_id)
            | Q(seat0_id=suspect_id, seat1_id=reporter_id),
            practice=False,
        )
        .order_by("-started", "-id")
        .values_list("pk", flat=True)[:limit]
    )


def _player_hands(*, reporter_id: int, suspect: User) -> list[int]:
    """The hands a player-page report of ``suspect`` attaches (see below).

    Raises:
        ReportError: reporting oneself, a bot, or a player never met.
    """
    if suspect.pk == reporter_id:
        raise ReportError(_("不能举报自己"))
    if getattr(getattr(suspect, "profile", None), "is_bot", False):
        raise ReportError(_("机器人不能被举报"))
    hand_ids = reportable_hands(
        reporter_id=reporter_id,
        suspect_id=suspect.pk,
        limit=settings.MAHJONG_REPORT_PLAYER_HANDS,
    )
    if not hand_ids:
        raise ReportError(_("你还没有和这位玩家打过牌，不能举报"))
    return hand_ids


def player_report_refusal(*, reporter_id: int, suspect: User) -> str | None:
    """Why ``reporter_id`` may not report ``suspect`` from the player page.

    The rule :func:`report_file` applies to a player-page report (oneself,
    a bot, a player never met), as the translated message, or None when
    the report may be filed.  The player page shows it instead of the form.
    """
    try:
        _player_hands(reporter_id=reporter_id, suspect=suspect)
    except ReportError as exc:
        return str(exc)
    return None


def _open_case(suspect_id: int, category: str, now: datetime) -> Case | None:
    """The open case this report joins (same category; or any reported lately)."""
    open_cases = Case.objects.select_for_update().filter(suspect_id=suspect_id)
    open_cases = open_cases.exclude(status=Case.Status.DECIDED)
    same = open_cases.filter(category=category).first()
    if same is not None:
        return same
    recent = now - timedelta(hours=settings.MAHJONG_REPORT_MERGE_HOURS)
    return open_cases.filter(updated__gte=recent).order_by("-updated").first()


def report_file(
    *,
    reporter: User,
    category: str,
    text: str = "",
    hand: HandRecord | None = None,
    suspect: User | None = None,
    now: datetime | None = None,
) -> Report:
    """File ``reporter``'s report of ``hand`` (its other player) or of ``suspect``.

    Exactly one of ``hand`` (from the table, the settlement panel, the
    record or the replay: the hand is attached) and ``suspect`` (from a
    player page: their last ``MAHJONG_REPORT_PLAYER_HANDS`` hands against
    the reporter are attached) is given.  Returns the reporter's atom, with
    ``joined`` True when this report joined their earlier atom (one atom per
    reporter and category of an open case: the words and hands are added to
    it and it counts once, so the page must not say a new report was filed).

    Raises:
        ReportError: unknown category; the reporter is suspended or banned,
            or muted and wrote a text; not a player of the hand; a practice
            hand; reporting oneself, a bot, or a player never met; a hand
            whose report was decided already; over ``MAHJONG_REPORTS_PER_DAY``.
    """
    now = now or timezone.now()
    if category not in Category.values:
        raise ReportError(_("请选择举报类别"))
    refusal = account_refusal(user_id=reporter.pk, now=now)
    if refusal:
        raise ReportError(refusal)
    text = (text or "").strip()[:TEXT_MAX]
    if text:
        mute = is_muted(user_id=reporter.pk, now=now)
        if mute is not None:
            raise ReportError(
                _("你已被禁言（至 %(until)s），举报不能附带文字说明。")
                % {"until": until_text(mute)}
                if mute.ends
                else _("你已被禁言（解除前一直有效），举报不能附带文字说明。")
            )
    if (hand is None) == (suspect is None):
        raise ValueError("give a hand or a suspect")
    if hand is not None:
        suspect_id = _other_seat_user(hand, reporter.pk)
        hand_ids: Sequence[int] = [hand.pk]
        # the hand this reporter reported and had decided; a hand that was
        # only attached to a player-page report may be reported on its own
        if Report.objects.filter(
            reporter=reporter, hand=hand, case__status=Case.Status.DECIDED
        ).exists():
            raise ReportError(_("你对这一盘的举报已经处理过了"))
    else:
        assert suspect is not None
        suspect_id = suspect.pk
        hand_ids = _player_hands(reporter_id=reporter.pk, suspect=suspect)
    for attempt in range(3):
        try:
            atom = _file(reporter, suspect_id, category, text, hand, hand_ids, now)
        except IntegrityError:  # a concurrent report opened the case first
            if attempt == 2:
                raise
            continue
        break
    return atom


def _file(
    reporter: User,
    suspect_id: int,
    category: str,
    text: str,
    hand: HandRecord | None,
    hand_ids: Sequence[int],
    now: datetime,
) -> Report:
    from ..tasks import triage_case

    with transaction.atomic():
        lock_profiles(user_ids=[reporter.pk])  # serialises this reporter's count
        case = _open_case(suspect_id, category, now)
        # one atom per reporter and category: a second report in another
        # category (joining this case within the merge window) is an atom of
        # its own, so its category is kept beside the first
        atom = (
            case.reports.filter(reporter=reporter, category=category).first()
            if case is not None
            else None
        )
        if atom is None:
            day = now - timedelta(days=1)
            filed = Report.objects.filter(reporter=reporter, created__gte=day).count()
            if filed >= settings.MAHJONG_REPORTS_PER_DAY:
                raise ReportError(
                    _("每天最多举报 %(n)d 次，请明天再试。")
                    % {"n": settings.MAHJONG_REPORTS_PER_DAY}
                )
        if case is None:
            with transaction.atomic():
                case = Case.objects.create(
                    suspect_id=suspect_id,
                    category=category,
                    created=now,
                    opened=now,
                    updated=now,
                )
        repeat = atom is not None  # joins the reporter's earlier atom
        if atom is None:
            atom = Report.objects.create(
                case=case,
                reporter=reporter,
                category=category,
                hand=hand,
                text=text,
                created=now,
                updated=now,
            )
        else:
            if text:
                joined = f"{atom.text}\n---\n{text}" if atom.text else text
                atom.text = joined[-2 * TEXT_MAX :]
            atom.hand = hand or atom.hand
            atom.updated = now
            atom.save(update_fields=["text", "hand", "updated"])
        atom.hands.add(*hand_ids)
        case.updated = now
        case.save(update_fields=["updated"])
        case_id = case.pk
        transaction.on_commit(lambda: triage_case.delay(case_id))
    atom.joined = repeat
    return atom


def report_signal(
    *,
    suspect_id: int,
    category: str,
    signal: str,
    data: dict[str, Any],
    hand_ids: Sequence[int],
    now: datetime,
) -> Report:
    """An automatic signal's atom (no reporter), on the suspect's open case.

    Opens an automatic case when the suspect has none open in
    ``category``.  Triage runs on commit.
    """
    from ..tasks import triage_case

    with transaction.atomic():
        case = (
            Case.objects.select_for_update()
            .filter(suspect_id=suspect_id, category=category)
            .exclude(status=Case.Status.DECIDED)
            .first()
        )
        if case is None:
            case = Case.objects.create(
                suspect_id=suspect_id,
                category=category,
                automatic=True,
                created=now,
                opened=now,
                updated=now,
            )
        atom = Report.objects.create(
            case=case,
            reporter=None,
            category=category,
            signal=signal,
            signal_data=data,
            created=now,
            updated=now,
        )
        atom.hands.add(*hand_ids)
        Case.objects.filter(pk=case.pk).update(updated=now)
        case_id = case.pk
        transaction.on_commit(lambda: triage_case.delay(case_id))
    return atom
