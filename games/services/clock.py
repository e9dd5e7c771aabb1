"""The one clock of the live tables: due rows and the loop that runs them.

Every delayed step of a table is a :class:`~games.models.Due` row written in
the same transaction as the change that makes it due (under the table's row
lock): the turn and claim timeouts, paced 托管, the disconnect grace, the
settlement countdown and the bot offer.  One function, :func:`run_due`,
runs them, wherever the loop lives (``settings.MAHJONG_CLOCK``):

- ``thread``: a daemon thread of the web process (the embedded default:
  SQLite, one process), woken when a row due sooner is committed;
- ``command``: ``manage.py run_clock`` (production, any number of them);
  the web processes only write rows.  Tests use it and call
  :func:`run_due` with their own ``now``.

Exactly once: :func:`run_due` claims one due row at a time with ``SELECT …
FOR UPDATE SKIP LOCKED`` (another loop skips it), then takes the table's
row lock with ``SKIP LOCKED`` too (a table busy with a move is left for the
next pass, so a loop never waits for a table while holding a row: no
deadlock with a move, which locks the table and then writes rows), deletes
the row and acts only if the table is still at the row's hand and ``seq``,
all in one transaction.  A second loop either skips the locked row or no
longer finds it.  The services it calls check the table's state again under
the same lock.  SQLite has no ``SKIP LOCKED`` (Django ignores it there);
its one in-process loop runs under a process lock instead.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models.expressions import Col

from ..models import Due, Table
from .rows import Writes, prepared_cursor

log = logging.getLogger(__name__)

KINDS = Due.Kind
"""The kinds of due rows (timeout, auto_step, seat_away, settle, bot_offer)."""

RETRY_AFTER = 5.0
"""Seconds before a row whose action raised is tried again."""

_ONE_PER_TABLE = frozenset(
    {KINDS.TIMEOUT, KINDS.AUTO_STEP, KINDS.SETTLE, KINDS.BOT_OFFER}
)


def _dt(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


_REPLACE = (
    f"UPDATE {Due._meta.db_table} SET at = %s, hand_id = %s, seq = %s, seat = %s"
    " WHERE table_id = %s AND kind = %s"
)


def clock_set(
    *,
    table_id: int,
    kind: str,
    at: float,
    hand_id: int | None = None,
    seq: int | None = None,
    seat: int | None = None,
    writes: Writes | None = None,
) -> None:
    """Make ``kind`` due at table ``table_id`` at ``at`` (epoch seconds).

    Call inside the transaction that holds the table's row lock (or that
    created the table), so the row commits with the change it follows.
    ``hand_id`` and ``seq``: act only while the table is at that hand and
    sequence number (None: not checked; the service checks what it needs).
    A table keeps one row of each kind, replaced here, except ``seat_away``
    (one per absence, each checks the seat's presence when it runs).
    ``writes``: queue the replacing UPDATE there (the row is created after
    the queue ran, if there was none to replace).
    """
    kind = KINDS(kind)
    due = _dt(at)

    def create(replaced: int) -> None:
        if not replaced:
            Due.objects.create(
                table_id=table_id,
                kind=kind,
                at=due,
                hand_id=hand_id,
                seq=seq,
                seat=seat,
            )

    if kind in _ONE_PER_TABLE:
        # every move plans its timeout here: one plain statement (the ORM's
        # update() cost about 1 ms of CPU per move in bench_action.py)
        stored = connection.ops.adapt_datetimefield_value(due)
        params = [stored, hand_id, seq, seat, table_id, kind]
        if writes is not None:
            writes.add(_REPLACE, params, create)
        else:
            with prepared_cursor() as cursor:
                cursor.execute(_REPLACE, params)
                create(cursor.rowcount)
    else:
        create(0)
    if settings.MAHJONG_CLOCK == "thread":
        transaction.on_commit(lambda: _LOOP.wake(at))


def clock_clear(*, table_id: int, kind: str) -> None:
    """Drop table ``table_id``'s rows of ``kind``: a step that can no longer
    fall due (a waiting table's bot offer once it is paired).

    Call under the table's row lock, like :func:`clock_set`.  One statement
    here saves the clock a row it would claim, lock and run for nothing.
    """
    Due.objects.filter(table_id=table_id, kind=KINDS(kind)).delete()


def _act(row: Due, now: float) -> bool:
    """Run the service of ``row`` (table locked by the caller)."""
    from . import seats, tables, timers

    hand_id = row.hand_id
    if row.kind == KINDS.TIMEOUT and hand_id is not None and row.seq is not None:
        return timers.table_timeout(
            table_id=row.table_id, hand_id=hand_id, seq=row.seq, now=now
        )
    if row.kind == KINDS.AUTO_STEP and hand_id is not None and row.seq is not None:
        return timers.table_auto_step(
            table_id=row.table_id, hand_id=hand_id, seq=row.seq, now=now
        )
    if row.kind == KINDS.SEAT_AWAY and hand_id is not None and row.seat is not None:
        return seats.seat_away(
            table_id=row.table_id, seat=row.seat, hand_id=hand_id, now=now
        )
    if row.kind == KINDS.SETTLE and hand_id is not None:
        return tables.table_settle_timeout(
            table_id=row.table_id, hand_id=hand_id, now=now
        )
    if row.kind == KINDS.BOT_OFFER:
        return tables.table_refresh(table_id=row.table_id)
    log.error("clock: malformed row %s (%s)", row.pk, row)
    return False


_DUE_COLUMNS = ("id", "table_id", "kind", "at", "hand_id", "seq", "seat")


def _claim_sql(skipped: int) -> str:
    """The statement claiming the most overdue row not among ``skipped``
    others (``FOR UPDATE SKIP LOCKED`` where the database has it)."""
    qn = connection.ops.quote_name
    # concrete fields, each with a column (the stubs allow a relation, or None)
    cols = ", ".join(
        qn(Due._meta.get_field(c).column)  # type: ignore[union-attr,arg-type]
        for c in _DUE_COLUMNS
    )
    not_in = f" AND id NOT IN ({', '.join(['%s'] * skipped)})" if skipped else ""
    lock = (
        " FOR UPDATE SKIP LOCKED"
        if connection.features.has_select_for_update_skip_locked
        else ""
    )
    return (
        f"SELECT {cols} FROM {qn(Due._meta.db_table)} WHERE at <= %s{not_in}"
        f" ORDER BY at, id LIMIT 1{lock}"
    )


def _lock_sql() -> str:
    """The statement taking a table's row lock unless another holds it."""
    qn = connection.ops.quote_name
    lock = (
        " FOR UPDATE SKIP LOCKED"
        if connection.features.has_select_for_update_skip_locked
        else ""
    )
    return f"SELECT hand_id, seq FROM {qn(Table._meta.db_table)} WHERE id = %s{lock}"


def _run_one(now: float, skip: list[int]) -> tuple[bool, bool]:
    """Claim and run the most overdue row; return (found one, acted).

    Plain statements (the loop runs one per due row, the moves' timeouts
    among them): claim the row, take its table's lock, delete the row.
    """
    adapt = connection.ops.adapt_datetimefield_value
    with transaction.atomic():
        with prepared_cursor() as cursor:
            cursor.execute(_claim_sql(len(skip)), [adapt(_dt(now)), *skip])
            found = cursor.fetchone()
            if found is None:
                return False, False
            row = Due.from_db(connection.alias, _DUE_COLUMNS, _due_values(found))
            cursor.execute(_lock_sql(), [row.table_id])
            locked = cursor.fetchone()
            if locked is None:  # a move holds the table (or it is gone): next pass
                skip.append(row.pk)
                return True, False
            cursor.execute(
                f"DELETE FROM {connection.ops.quote_name(Due._meta.db_table)}"
                " WHERE id = %s",
                [row.pk],
            )
        hand_id, seq = locked
        if (row.hand_id is not None and hand_id != row.hand_id) or (
            row.seq is not None and seq != row.seq
        ):
            return True, False  # the table moved on: that move planned its own
        try:
            with transaction.atomic():
                acted = bool(_act(row, now))
            log.debug("clock: %s acted=%s", row, acted)
            return True, acted
        except Exception:
            log.exception("clock: %s failed; again in %s s", row, RETRY_AFTER)
            Due.objects.create(
                table_id=row.table_id,
                kind=row.kind,
                at=_dt(now + RETRY_AFTER),
                hand_id=row.hand_id,
                seq=row.seq,
                seat=row.seat,
            )
            return True, False


def _as_datetime(value: object) -> datetime:
    """A datetime column's value as the ORM reads it (SQLite returns text)."""
    col = Col(Due._meta.db_table, Due._meta.get_field("at"))
    for conv in connection.ops.get_db_converters(col):
        value = conv(value, col, connection)
    assert isinstance(value, datetime)
    return value


def _due_values(found: tuple[object, ...]) -> list[object]:
    values = list(found)
    values[3] = _as_datetime(values[3])
    return values


_PROCESS_LOCK = threading.Lock()


def run_due(*, now: float | None = None, limit: int = 1000) -> int:
    """Run every row due at ``now`` (epoch seconds, default the clock).

    The clock's one loop body (see the module docstring): at most ``limit``
    rows, the most overdue first, each in its own transaction.  Returns how
    many acted (a row whose table moved on is dropped without acting).  Safe
    to run in several processes at once on PostgreSQL; on SQLite one at a
    time per process.
    """
    now = time.time() if now is None else now
    skip: list[int] = []
    acted = 0
    guard = (
        _NO_LOCK
        if connection.features.has_select_for_update_skip_locked
        else _PROCESS_LOCK
    )
    with guard:
        for _ in range(limit):
            found, did = _run_one(now, skip)
            if not found:
                break
            acted += did
    return acted


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NO_LOCK = _NoLock()


def next_due() -> float | None:
    """Epoch seconds of the earliest row, or None when none is planned.

    One plain statement: the loop asks it at every tick, and an idle clock
    should cost nothing else."""
    with prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT MIN(at) FROM {connection.ops.quote_name(Due._meta.db_table)}"
        )
        (at,) = cursor.fetchone()
    return None if at is None else _as_datetime(at).timestamp()


def run_forever(*, stop: threading.Event | None = None) -> None:
    """The loop: :func:`run_due` when a row is due, then sleep until the next.

    Sleeps at most ``MAHJONG_CLOCK_TICK`` seconds (rows written by other
    processes are seen within a tick) unless woken by :func:`clock_set` in
    this process.  An idle tick is one statement (:func:`next_due`), no
    transaction.  An error is logged and the loop goes on.  Returns when
    ``stop`` is set.
    """
    stop = stop or threading.Event()
    while not stop.is_set():
        try:
            close_old_connections()
            upcoming = next_due()
            if upcoming is not None and upcoming <= time.time():
                run_due()
                upcoming = next_due()
        except Exception:
            log.exception("clock loop")
            upcoming = None
        tick = settings.MAHJONG_CLOCK_TICK
        wait = tick if upcoming is None else min(tick, upcoming - time.time())
        _LOOP.passed(upcoming)
        _LOOP.sleep(max(0.0, wait), stop)


class _Loop:
    """This process's loop thread (``MAHJONG_CLOCK=thread``), started lazily."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._passes = threading.Condition()
        self._upcoming: float | None = None
        self._count = 0

    def wake(self, at: float) -> None:
        """A row due at ``at`` was committed here: start or wake the loop."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop = threading.Event()
                self._thread = threading.Thread(
                    target=self._run, name="mahjong-clock", daemon=True
                )
                self._thread.start()
        self._event.set()

    def _run(self) -> None:
        try:
            run_forever(stop=self._stop)
        finally:
            close_old_connections()

    def passed(self, upcoming: float | None) -> None:
        with self._passes:
            self._upcoming, self._count = upcoming, self._count + 1
            self._passes.notify_all()

    def wait_idle(self, within: float, timeout: float) -> bool:
        """Wait until a pass, after this call, finds nothing due ``within``
        seconds; return whether it came before ``timeout``."""
        end = time.monotonic() + timeout
        with self._passes:
            start = self._count
            while True:
                upcoming = self._upcoming
                if self._count > start and (
                    upcoming is None or upcoming > time.time() + within
                ):
                    return True
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._passes.wait(left)

    def sleep(self, seconds: float, stop: threading.Event) -> None:
        if seconds > 0 and not stop.is_set():
            self._event.wait(seconds)
        self._event.clear()

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop the thread (tests, shutdown); return whether one was running."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is None:
            return False
        self._stop.set()
        self._event.set()
        thread.join(timeout)
        return True


_LOOP = _Loop()


def start_loop() -> None:
    """Start this process's clock thread now (else at its first row)."""
    _LOOP.wake(time.time())


def wait_idle(*, within: float = 1.0, timeout: float = 60.0) -> bool:
    """Wait until this process's clock thread finds nothing due within
    ``within`` seconds (tests: without touching the database meanwhile);
    return whether that happened before ``timeout`` seconds."""
    return _LOOP.wait_idle(within, timeout)


def stop_loop() -> bool:
    """Stop this process's clock thread, if any (tests, a clean shutdown)."""
    return _LOOP.stop()
