"""The statements of a hand's end and of the next deal (issue 15).

The move that ends a hand settles it in the same transaction, under the
table's row lock: the move's log rows and snapshot, the hand record (its
``settled`` guard and its result in one UPDATE), the profiles locked (the
bot's account found by username in that same statement), the ledger's
entries in one INSERT and the balances in one UPDATE, the players'
statistics read and updated (four rows: two players, overall and the rule
set), the HandSeat rows in one INSERT, the match, the
settlement countdown's due row and the table.  继续 deals the next hand: the
new record, its first log rows and its snapshot in one INSERT each.

Pinned at a table of two people and at a bot table, on SQLite and on
PostgreSQL (``DATABASE_URL``), for the first hand (the players' statistics
rows are created, the countdown's row too) and the second, so a change that
adds a round trip to a hand's end fails here.  The walls are seeded, so each
hand ends the same way (the first hands are wins: the ledger moves).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import HandRecord, Table
from games.services import deal, table_quick_match
from games.services.tables import table_continue, table_play_bot
from tests.games.driver import next_move
from tests.games.test_games_move_queries import LOCK, _captured_move, _shape, together

pytestmark = pytest.mark.django_db

TABLE = f'SELECT FROM "games_table"{LOCK}'
PROFILES = f'SELECT FROM "accounts_profile"{LOCK}'
# the log rows and the snapshot go together (games.services.rows.Writes), then
# settling; the table's row is written last
MOVE = [
    TABLE,
    *together('INSERT INTO "games_handevent"', 'UPDATE "games_handsnapshot"'),
]
SETTLE = ['UPDATE "games_handrecord"', PROFILES]
LEDGER = ['INSERT INTO "accounts_ledgerentry"', 'UPDATE "accounts_profile"']
STATS_READ = ['SELECT FROM "leaderboard_playerstats"']
STATS_NEW = ['INSERT INTO "leaderboard_playerstats"']
BOOKS = [
    # one per row (two players × overall and the rule set), written out and
    # sent by one executemany (leaderboard.services: psycopg pipelines them)
    '4 × UPDATE "leaderboard_playerstats"',
    'INSERT INTO "games_handseat"',
    'UPDATE "games_match"',
    "UPDATE games_due",
]
DUE_NEW = ['INSERT INTO "games_due"']
END = ['UPDATE "games_table"']


def _statements(q: CaptureQueriesContext) -> list[str]:
    """The shapes of ``q``'s statements but the outermost savepoint pair (the
    test's transaction turns the service's BEGIN/COMMIT into one)."""
    sql = [x["sql"] for x in q.captured_queries]
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE")
    return [_shape(s) for s in sql[1:-1]]


def _end_hand(table: Table, users: dict[int, User], rng: random.Random) -> list[str]:
    """Play ``table``'s hand out; return the statements of its last move."""
    for _ in range(2000):
        got = next_move(table, rng)
        assert got is not None, "the hand stopped without ending"
        q = _captured_move(table, users, *got)
        if table.status != Table.Status.PLAYING:
            assert table.status == Table.Status.SETTLING
            return _statements(q)
    raise AssertionError("the hand did not end")


def _winner(table: Table) -> Any:
    assert table.hand is not None
    return HandRecord.objects.get(pk=table.hand_id).settlement["winner"]


@pytest.fixture
def walls(monkeypatch):
    """Seeded walls (the deal's seeds come from ``secrets``)."""
    gen = random.Random(2026)
    monkeypatch.setattr(deal.secrets, "token_hex", lambda n: gen.randbytes(n).hex())


def test_a_hands_end_at_a_table_of_two_people(alice, bob, room, walls):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    users = {0: table.seat0, 1: table.seat1}
    rng = random.Random(0)

    first = _end_hand(table, users, rng)
    assert _winner(table) is not None  # coins move: the ledger is written
    assert first == (
        MOVE + SETTLE + LEDGER + STATS_READ + STATS_NEW + BOOKS + DUE_NEW + END
    )

    with CaptureQueriesContext(connection) as q:
        table_continue(user=users[0], table_id=table.pk)
    assert _statements(q) == [
        TABLE,
        'SELECT FROM "moderation_sanction"',
        'UPDATE "games_table"',
    ]
    with CaptureQueriesContext(connection) as q:
        table_continue(user=users[1], table_id=table.pk)
    assert _statements(q) == [
        TABLE,
        'SELECT FROM "moderation_sanction"',
        'SELECT FROM "accounts_profile"',  # the balances: room minimum, coin cap
        'INSERT INTO "games_handrecord"',
        'INSERT INTO "games_handevent"',
        'INSERT INTO "games_handsnapshot"',
        # the first prompt's timeout, and the table
        *together("UPDATE games_due", 'UPDATE "games_table"'),
        'INSERT INTO "games_due"',  # a seat_away row per seat not yet seen
        'INSERT INTO "games_due"',
    ]

    table.refresh_from_db()
    second = _end_hand(table, users, rng)
    # the statistics rows exist now; the countdown's row is replaced
    assert _winner(table) is not None
    assert second == MOVE + SETTLE + LEDGER + STATS_READ + BOOKS + END


def test_a_hands_end_at_a_bot_table(alice, room, walls):
    table = table_play_bot(user=alice, room=room)
    users = {0: alice, 1: alice}
    rng = random.Random(0)

    # practice: nothing goes to the ledger; the bot's account existed
    # before (created with the table), so no user row is read or written
    first = _end_hand(table, users, rng)
    assert first == MOVE + SETTLE + STATS_READ + STATS_NEW + BOOKS + DUE_NEW + END
    assert User.objects.filter(username="bot-normal").count() == 1

    with CaptureQueriesContext(connection) as q:
        table_continue(user=alice, table_id=table.pk)
    assert _statements(q) == [
        TABLE,
        'SELECT FROM "moderation_sanction"',
        'SELECT FROM "accounts_profile"',
        'INSERT INTO "games_handrecord"',
        'INSERT INTO "games_handevent"',
        'INSERT INTO "games_handsnapshot"',
        *together("UPDATE games_due", 'UPDATE "games_table"'),
        'INSERT INTO "games_due"',
    ]

    table.refresh_from_db()
    second = _end_hand(table, users, rng)
    assert second == MOVE + SETTLE + STATS_READ + BOOKS + END
