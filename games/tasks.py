"""Celery tasks of live tables: thin wrappers that take ids and call services.

Scheduled with a countdown by games.services.notify.schedule (on commit).
Each is safe to run twice: the services check the table's state under its
row lock before acting.  Only ``table_deadline`` stores its result (the
two-worker race test reads whether each copy acted); the others store none
(``ignore_result``: one Redis write less per job).
"""

from celery import shared_task

from .services import play, tables


@shared_task(name="games.table_deadline")
def table_deadline(
    table_id: int, hand_id: int, seq: int, now: float | None = None
) -> bool:
    """The prompt at ``seq`` timed out: apply ``timeout`` if still due.

    ``now`` (epoch seconds) defaults to the clock; tests pass it.
    """
    return play.do_timeout(table_id, hand_id, seq, now=now)


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines(now: float | None = None) -> int:
    """Celery beat's deadline sweep (MAHJONG_SCHEDULER=sweep): apply every
    overdue timeout; returns how many tables it acted on."""
    return play.sweep_deadlines(now=now)


@shared_task(name="games.table_auto_step", ignore_result=True)
def table_auto_step(
    table_id: int, hand_id: int, seq: int, now: float | None = None
) -> bool:
    """Paced automated play (托管, 报听 against the bot) goes on if still due."""
    return play.do_auto_step(table_id, hand_id, seq, now=now)


@shared_task(name="games.seat_away", ignore_result=True)
def seat_away(table_id: int, seat: int, hand_id: int, now: float | None = None) -> bool:
    """The disconnect grace period of ``seat`` ended: 托管 if still away.

    ``now`` (epoch seconds) defaults to the clock; tests pass it.
    """
    return play.do_seat_away(table_id, seat, hand_id, now=now)


@shared_task(name="games.settle_timeout", ignore_result=True)
def settle_timeout(table_id: int, hand_id: int) -> bool:
    """The settlement countdown ended: return idle players to the lobby."""
    return tables.do_settle_timeout(table_id, hand_id)


@shared_task(name="games.table_refresh", ignore_result=True)
def table_refresh(table_id: int) -> None:
    """Re-render a waiting table (the bot offer appears)."""
    tables.do_table_refresh(table_id)


@shared_task(name="games.review_hand", ignore_result=True)
def review_hand(hand_id: int) -> None:
    """Review an ended hand against the hard bot and store it (复盘)."""
    from .services.review import review_store

    review_store(hand_id=hand_id)
