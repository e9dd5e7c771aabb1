"""Side effects after commit: group broadcasts.

``notify_*`` only register ``transaction.on_commit`` callbacks, so nothing
leaves the process for a write that rolls back.  Due times are rows of the
one clock (games.services.clock), not messages.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

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
    games.consumers) need not render it again.
    """
    message: dict[str, Any] = {"type": "table.update", "table": table_id}
    if reveal:
        message["reveal"] = reveal
    if hand_id is not None and events:
        message["hand"] = hand_id
        message["events"] = events
        if seq is not None:
            message["seq"] = seq

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
