"""Celery tasks of games: thin wrappers that take ids and call services.

The live tables' due times (timeouts, paced 托管, the disconnect grace, the
settlement countdown, the bot offer) are not Celery jobs: they are rows of
the one clock, run by ``manage.py run_clock`` (games.services.clock).
"""

from celery import shared_task


@shared_task(name="games.review_hand", ignore_result=True)
def review_hand(hand_id: int) -> None:
    """Review an ended hand against the hard bot and store it (复盘)."""
    from .services.review import review_store

    review_store(hand_id=hand_id)
