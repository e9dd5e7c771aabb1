"""games.services.hands.fetch_table: one statement built from the models'
fields, rows made with ``Model.from_db``.

It stands in for ``select_related("room", "match", "hand", "hand__snapshot")``
(and ``select_for_update(of=("self",))``) on every move and frame, so it must
give exactly what the ORM gives: every concrete field of the five rows, the
related caches set (no query when they are read), a missing snapshot known to
be missing.  A Django upgrade that changes the converters it applies per
column, ``Model.from_db`` or how assignment fills the related caches fails
here (on SQLite, and on PostgreSQL in the ``services`` CI job).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import HandRecord, HandSnapshot, Table
from games.services import table_quick_match
from games.services.errors import TableError
from games.services.hands import fetch_table
from games.services.locking import table_lock

pytestmark = pytest.mark.django_db

RELATED = ("room", "match", "hand")


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _orm(table_id: int) -> Table:
    return Table.objects.select_related("room", "match", "hand", "hand__snapshot").get(
        pk=table_id
    )


def _same_as_orm(table_id: int, *, lock: bool = False) -> Table:
    want = _orm(table_id)
    with CaptureQueriesContext(connection) as q:
        got = fetch_table(table_id, lock=lock)
    assert got is not None
    assert len(q.captured_queries) == 1
    if lock and connection.features.has_select_for_update:
        assert "FOR UPDATE" in q.captured_queries[0]["sql"]
    assert type(got) is Table and got._state.adding is False
    assert got._state.db == want._state.db
    assert _fields(got) == _fields(want)
    with CaptureQueriesContext(connection) as q:
        for name in RELATED:
            mine, theirs = getattr(got, name), getattr(want, name)
            if theirs is None:
                assert mine is None
                continue
            assert type(mine) is type(theirs) and mine._state.adding is False
            assert _fields(mine) == _fields(theirs)
        if want.hand is not None:
            try:
                theirs = want.hand.snapshot
            except HandSnapshot.DoesNotExist:
                with pytest.raises(HandSnapshot.DoesNotExist):
                    got.hand.snapshot  # noqa: B018 - known to be missing
            else:
                assert _fields(got.hand.snapshot) == _fields(theirs)
                assert got.hand.snapshot.hand is got.hand
    assert q.captured_queries == [], "a related row was read again"
    return got


def test_a_waiting_table_without_hand_or_match(alice, room):
    table = table_quick_match(user=alice, room=room)
    got = _same_as_orm(table.pk)
    assert got.hand is None


def test_a_live_table_its_hand_snapshot_and_every_field_type(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    # every kind of column with a value: datetimes, JSON lists and objects
    Table.objects.filter(pk=table.pk).update(
        deadline=datetime(2026, 5, 1, 12, 30, 15, 250000, tzinfo=UTC),
        veil={"kind": "claim", "seat": 0, "opp_flowers": ["1f"], "until": None},
        away_since=[None, 12.5],
    )
    got = _same_as_orm(table.pk)
    assert got.deadline is not None and got.deadline.tzinfo is not None
    assert got.hand.snapshot.seq == got.seq > 0
    assert isinstance(got.hand.snapshot.data, dict)
    assert isinstance(got.hand.snapshot.events, list)
    with transaction.atomic():
        locked = _same_as_orm(table.pk, lock=True)
        assert locked.hand.snapshot.data == got.hand.snapshot.data


def test_a_hand_without_snapshot_is_known_to_have_none(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    HandSnapshot.objects.filter(hand=table.hand_id).delete()
    HandRecord.objects.filter(pk=table.hand_id).update(result={"x": [1, 2]})
    _same_as_orm(table.pk)


def test_no_such_table(db):
    assert fetch_table(10**9) is None
    with transaction.atomic():
        assert fetch_table(10**9, lock=True) is None
        with pytest.raises(TableError):
            table_lock(table_id=10**9)
