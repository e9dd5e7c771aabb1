"""The statements of a move (issue 15): a move that does not end the hand,
at a table of two people and at a bot table (the bot's answer in the same
transaction), is the locking read of the table (with its hand and snapshot)
and its writes — one INSERT of the move's log rows, and one UPDATE each of
the snapshot, the clock's due row and the table — sent together on
PostgreSQL (games.services.rows.Writes: two round trips in all), one by one
on SQLite.  A change that adds a round trip to every move fails here."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Table
from games.protocol import parse_move
from games.services import table_quick_match
from games.services.act import table_move
from games.services.tables import table_play_bot
from tests.games.driver import next_move, unveiled_at

pytestmark = pytest.mark.django_db

LOCK = " FOR UPDATE" if connection.features.has_select_for_update else ""


def together(*shapes: str) -> list[str]:
    """The statements of ``shapes`` as games.services.rows.Writes sends them:
    one ``WITH`` statement on PostgreSQL, one by one elsewhere."""
    if connection.vendor == "postgresql" and len(shapes) > 1:
        return ["WITH " + " + ".join(shapes)]
    return list(shapes)


MOVE_STATEMENTS = [
    f'SELECT FROM "games_table"{LOCK}',
    *together(
        'INSERT INTO "games_handevent"',
        'UPDATE "games_handsnapshot"',
        "UPDATE games_due",
        'UPDATE "games_table"',
    ),
]

_PART = re.compile(r"\bw\d+ AS \((INSERT INTO \S+|UPDATE \S+)")


def _shape(sql: str) -> str:
    """A statement's verb and the table it writes or reads first (for a
    ``WITH`` statement, those of each part)."""
    words = sql.split()
    if len(words) > 2 and words[1] == "times:":  # executemany, as Django logs it
        return f"{words[0]} × {_shape(sql.split(None, 2)[2])}"
    if words[0] == "WITH":
        return "WITH " + " + ".join(_PART.findall(sql))
    if words[0] == "SELECT":
        lock = " FOR UPDATE" if "FOR UPDATE" in sql else ""
        return f"SELECT FROM {words[words.index('FROM') + 1]}{lock}"
    return " ".join(words[:3] if words[0] == "INSERT" else words[:2])


def _captured_move(
    table: Table, users: dict[int, User], seat: int, payload: dict[str, Any]
) -> CaptureQueriesContext:
    """Apply ``seat``'s move as its socket would, capturing its SQL; ``table``
    is refreshed from the database afterwards."""
    with CaptureQueriesContext(connection) as q:
        table_move(
            user=users[seat],
            table_id=table.pk,
            move=parse_move(payload),
            now=unveiled_at(table, seat),
        )
    table.refresh_from_db()
    return q


def _moves(table: Table, users: dict[int, User], count: int) -> list[list[str]]:
    """The statements of each of the first ``count`` moves that leave the
    hand being played (savepoints of the test's transaction left out)."""
    rng = random.Random(0)
    seen: list[list[str]] = []
    for _ in range(200):
        got = next_move(table, rng)
        if got is None or len(seen) == count:
            break
        q = _captured_move(table, users, *got)
        if table.status != Table.Status.PLAYING:
            break
        seen.append(
            [
                _shape(x["sql"])
                for x in q.captured_queries
                if not x["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
            ]
        )
    return seen


def test_a_move_at_a_table_of_two_people_is_five_statements(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    moves = _moves(table, {0: table.seat0, 1: table.seat1}, 12)
    assert len(moves) >= 6
    assert moves == [MOVE_STATEMENTS] * len(moves)


def test_a_move_at_a_bot_table_with_the_bots_answer_is_five_statements(alice, room):
    table = table_play_bot(user=alice, room=room)
    moves = _moves(table, {0: alice, 1: alice}, 12)
    assert len(moves) >= 4
    assert moves == [MOVE_STATEMENTS] * len(moves)
