"""games.services.rows.prepared_cursor: the live table's statements are
prepared on PostgreSQL (issue 15).

A move's lock read and writes, a frame's read and the clock's statements go
through a psycopg cursor that binds on the server, so after
``OPTIONS["prepare_threshold"]`` runs on a connection PostgreSQL keeps each
one prepared.  An upgrade of Django or psycopg that stops that (the raw
connection no longer a psycopg one, Django's option dropped) fails here.
Checked on PostgreSQL (``DATABASE_URL``); on SQLite the cursor is Django's.
"""

from __future__ import annotations

import random

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from games.models import HandSnapshot, Table
from games.protocol import parse_move
from games.services import table_quick_match
from games.services.act import table_move
from games.services.hands import fetch_table
from games.services.rows import prepared_cursor
from tests.games.driver import next_move, unveiled_at

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="prepared statements: PostgreSQL"
    ),
]


def _prepared() -> list[str]:
    """The statements this connection holds prepared (their text)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def _orm(table_id: int) -> dict:
    t = Table.objects.select_related("hand", "hand__snapshot").get(pk=table_id)
    return {
        "table": {f.attname: getattr(t, f.attname) for f in Table._meta.fields},
        "snapshot": {
            f.attname: getattr(t.hand.snapshot, f.attname)
            for f in HandSnapshot._meta.fields
        },
    }


def test_the_threshold_is_set_for_postgresql():
    assert settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"] == 5


def test_a_frames_read_is_prepared_and_reads_what_the_orm_reads(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    want = _orm(table.pk)
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    for _ in range(threshold + 1):
        got = fetch_table(table.pk)
        assert got is not None and got.hand is not None
        assert {f.attname: getattr(got, f.attname) for f in Table._meta.fields} == (
            want["table"]
        )
        snap = got.hand.snapshot
        assert {
            f.attname: getattr(snap, f.attname) for f in HandSnapshot._meta.fields
        } == want["snapshot"]
    assert any(
        s.startswith("SELECT") and '"games_handsnapshot"' in s and "$1" in s
        for s in _prepared()
    )


def test_a_moves_writes_are_prepared_after_a_few_moves(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    users = {0: table.seat0, 1: table.seat1}
    rng = random.Random(0)
    for _ in range(12):
        got = next_move(table, rng)
        assert got is not None
        seat, payload = got
        table_move(
            user=users[seat],
            table_id=table.pk,
            move=parse_move(payload),
            now=unveiled_at(table, seat),
        )
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
    # the writes go as one statement (games.services.rows.Writes)
    writes = [s for s in _prepared() if s.startswith("WITH w0 AS (INSERT INTO")]
    assert any(
        all(
            part in s
            for part in (
                'w0 AS (INSERT INTO "games_handevent"',
                'AS (UPDATE "games_handsnapshot" SET',
                "AS (UPDATE games_due SET",
                'AS (UPDATE "games_table" SET',
            )
        )
        for s in writes
    ), writes
    table.refresh_from_db()
    assert HandSnapshot.objects.get(hand_id=table.hand_id).seq == table.seq


def test_the_cursor_binds_on_the_server():
    with prepared_cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [41])
        assert cursor.fetchone() == (42,)
        # server-side binding: psycopg's Cursor, not Django's ClientCursor
        assert isinstance(cursor.cursor, psycopg.Cursor)
        assert not isinstance(cursor.cursor, psycopg.ClientCursor)
