"""games.services.rows: a move's writes with statements built once.

They stand in for ``Table.save()``, ``HandSnapshot.save()`` and
``HandEvent.objects.bulk_create()`` on every move, so they must write what
those write: every column a move (or the settling that may follow it)
changes, and only those, in the database's own form.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Due, HandEvent, HandRecord, Match, Table
from games.services import table_continue, table_quick_match
from games.services.hands import (
    event_from_row,
    event_to_row,
    events_insert,
    fetch_table,
)
from games.services.rows import (
    json_rows_insert,
    row_update,
    rows_insert,
    table_save_changes,
    values_update,
)
from tests.games.driver import apply_move, next_move, play_out

pytestmark = pytest.mark.django_db


def _fields(obj, *, skip=("id",)) -> dict:
    return {
        f.attname: getattr(obj, f.attname)
        for f in obj._meta.concrete_fields
        if f.attname not in skip
    }


def _live(alice, bob, room) -> Table:
    table_quick_match(user=alice, room=room)
    return table_quick_match(user=bob, room=room)


def test_changed_fields_sees_assignments_and_json_changed_in_place(alice, bob, room):
    table = _live(alice, bob, room)
    Table.objects.filter(pk=table.pk).update(veil={"kind": "claim", "seat": 0})
    got = fetch_table(table.pk)
    assert got is not None and got.changed_fields() == []
    got.veil["seat"] = 1  # in place
    got.continue_votes.append(0)  # in place
    got.seq += 1
    assert set(got.changed_fields() or ()) == {"veil", "continue_votes", "seq"}
    orm = Table.objects.get(pk=table.pk)  # the ORM's rows keep their values too
    assert orm.changed_fields() == []
    assert Table(room=room, kind="quick").changed_fields() is None  # never read


def test_save_changes_round_trips_every_column(alice, bob, room):
    table = _live(alice, bob, room)
    other = Match.objects.create(table=table, seat0=bob, seat1=alice)
    when = datetime(2026, 5, 1, 12, 30, 15, 250000, tzinfo=UTC)
    with transaction.atomic():
        got = fetch_table(table.pk, lock=True)
        assert got is not None
        new = {
            "kind": "friend",
            "status": "settling",
            "invite_token": "tok-1",
            "seat0_id": bob.pk,
            "seat1_id": alice.pk,
            "bot_level": "normal",
            "match_id": other.pk,
            "hand_id": None,
            "seq": got.seq + 7,
            "deadline": when,
            "settle_deadline": when,
            "continue_votes": [1],
            "veil": {"kind": "rob", "seat": 1, "at": 3},
            "away_since": [None, 12.5],
            "closed_reason": "left",
            "closed_seat": 1,
            "created": when,
        }
        # every column but the keys and ``updated`` (set by the save)
        assert set(new) | {"id", "room_id", "updated"} == set(_fields(got, skip=()))
        for name, value in new.items():
            setattr(got, name, value)
        table_save_changes(got)
        assert got.changed_fields() == []
    fresh = Table.objects.get(pk=table.pk)
    assert _fields(fresh) == _fields(got)
    assert fresh.updated > table.updated
    assert {k: getattr(fresh, k) for k in new} == new


def test_after_save_changes_json_changed_in_place_still_counts(alice, bob, room):
    """The values kept after a save are copies of the JSON columns (only
    those: the others are immutable), so changing a list or dict in place
    afterwards is still a change, and the next save writes it."""
    table = _live(alice, bob, room)
    with transaction.atomic():
        got = fetch_table(table.pk, lock=True)
        assert got is not None
        got.veil = {"kind": "claim", "seat": 0}
        got.seq += 1
        table_save_changes(got)
        assert got.changed_fields() == []
        got.veil["seat"] = 1  # in place, after the save
        got.away_since.append(4.5)
        assert set(got.changed_fields() or ()) == {"veil", "away_since"}
        table_save_changes(got)
        assert got.changed_fields() == []
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.veil == {"kind": "claim", "seat": 1}
    assert fresh.away_since == [*table.away_since, 4.5]
    assert fresh.seq == table.seq + 1


def test_every_move_leaves_the_row_as_the_table_object_says(alice, bob, room):
    table = _live(alice, bob, room)
    users = {0: alice, 1: bob}
    rng = random.Random(3)
    ended = moves = 0
    while moves < 400 and ended < 2:
        move = next_move(table, rng)
        if move is None:  # the hand ended: settled by the last move
            ended += 1
            table.refresh_from_db()
            for s in (0, 1):
                table_continue(user=users[s], table_id=table.pk)
            continue
        seat, payload = move
        got = apply_move(table, users[seat], seat, payload)
        moves += 1
        fresh = Table.objects.get(pk=table.pk)
        assert _fields(fresh) == _fields(got), f"after move {moves}: {payload}"
        snap = HandRecord.objects.get(pk=got.hand_id).snapshot
        assert (snap.seq, snap.data, snap.events, snap.rob_base) == (
            got.hand.snapshot.seq,
            got.hand.snapshot.data,
            got.hand.snapshot.events,
            got.hand.snapshot.rob_base,
        )
    assert ended >= 1 and moves > 20


def test_rows_insert_writes_what_bulk_create_writes(alice, bob, room):
    table = _live(alice, bob, room)
    rows = lambda seq: [  # noqa: E731
        HandEvent(
            hand_id=table.hand_id,
            seq=seq + i,
            kind="draw",
            seat=i % 2 or None,
            payload={"tile": "5m", "n": [1, 2]},
            public=None if i else {"tile": None},
            visible_to=[0],
            at=1.25 + i,
            action=None if i else {"kind": "pass"},
        )
        for i in range(3)
    ]
    rows_insert(rows(1000))
    HandEvent.objects.bulk_create(rows(2000))
    mine = HandEvent.objects.filter(hand=table.hand_id, seq__gte=1000, seq__lt=2000)
    theirs = HandEvent.objects.filter(hand=table.hand_id, seq__gte=2000)
    assert [_fields(e, skip=("id", "seq")) for e in mine.order_by("seq")] == [
        _fields(e, skip=("id", "seq")) for e in theirs.order_by("seq")
    ]
    rows_insert([])  # nothing to write


def test_rows_insert_writes_columns_of_nulls_through_either_cursor(alice, bob, room):
    """One row and three, with columns holding only SQL NULL (``seat``,
    ``public``, ``action``): what ``bulk_create`` writes, through Django's
    cursor (queries logged) and through the one binding on the server
    (games.services.rows.prepared_cursor, on PostgreSQL)."""
    table = _live(alice, bob, room)

    def rows(seq: int, n: int) -> list[HandEvent]:
        return [
            HandEvent(
                hand_id=table.hand_id,
                seq=seq + i,
                kind="timeout",
                seat=None,
                payload=[],
                public=None,
                visible_to=[],
                at=7.5,
                action=None,
            )
            for i in range(n)
        ]

    with CaptureQueriesContext(connection) as one:  # Django's cursor
        rows_insert(rows(3000, 1))
    rows_insert(rows(3001, 3))  # on PostgreSQL the server binds these
    HandEvent.objects.bulk_create(rows(4000, 4))
    mine = HandEvent.objects.filter(hand=table.hand_id, seq__gte=3000, seq__lt=4000)
    theirs = HandEvent.objects.filter(hand=table.hand_id, seq__gte=4000)
    assert [_fields(e, skip=("id", "seq")) for e in mine.order_by("seq")] == [
        _fields(e, skip=("id", "seq")) for e in theirs.order_by("seq")
    ]
    assert mine.count() == 4
    nulls = mine.filter(seat=None, public__isnull=True, action__isnull=True)
    assert nulls.count() == 4
    assert len(one) == 1 and one[0]["sql"].startswith('INSERT INTO "games_handevent"')


def _stored_text(hand_id: int, low: int, high: int) -> list[tuple]:
    """Each log row's columns as PostgreSQL prints what it stored (the text
    of a jsonb or a float8 is its stored value's: equal text, equal value)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT kind, seat::text, payload::text, public::text,"
            " visible_to::text, at::text, action::text FROM games_handevent"
            " WHERE hand_id = %s AND seq >= %s AND seq < %s ORDER BY seq",
            [hand_id, low, high],
        )
        return cursor.fetchall()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="recordset: PostgreSQL")
