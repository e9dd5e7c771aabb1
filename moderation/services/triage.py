"""Triage: build a case's evidence bundle and score its priority (a Celery task
per report, on commit: ``moderation.tasks.triage_case``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..evidence import build_evidence
from ..models import Case
from ..priority import CATEGORY_POINTS, case_priority


def case_triage(*, case_id: int, now: datetime | None = None) -> Case | None:
    """Store ``case_id``'s evidence and priority; return the case (None if gone).

    Reads first, then writes the three fields under the case's row lock, so a
    decision taken meanwhile is not undone (only evidence and priority are
    written).  Safe to run twice.
    """
    now = now or timezone.now()
    case = Case.objects.filter(pk=case_id).first()
    if case is None:
        return None
    evidence = build_evidence(case=case, now=now)
    atoms = list(case.reports.values_list("reporter_id", "category"))
    # a reporter counts once however many categories they reported; the
    # case weighs as its weightiest category
    reporters: list[int | None] = list(
        dict.fromkeys(r for r, _c in atoms if r is not None)
    )
    reporters += [None for r, _c in atoms if r is None]
    category = max(
        sorted({case.category} | {c for _r, c in atoms}),
        key=lambda c: CATEGORY_POINTS.get(c, 0),
    )
    total, parts = case_priority(
        category=category, reporters=reporters, evidence=evidence
    )
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case_id)
        case.evidence = evidence
        case.evidence_at = now
        case.priority = total
        case.priority_parts = parts
        case.save(
            update_fields=["evidence", "evidence_at", "priority", "priority_parts"]
        )
    return case
