"""Side effects after commit: group broadcasts.

``notify_*`` only register ``transaction.on_commit`` callbacks, so nothing
leaves the process for a write that rolls back.  Due times are rows of the
one clock (games.services.clock), not messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

_HELD: ContextVar[list[dict[str, Any]] | None] = ContextVar(
    "held_broadcasts", default=None
)
"""The messages :func:`held_broadcasts` holds in this context, else None."""


def table_group(table_id: int) -> str:
    """The channel-layer group of a table's consumers."""
    return f"table-{table_id}"


def notify_table(
    table_id: int,
    *,
    reveal: dict[str, Any] | None = None,
    hand_id: int | None = None,
    events: list[dict[str, Any]] | None = None,
    seq: int | None = None,
) -> None:
    """On commit, tell every consumer of the table to render its seat's frame.

    ``reveal`` ({seat, at}) asks that seat's consumer to render once more at
    ``at`` (epoch seconds), when its veil lifts.  ``hand_id`` and ``events``
    (``Event.to_json()`` dicts just written to that hand's log) mark the
    message as a move's: a consumer then sends its frame only if it changed
    (games.consumers.TableConsumer.send_frame).  The message stays on the
    server (channel layer); consumers send browsers only rendered frames.
    ``seq``: the table's seq after the move (with ``events``), so a
    consumer that already rendered that state (its own seat's move,
    games.consumers) need not render it again.  Inside
    :func:`held_broadcasts` the caller may add ``frame`` to a move's
    message before it is sent: one seat's frame of that state, which that
    seat's consumers send instead of rendering it (games.consumers).
    """
    message: dict[str, Any] = {"type": "table.update", "table": table_id}
    if reveal:
        message["reveal"] = reveal
    if hand_id is not None and events:
        message["hand"] = hand_id
        message["events"] = events
        if seq is not None:
            message["seq"] = seq

    transaction.on_commit(lambda: _send(message))


def notify_kick(table_id: int, *, user_id: int, message: str) -> None:
    """On commit, close ``user_id``'s websockets at the table, telling them why.

    Moderation (issue 14): a suspended or banned player's open sessions are
    closed; the consumer (``table_kick``) shows ``message`` and closes with
    code 4423.
    """
    event = {
        "type": "table.kick",
        "table": table_id,
        "user": user_id,
        "message": message,
    }
    transaction.on_commit(lambda: _send(event))


@contextmanager
def held_broadcasts(
    loop: asyncio.AbstractEventLoop | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Hold the messages of the writes committed inside the block, and send
    them when it ends (also when it raises).

    Yields the list they are held in, so the caller may add to a message
    before it leaves the process (games.consumers: the opponent's frame of a
    move, rendered in the thread that applied it).  ``loop``: the event
    loop whose worker thread runs the block (a consumer's); the messages
    are then sent, in order, by a task of that loop, and the thread goes on
    without waiting for the channel layer (else it waits for each send).
    """
    held: list[dict[str, Any]] = []
    token = _HELD.set(held)
    try:
        yield held
    finally:
        _HELD.reset(token)
        if held and loop is not None:
            _post(held, loop)
        else:
            for message in held:
                _send(message)


_POSTING: set[asyncio.Task[None]] = set()
"""The tasks of :func:`_post` still sending (the loop keeps only weak ones)."""


def _post(messages: list[dict[str, Any]], loop: asyncio.AbstractEventLoop) -> None:
    """Have ``loop`` send ``messages`` in order; called from another thread."""
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - channels always configured here
        return

    async def send_all() -> None:
        for message in messages:
            try:
                await layer.group_send(table_group(message["table"]), message)
            except Exception:  # a broadcast failure must not undo a committed move
                log.exception("broadcast to table %s failed", message["table"])

    def start() -> None:
        task = loop.create_task(send_all())
        _POSTING.add(task)
        task.add_done_callback(_POSTING.discard)

    try:
        loop.call_soon_threadsafe(start)
    except RuntimeError:  # the loop is closed (the process is stopping)
        log.exception("broadcast of %d messages failed", len(messages))


def _send(message: dict[str, Any]) -> None:
    """Send ``message`` to its table's group now, or hold it
    (:func:`held_broadcasts`)."""
    held = _HELD.get()
    if held is not None:
        held.append(message)
        return
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - channels always configured here
        return
    try:
        async_to_sync(layer.group_send)(table_group(message["table"]), message)
    except Exception:  # a broadcast failure must not undo a committed move
        log.exception("broadcast to table %s failed", message["table"])
