"""Celery tasks of moderation: thin wrappers that take ids and call services."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task


def _when(iso: str | None) -> datetime | None:
    return datetime.fromisoformat(iso) if iso else None


@shared_task(name="moderation.triage_case", ignore_result=True)
def triage_case(case_id: int) -> None:
    """Build the evidence bundle and the priority of case ``case_id``."""
    from .services.triage import case_triage

    case_triage(case_id=case_id)
