"""The table row lock every write to a table holds.

Every service that changes a table runs in one transaction holding its row
lock (``select_for_update``), so two processes (Daphne consumers, Celery
workers, the clock) never change a table at the same time.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from ..models import HandRecord, Table
from .errors import TableError
from .hands import fetch_table


def table_lock(*, table_id: int) -> Table:
    """Fetch and lock the table row (call inside ``transaction.atomic``),
    with its room, match, hand and the hand's snapshot
    (games.services.hands.fetch_table: one statement, ``FOR UPDATE OF`` the
    table's row only).

    Raises:
        TableError: no such table.
    """
    table = fetch_table(table_id, lock=True)
    if table is None:
        raise TableError(gettext_lazy("牌桌不存在。"))
    return table


def table_lock_live(
    *, table_id: int, hand_id: int, seq: int | None = None
) -> tuple[Table, HandRecord] | None:
    """Lock the table (as :func:`table_lock`) if it still plays ``hand_id``.

    The check every delayed job makes before it acts (the clock's rows,
    games.services.clock; an annulment): the table exists, its current
    hand is ``hand_id`` and live, and — when ``seq`` is given — the hand
    is still at ``seq``.  Returns the locked table and its hand record, or
    None when any of that no longer holds (the job is stale: nothing to do).
    """
    try:
        table = table_lock(table_id=table_id)
    except TableError:
        return None
    record = table.hand
    if (
        record is None
        or record.pk != hand_id
        or record.status != HandRecord.Status.LIVE
        or (seq is not None and table.seq != seq)
    ):
        return None
    return table, record
