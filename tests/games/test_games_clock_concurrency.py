"""The one clock acts on each due row once with two loops at once (PostgreSQL).

Two threads, each with its own database connection, run the clock's loop
body (``run_due``) at the same moment over many tables whose prompts are
all overdue, each timeout row planted three times: every timeout is applied
exactly once — no table timed out twice, none left out.  SQLite has no
``SKIP LOCKED`` (its one loop runs under a process lock): skipped there.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from django.db import close_old_connections, connection

from games.models import Due, HandEvent, Table
from games.services import table_quick_match
from games.services.clock import run_due
from games.services.hands import load_hand
from tests.games.conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = 16
COPIES = 3


def _loops(now: float, n: int = 2) -> list[int]:
    """Run ``run_due(now=now)`` on ``n`` threads released together."""
    barrier = threading.Barrier(n)
    acted: list[int] = [0] * n
    errors: list[BaseException] = []

    def loop(i: int) -> None:
        try:
            close_old_connections()
            barrier.wait(timeout=30)
            acted[i] = run_due(now=now)
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    return acted


def test_two_loops_apply_every_overdue_timeout_exactly_once(room):
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SKIP LOCKED needs PostgreSQL (SQLite runs one loop)")
    tables = []
    for i in range(TABLES):
        table_quick_match(user=make_player(f"cc{i}a"), room=room)
        t = table_quick_match(user=make_player(f"cc{i}b"), room=room)
        t.refresh_from_db()
        tables.append(t)
    # only the timeouts (not the deal's presence checks), each planted thrice
    Due.objects.exclude(kind="timeout").delete()
    expected = {}
    latest = 0.0
    for t in tables:
        hand = load_hand(t.hand, seq=t.seq)
        assert hand.state.pending == [True, True]  # the pre-deal question
        row = Due.objects.get(table=t, kind="timeout")
        assert (row.hand_id, row.seq) == (t.hand_id, t.seq)
        for _ in range(COPIES - 1):
            Due.objects.create(
                table=t, kind="timeout", at=row.at, hand_id=row.hand_id, seq=row.seq
            )
        expected[t.pk] = t.seq
        latest = max(latest, row.at.timestamp())
    now = latest + 0.01

    acted = _loops(now)

    print(f"two loops, {TABLES} tables x {COPIES} rows: acted {acted}")
    assert sum(acted) == TABLES  # one action per table, whoever took it
    for t in tables:
        t.refresh_from_db()
        timeouts = HandEvent.objects.filter(hand=t.hand_id, kind="timeout")
        # both seats' pre-deal choice timed out once, after the planned seq
        assert sorted(e.seat for e in timeouts) == [0, 1], t.pk
        assert min(e.seq for e in timeouts) == expected[t.pk] + 1
        assert t.seq > expected[t.pk] and t.status == Table.Status.PLAYING
    # nothing due at that moment is left, and the next prompts are planned
    assert not Due.objects.filter(at__lte=datetime.fromtimestamp(now, tz=UTC))
    planned = set(Due.objects.filter(kind="timeout").values_list("table", "seq"))
    assert planned == {(t.pk, t.seq) for t in tables}
    # a second round of both loops finds nothing more to do
    assert _loops(now) == [0, 0]


def test_a_table_busy_with_a_move_is_left_for_the_next_pass(room):
    """The loop never waits for a table while it holds a row: a table whose
    row lock a move holds is skipped (its row kept), and run on the next
    pass once the move has committed."""
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SKIP LOCKED needs PostgreSQL")
    from django.db import transaction

    table_quick_match(user=make_player("busy-a"), room=room)
    t = table_quick_match(user=make_player("busy-b"), room=room)
    Due.objects.exclude(kind="timeout").delete()
    row = Due.objects.get(table=t, kind="timeout")
    now = row.at.timestamp() + 0.01
    locked, release = threading.Event(), threading.Event()

    def move() -> None:  # another process applying a move: holds the lock
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=t.pk)
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    mover = threading.Thread(target=move)
    mover.start()
    try:
        assert locked.wait(timeout=30)
        assert run_due(now=now) == 0  # returns at once: no waiting
        assert Due.objects.filter(pk=row.pk).exists()
    finally:
        release.set()
        mover.join(timeout=30)
    assert run_due(now=now) == 1
    assert not Due.objects.filter(pk=row.pk).exists()
    assert HandEvent.objects.filter(hand=t.hand_id, kind="timeout").count() == 2
