"""Celery task of the nightly rank recalculation (thin: calls the service)."""

from __future__ import annotations

from datetime import date
from typing import Any

from celery import shared_task

from .recalc import recalc_ranks


@shared_task(name="leaderboard.recalc_ranks")
def recalc_ranks_task(day: str | None = None) -> dict[str, Any]:
    """Recalculate ranks for ``day`` (ISO date; default yesterday, server time).

    Celery beat runs it every night at 03:00 (the ``leaderboard-recalc-ranks``
    entry, created by a data migration, editable in admin).  Returns the
    report: what was repaired and how many snapshot rows were written.
    """
    return recalc_ranks(day=date.fromisoformat(day) if day else None).to_json()
