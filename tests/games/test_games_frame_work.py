"""Less work per move: one query for the table and its hand's snapshot (with
the log), no replay; profiles read once per hand."""

from __future__ import annotations

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import presenters
from games.consumers import TableConsumer, frame_table
from games.engine.hand import Hand
from games.models import Table
from games.presenters.render import seat_frame
from games.protocol import parse_move
from games.services import TableError, table_continue, table_quick_match
from games.services.act import table_move
from games.services.hands import load_hand
from games.services.locking import table_lock
from tests.games.driver import apply_move, next_move, play_out, unveiled_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    return table_quick_match(user=bob, room=room)


def _advance(table: Table, users, moves: int, seed: int = 3) -> int:
    """Play ``moves`` moves; return the seat that made the last one.

    The deal is random and the driver sometimes plays a random legal action
    (a 和 among them), so a hand can end within a few moves (CI saw it): then
    both players press 继续 and the moves go on in the next hand, so the
    table is live at the end.
    """
    rng = random.Random(seed)
    seat = -1
    for _ in range(moves):
        move = next_move(table, rng)
        if move is None:
            assert table.status == Table.Status.SETTLING
            for user in users.values():
                table_continue(user=user, table_id=table.pk)
            move = next_move(table, rng)
            assert move is not None
        seat, payload = move
        apply_move(table, users[seat], seat, payload)
    return seat


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_frame_table_reads_the_table_its_hand_and_snapshot_in_one_query(table):
    _advance(table, {0: table.seat0, 1: table.seat1}, 6)
    orm = Table.objects.select_related("room", "hand", "match").get(pk=table.pk)
    with CaptureQueriesContext(connection) as q:
        got = frame_table(table.pk)
    assert got is not None
    assert len(q.captured_queries) == 1
    assert _fields(got) == _fields(orm)
    assert got.seq > 0 and got.status == Table.Status.PLAYING
    with CaptureQueriesContext(connection) as q:
        assert _fields(got.room) == _fields(orm.room)
        assert _fields(got.hand) == _fields(orm.hand)
        assert _fields(got.match) == _fields(orm.match)
        assert got.hand.snapshot.seq == got.seq
    assert q.captured_queries == []
    assert frame_table(10**9) is None


def test_locked_table_query_reads_the_row_and_refuses_a_missing_one(table):
    with transaction.atomic():
        locked = table_lock(table_id=table.pk)
        assert _fields(locked) == _fields(Table.objects.get(pk=table.pk))
        assert locked.room.name == "新手场"
        assert locked.hand.snapshot.seq == locked.seq
        with pytest.raises(TableError):
            table_lock(table_id=10**9)


def test_a_frame_loads_its_hand_from_the_table_query_without_replaying(
    table, monkeypatch
):
    users = {0: table.seat0, 1: table.seat1}
    actor = _advance(table, users, 5)
    replays = []
    real = Hand.replay.__func__

    def counted(cls, *args, **kwargs):
        replays.append(1)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(Hand, "replay", classmethod(counted))
    # the opponent's consumer, which did not make the move
    consumer = TableConsumer()
    consumer.table_id, consumer.seat, consumer.lang = table.pk, 1 - actor, None
    consumer.scope = {"user": users[1 - actor]}
    with CaptureQueriesContext(connection) as q:
        rendered = consumer._render_state()
    assert rendered is not None
    html = rendered[0].html()
    assert 'data-seq="' in html
    tables = [x for x in q.captured_queries if 'FROM "games_table"' in x["sql"]]
    logs = [x for x in q.captured_queries if 'FROM "games_handevent"' in x["sql"]]
    snaps = [x for x in q.captured_queries if 'FROM "games_handsnapshot"' in x["sql"]]
    assert len(tables) == 1 and logs == [] and snaps == []
    assert replays == []


def test_the_frame_of_a_moves_own_state_is_the_frame_read_back(table):
    """The mover's consumer renders its frame from the table and hand the
    move stored (games.consumers.TableConsumer._move_sync): the same HTML,
    for both seats, as a frame read back from the database, at every move
    of four hands (claims, kongs and veils included) that does not end one."""
    users = {0: table.seat0, 1: table.seat1}
    rng = random.Random(5)
    compared = 0
    for _ in range(4):
        while (move := next_move(table, rng)) is not None:
            seat, payload = move
            now = unveiled_at(table, seat)
            moved, hand = table_move(
                user=users[seat], table_id=table.pk, move=parse_move(payload), now=now
            )
            if hand.ended:
                continue
            read = frame_table(table.pk)
            assert read is not None and read.seq == moved.seq == hand.seq
            for s in (0, 1):
                mine = seat_frame(moved, s, user=users[s], hand=hand, now=now)
                back = seat_frame(read, s, user=users[s], now=now)
                assert mine.seq == back.seq and mine.parts == back.parts
            compared += 1
        for user in users.values():
            table_continue(user=user, table_id=table.pk)
    assert compared >= 60


def test_each_load_is_a_hand_of_its_own(table):
    users = {0: table.seat0, 1: table.seat1}
    _advance(table, users, 4)
    table = frame_table(table.pk)
    one = load_hand(table.hand, seq=table.seq)
    two = load_hand(table.hand, seq=table.seq)
    assert one is not two and one.state.snapshot() == two.state.snapshot()
    seat = next(s for s in (0, 1) if one.state.pending[s])
    one.apply(one.default_action(seat), now=one.state.deadline or 0.0)
    # changing a loaded hand changes nothing stored nor any other load
    again = load_hand(frame_table(table.pk).hand, seq=table.seq)
    assert again.state.snapshot() == two.state.snapshot() != one.state.snapshot()


def test_profiles_are_read_once_per_hand_and_again_after_settlement(table):
    users = {0: table.seat0, 1: table.seat1}
    presenters.clear_profile_cache()
    _advance(table, users, 2)
    table = frame_table(table.pk)
    with CaptureQueriesContext(connection) as q:
        presenters.render_frame(table, 0)
        presenters.render_frame(table, 1)
    profile_reads = [x for x in q.captured_queries if "accounts_profile" in x["sql"]]
    assert len(profile_reads) == 1
    before = table.seat0.profile.coins
    play_out(table, users, seed=11)
    table = frame_table(table.pk)
    assert table.hand.status != "live"
    html = presenters.render_frame(table, 0)
    table.seat0.profile.refresh_from_db()
    after = table.seat0.profile.coins
    # the settled frame shows the balance after settlement, not the cached one
    assert f"{after:,}" in html
    if after != before:
        assert f">{before:,}<" not in html
