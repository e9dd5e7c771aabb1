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


@shared_task(name="moderation.notify_decision", ignore_result=True)
def notify_decision(case_id: int, audit_id: int | None = None) -> int:
    """Send the inbox messages of a decided case (reporters, the player)."""
    from .services.notices import case_notify_decided

    return case_notify_decided(case_id=case_id, audit_id=audit_id)


@shared_task(name="moderation.notify_lifted", ignore_result=True)
def notify_lifted(sanction_id: int, reason: str) -> int:
    """Tell the player and the case's reporters that a sanction was lifted."""
    from .services.notices import notify_lifted as send

    return send(sanction_id=sanction_id, reason=reason)


@shared_task(name="moderation.enforce_sanction", ignore_result=True)
def enforce_sanction(sanction_id: int) -> bool:
    """Finish a suspended/banned player's table by 托管, close their sockets."""
    from .services.sanctions import sanction_enforce

    return sanction_enforce(sanction_id=sanction_id)


@shared_task(name="moderation.escalate_overdue")
def escalate_overdue(now: str | None = None) -> int:
    """Beat, every 15 minutes: escalate cases undecided after 24 hours.

    ``now`` (ISO time) is for tests; the clock otherwise.
    """
    from .services.cases import case_escalate_overdue

    return case_escalate_overdue(now=_when(now))


@shared_task(name="moderation.scan_signals")
def scan_signals(now: str | None = None) -> int:
    """Beat, hourly: open automatic cases (win trading, timing outliers)."""
    from .services.signals import signals_scan

    return signals_scan(now=_when(now))


@shared_task(name="moderation.playban_check", ignore_result=True)
def playban_after_hand(user_id: int) -> None:
    """After a hand a player did not finish: a play ban if it is repeated."""
    from .services.sanctions import playban_check

    playban_check(user_id=user_id)
