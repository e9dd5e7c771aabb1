"""Side effects after commit: group broadcasts and delayed jobs.

``notify_*`` and ``schedule_*`` only register ``transaction.on_commit``
callbacks, so nothing leaves the process for a write that rolls back.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, transaction

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """The channel-layer group of a table's consumers."""
    return f"table-{table_id}"


def notify_table(
    table_id: int,
    *,
    reveal: dict[str, Any] | None = None,
    hand_id: int | None = None,
    events: list[dict[str, Any]] | None = None,
) -> None:
    """On commit, tell every consumer of the table to render its seat's frame.

    ``reveal`` ({seat, at}) asks that seat's consumer to render once more at
    ``at`` (epoch seconds), when its veil lifts.  ``hand_id`` and ``events``
    (``Event.to_json()`` dicts just written to that hand's log) let consumers
    in other processes bring their cached hand up to date without reading
    the log (games.services.hands.absorb_events).  The message stays on the
    server (channel layer); consumers send browsers only rendered frames.
    """
    message: dict[str, Any] = {"type": "table.update", "table": table_id}
    if reveal:
        message["reveal"] = reveal
    if hand_id is not None and events:
        message["hand"] = hand_id
        message["events"] = events

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:  # pragma: no cover - channels always configured here
            return
        try:
            async_to_sync(layer.group_send)(table_group(table_id), message)
        except Exception:  # a broadcast failure must not undo a committed move
            log.exception("broadcast to table %s failed", table_id)

    transaction.on_commit(send)


def notify_kick(table_id: int, *, user_id: int, message: str) -> None:
    """On commit, close ``user_id``'s websockets at the table, telling them why.

    Moderation (issue 14): a suspended or banned player's open sessions are
    closed; the consumer (``table_kick``) shows ``message`` and closes with
    code 4423.
    """
    event = {"type": "table.kick", "user": user_id, "message": message}

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:  # pragma: no cover - channels always configured here
            return
        try:
            async_to_sync(layer.group_send)(table_group(table_id), event)
        except Exception:
            log.exception("kick at table %s failed", table_id)

    transaction.on_commit(send)


_TIMERS: list[threading.Timer] = []
_TIMERS_LOCK = threading.Lock()


def cancel_timers() -> int:
    """Cancel this process's pending timer-thread jobs; return how many.

    For tests (and a clean shutdown): the jobs are lost, as in a crash;
    ``resume_tables`` schedules them again.
    """
    with _TIMERS_LOCK:
        n = sum(1 for t in _TIMERS if t.is_alive())
        for t in _TIMERS:
            t.cancel()
        _TIMERS.clear()
    return n


def scheduler_mode() -> str:
    """How delayed jobs run here: "sweep", "celery", "thread" (this process)
    or "none" (settings.MAHJONG_SCHEDULER; "auto" is "thread" when Celery is
    eager, else "sweep")."""
    mode = settings.MAHJONG_SCHEDULER
    if mode == "auto":
        return "thread" if settings.CELERY_TASK_ALWAYS_EAGER else "sweep"
    return mode


#: Jobs that the "sweep" mode does not schedule: the deadline sweep
#: (games.services.play.sweep_deadlines) finds those tables itself.
SWEPT = frozenset({"table_deadline"})


def schedule(task_name: str, args: list[Any], *, at: float) -> None:
    """On commit, run the task ``games.tasks.<task_name>(*args)`` at ``at``.

    ``at`` is epoch seconds.  With Celery: ``apply_async(countdown=...)``;
    in the embedded default (eager Celery) a daemon timer thread of this
    process; with ``MAHJONG_SCHEDULER=none`` nothing (tests run the task);
    in the "sweep" mode nothing for the jobs in :data:`SWEPT`.
    """
    mode = scheduler_mode()
    if mode == "none" or (mode == "sweep" and task_name in SWEPT):
        return

    def go() -> None:
        from games import tasks

        task = getattr(tasks, task_name)
        delay = max(0.0, at - time.time())
        if mode in ("celery", "sweep"):
            task.apply_async(args=args, countdown=delay)
            return

        def run() -> None:
            close_old_connections()
            try:
                task.run(*args)
            except Exception:
                log.exception("scheduled %s%s failed", task_name, tuple(args))
            finally:
                close_old_connections()

        timer = threading.Timer(delay, run)
        timer.daemon = True
        with _TIMERS_LOCK:
            _TIMERS[:] = [t for t in _TIMERS if t.is_alive()]
            _TIMERS.append(timer)
        timer.start()

    transaction.on_commit(go)