def test_rows_insert_stores_what_bulk_create_stores_byte_for_byte(alice, bob, room):
    """The log rows as one JSON parameter (``jsonb_to_recordset``) store
    exactly what ``bulk_create``'s ``VALUES`` store, for 1, 2 and 7 rows,
    through either cursor; the statement is the same for every number of
    rows (prepared once) and has one parameter."""
    table = _live(alice, bob, room)
    hand = table.hand_id

    def rows(seq: int, n: int) -> list[HandEvent]:
        return [
            HandEvent(
                hand_id=hand,
                seq=seq + i,
                kind=("draw", "discard", "和牌")[i % 3],
                seat=(None, 0, 1)[i % 3],
                payload=[
                    {
                        "t": "5m",
                        "n": [1, 2**40, -3],
                        "s": '自摸\n"q"\\',
                        "f": 0.1 + 0.2,
                    },
                    "just a string",
                    7,
                    [],
                    {"1": None, "k": [[]], "b": False},
                ][i % 5],
                public=None if i % 3 else {"tile": None, "x": [True, False, 1e-7]},
                visible_to=[0, 1][: i % 3],
                at=1733380000.123456 + i / 7,
                action=None if i % 2 else {"kind": "pass", "seq": i},
            )
            for i in range(n)
        ]

    sqls: list[tuple[str, int]] = []

    def seen(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        sqls.append((sql, len(params)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(seen):
        for offset, n in ((0, 1), (100, 2), (200, 7)):
            rows_insert(rows(1000 + offset, n))
    with CaptureQueriesContext(connection) as logged:  # Django's cursor
        rows_insert(rows(1300, 7))
    for offset, n in ((0, 1), (100, 2), (200, 7), (300, 7)):
        HandEvent.objects.bulk_create(rows(2000 + offset, n))
    for offset, n in ((0, 1), (100, 2), (200, 7), (300, 7)):
        mine = _stored_text(hand, 1000 + offset, 1100 + offset)
        assert len(mine) == n
        assert mine == _stored_text(hand, 2000 + offset, 2100 + offset)
    assert len(sqls) == 3 and len({sql for sql, _ in sqls}) == 1
    assert "jsonb_to_recordset" in sqls[0][0] and {n for _, n in sqls} == {1}
    assert "jsonb_to_recordset" in logged[0]["sql"]


def test_rows_insert_of_values_not_plain_json_is_a_values_list(alice, bob, room):
    """A datetime (the clock's rows) is not plain JSON: written with
    ``VALUES``, as ``bulk_create`` writes it."""
    table = _live(alice, bob, room)
    when = datetime(2026, 5, 1, 12, 30, 15, 250001, tzinfo=UTC)
    Due.objects.filter(table=table).delete()
    dues = [
        Due(table=table, kind=kind, at=when, hand_id=table.hand_id, seq=3, seat=None)
        for kind in (Due.Kind.TIMEOUT, Due.Kind.SETTLE)
    ]
    with CaptureQueriesContext(connection) as logged:
        rows_insert(dues)
    assert " VALUES " in logged[0]["sql"]
    got = sorted(Due.objects.filter(table=table).values_list("kind", "at", "seq"))
    assert got == [("settle", when, 3), ("timeout", when, 3)]


def test_events_insert_writes_what_bulk_create_of_event_to_row_writes(alice, bob, room):
    """A played hand's log through :func:`events_insert` (the live path,
    values straight from the events) and through ``bulk_create`` of
    :func:`event_to_row`'s rows: the same rows (on PostgreSQL, the same
    text of every stored value)."""
    table = _live(alice, bob, room)
    play_out(table, {0: alice, 1: bob}, seed=5, limit=60)
    record = HandRecord.objects.get(pk=table.hand_id)
    events = [event_from_row(r) for r in HandEvent.objects.filter(hand=record)]
    assert len(events) > 30
    at = lambda ev, base: dataclasses.replace(ev, seq=base + ev.seq)  # noqa: E731
    events_insert(record, [at(ev, 10_000) for ev in events])
    HandEvent.objects.bulk_create(event_to_row(record, at(ev, 20_000)) for ev in events)
    mine = HandEvent.objects.filter(hand=record, seq__gte=10_000, seq__lt=20_000)
    theirs = HandEvent.objects.filter(hand=record, seq__gte=20_000)
    assert mine.count() == len(events)
    assert [_fields(e, skip=("id", "seq")) for e in mine.order_by("seq")] == [
        _fields(e, skip=("id", "seq")) for e in theirs.order_by("seq")
    ]
    if connection.vendor == "postgresql":
        assert _stored_text(record.pk, 10_000, 20_000) == _stored_text(
            record.pk, 20_000, 30_000
        )


def test_json_rows_insert_refuses_rows_without_every_column(alice, bob, room):
    table = _live(alice, bob, room)
    row = {"hand_id": table.hand_id, "seq": 900, "kind": "draw", "seat": 0}
    # PostgreSQL checks the keys; elsewhere the model's NOT NULL columns fail
    refused = ValueError if connection.vendor == "postgresql" else DatabaseError
    with pytest.raises(refused), transaction.atomic():
        json_rows_insert(HandEvent, [row])
    assert not HandEvent.objects.filter(hand=table.hand_id, seq=900).exists()


def test_row_update_of_a_missing_row_fails(alice, bob, room):
    table = _live(alice, bob, room)
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(DatabaseError):
        row_update(table, ["seq"])


def test_values_update_writes_what_the_orm_update_writes_if_where_holds(
    alice, bob, room
):
    table = _live(alice, bob, room)
    record = HandRecord.objects.get(pk=table.hand_id)
    values = {
        "settled": True,
        "status": HandRecord.Status.ENDED,
        "seed": "abc",
        "result": {"winner": 1, "fans": [{"id": "x", "counted": True}]},
        "settlement": {"deltas": [-3, 3], "lines": []},
        "ended": datetime(2026, 12, 5, 9, 0, 1, 250000, tzinfo=UTC),
    }
    where = {"settled": False}
    with transaction.atomic():
        assert HandRecord.objects.filter(pk=record.pk, **where).update(**values) == 1
        orm = _fields(HandRecord.objects.get(pk=record.pk))
        transaction.set_rollback(True)
    assert values_update(HandRecord, pk=record.pk, values=values, where=where) == 1
    assert _fields(HandRecord.objects.get(pk=record.pk)) == orm
    # the guard no longer holds: nothing changes
    again = {**values, "seed": "other"}
    assert values_update(HandRecord, pk=record.pk, values=again, where=where) == 0
    assert _fields(HandRecord.objects.get(pk=record.pk)) == orm


def test_no_receiver_listens_to_the_rows_a_move_writes():
    """games.services.rows writes these rows without ``save()``, so without
    signals: a receiver (an audit or history library, a cache) added to one
    of them would silently miss every move — this test says so first."""
    from django.db.models import signals

    from games.models import HandSnapshot

    for model in (Table, HandEvent, HandSnapshot, HandRecord, Match):
        for signal in (signals.pre_save, signals.post_save):
            assert not signal.has_listeners(model), (model.__name__, signal)


def test_kept_json_values_are_copies_all_the_way_down():
    """What ``changed_fields`` compares against: equal to the value read and
    sharing no list or dict with it, at any depth (a veil's nested values
    changed in place still count)."""
    from games.models import _kept

    value = {"kind": "rob", "at": [1.5, {"seat": [0, None]}], "n": 3, "s": "x"}
    kept = _kept(value)
    assert kept == value and kept is not value
    assert kept["at"] is not value["at"]
    assert kept["at"][1] is not value["at"][1]
    assert kept["at"][1]["seat"] is not value["at"][1]["seat"]
    value["at"][1]["seat"].append(1)
    assert kept["at"][1]["seat"] == [0, None]
    assert _kept([[], [2]]) == [[], [2]]
    when = datetime(2026, 5, 1, tzinfo=UTC)
    assert _kept(when) is when and _kept(None) is None and _kept("a") == "a"
