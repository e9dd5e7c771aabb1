"""The review (复盘) of ended hands: computed once, stored, reused.

:func:`review_store` runs the engine's review (:mod:`games.engine.review`:
every discard and claim decision of both seats against the hard bot, on the
seat's own observation) over a hand's seed and stored log and writes one
:class:`~games.models.HandReview`.  :func:`review_schedule` asks for it on
commit when a hand ends or is annulled: a Celery task
(``games.review_hand``) with a broker; in the embedded default (eager
Celery, the clock in the web process: ``MAHJONG_CLOCK=thread``) a daemon
thread of the web process right after the commit, so the table's last frame
is not held up; otherwise (tests, ``bench_action.py``) nothing, and the
replay page reviews the hand on first view.  It is background work, not a due time:
it never runs in the clock's loop (games.services.clock), where it would
delay the tables' timeouts.  The replay page computes a missing review on first view
(:func:`review_for`), e.g. for hands that ended before reviews existed.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import IntegrityError, close_old_connections, transaction

from games.engine.review import BOT_LEVEL, REVIEW_VERSION, Review, review_hand
from mahjong_site.celery import app as celery_app

from ..models import HandEvent, HandRecord, HandReview
from .hands import event_from_row

log = logging.getLogger(__name__)


def review_schedule(*, hand_id: int) -> None:
    """On commit, have hand ``hand_id`` reviewed (task ``games.review_hand``;
    a thread of this process in the embedded default, see the module)."""

    def go() -> None:
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            # by name: services do not import the task modules (import contract)
            celery_app.send_task("games.review_hand", args=[hand_id])
            return
        if settings.MAHJONG_CLOCK != "thread":
            return
        thread = threading.Thread(
            target=_review_in_thread, args=(hand_id,), name="review", daemon=True
        )
        _THREADS[:] = [t for t in _THREADS if t.is_alive()] + [thread]
        thread.start()

    transaction.on_commit(go)


_THREADS: list[threading.Thread] = []
"""The embedded default's review threads (tests join them)."""


def _review_in_thread(hand_id: int) -> None:
    close_old_connections()
    try:
        review_store(hand_id=hand_id)
    except Exception:
        log.exception("review of hand %s failed", hand_id)
    finally:
        close_old_connections()


def _compute(record: HandRecord) -> tuple[Review | None, str]:
    rows = list(HandEvent.objects.filter(hand=record).order_by("seq"))
    seed = record.seed or record.secret_seed
    if not rows or not seed:
        return None, "no log or no seed"
    try:
        return review_hand(seed, [event_from_row(r) for r in rows]), ""
    except (ValueError, KeyError, TypeError) as exc:
        return None, str(exc)[:200]


def review_store(*, hand_id: int, force: bool = False) -> HandReview | None:
    """Review hand ``hand_id`` and store it; return the stored review.

    Only ended or annulled hands (a live hand's log is secret): returns
    ``None`` for a live or unknown hand.  An existing review of the current
    version is returned as is unless ``force``.  A log that cannot be
    replayed is stored with its ``error`` and no decisions.  Safe to run
    twice at once: the second writer finds the first one's row.
    """
    record = HandRecord.objects.filter(pk=hand_id).first()
    if record is None or record.status == HandRecord.Status.LIVE:
        return None
    found = HandReview.objects.filter(hand_id=hand_id).first()
    if found is not None and found.version == REVIEW_VERSION and not force:
        return found
    started = time.perf_counter()
    review, error = _compute(record)
    seconds = time.perf_counter() - started
    if error:
        log.warning("hand %s could not be reviewed: %s", hand_id, error)
    a0, d0 = review.counts(0) if review else (0, 0)
    a1, d1 = review.counts(1) if review else (0, 0)
    values = {
        "version": REVIEW_VERSION,
        "bot_level": BOT_LEVEL,
        "decisions": [d.to_json() for d in review.decisions] if review else [],
        "seat0_agreed": a0,
        "seat0_decisions": d0,
        "seat1_agreed": a1,
        "seat1_decisions": d1,
        "seconds": seconds,
        "error": error,
    }
    try:
        with transaction.atomic():
            stored, _ = HandReview.objects.update_or_create(
                hand_id=hand_id, defaults=values
            )
    except IntegrityError:  # another worker stored it meanwhile
        stored = HandReview.objects.get(hand_id=hand_id)
    return stored


def review_for(*, record: HandRecord) -> HandReview | None:
    """The stored review of an ended hand, computed now if missing or old."""
    found = HandReview.objects.filter(hand_id=record.pk).first()
    if found is not None and found.version == REVIEW_VERSION:
        return found
    return review_store(hand_id=record.pk)
