"""Less work per move: the prepared table query, broadcast events, profile copy."""

from __future__ import annotations

import random
from collections import OrderedDict

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import presenters
from games.consumers import FRAME_TABLE, TableConsumer
from games.models import HandEvent, Table
from games.services import continue_match, play, quick_match
from games.services import hands as hand_cache
from games.services.hands import absorb_events, load_hand
from tests.games.driver import next_move, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    quick_match(alice, room)
    return quick_match(bob, room)


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
                continue_match(user, table)
            move = next_move(table, rng)
            assert move is not None
        seat, payload = move
        play.do_apply_action(table.pk, users[seat], payload)
    return seat


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_prepared_table_query_gives_what_the_orm_gives(table, alice, bob):
    _advance(table, {0: table.seat0, 1: table.seat1}, 6)
    orm = Table.objects.select_related("room", "hand", "match").get(pk=table.pk)
    with CaptureQueriesContext(connection) as q:
        got = FRAME_TABLE.first(table.pk)
    assert got is not None
    assert len(q.captured_queries) == 1
    assert _fields(got) == _fields(orm)
    assert got.seq > 0 and got.status == Table.Status.PLAYING
    # the related rows come with it, converted like the ORM converts them
    with CaptureQueriesContext(connection) as q:
        assert _fields(got.room) == _fields(orm.room)
        assert _fields(got.hand) == _fields(orm.hand)
        assert _fields(got.match) == _fields(orm.match)
        assert isinstance(got.hand.result, type(orm.hand.result))
    assert q.captured_queries == []
    assert FRAME_TABLE.first(10**9) is None


def test_locked_table_query_reads_the_row_and_refuses_a_missing_one(table):
    with transaction.atomic():
        locked = play.lock_table(table.pk)
        assert _fields(locked) == _fields(Table.objects.get(pk=table.pk))
        assert locked.room.name == "新手场"
        with pytest.raises(play.TableError):
            play.lock_table(10**9)


def test_broadcast_events_bring_another_process_cache_up_to_date(table):
    users = {0: table.seat0, 1: table.seat1}
    _advance(table, users, 4)
    table.refresh_from_db()
    record = table.hand
    behind = load_hand(record, seq=table.seq)  # cached at this seq
    seq_before = behind.seq
    # another process applies a move; this process's cache is now behind
    mine = hand_cache._CACHE
    hand_cache._CACHE = OrderedDict()
    try:
        _advance(table, users, 1, seed=5)
    finally:
        hand_cache._CACHE = mine
    table.refresh_from_db()
    rows = HandEvent.objects.filter(hand=record, seq__gt=seq_before).order_by("seq")
    events = [hand_cache.event_from_row(r).to_json() for r in rows]
    assert events and table.seq > seq_before

    with CaptureQueriesContext(connection) as q:
        assert absorb_events(record.pk, events) is True
    assert q.captured_queries == []
    assert hand_cache._CACHE[record.pk].seq == table.seq
    # already current: nothing to do, still no query
    assert absorb_events(record.pk, events) is False
    with CaptureQueriesContext(connection) as q:
        assert load_hand(record, seq=table.seq).seq == table.seq
    assert q.captured_queries == []


def test_broadcast_events_that_do_not_match_are_ignored_safely(table):
    users = {0: table.seat0, 1: table.seat1}
    _advance(table, users, 4)
    table.refresh_from_db()
    record = table.hand
    hand = load_hand(record, seq=table.seq)
    good = [e.to_json() for e in hand.events[-1:]]
    # a gap (events that do not follow the cached hand): nothing changes
    gap = [dict(good[0], seq=hand.seq + 5)]
    assert absorb_events(record.pk, gap) is False
    assert hand_cache._CACHE[record.pk] is hand and hand.seq == table.seq
    # a forged continuation: the replay differs, the cached hand is dropped
    # and the next load reads the log, which is the truth
    forged = [dict(good[0], seq=hand.seq + 1, kind="discard")]
    assert absorb_events(record.pk, forged) is False
    assert record.pk not in hand_cache._CACHE
    assert load_hand(record, seq=table.seq).seq == table.seq
    assert absorb_events(record.pk, [{"nonsense": 1}]) is False


def test_a_consumer_renders_from_the_broadcast_without_reading_the_log(table):
    users = {0: table.seat0, 1: table.seat1}
    _advance(table, users, 3)
    table.refresh_from_db()
    record = table.hand
    load_hand(record, seq=table.seq)
    sent: dict = {}
    notify = play.notify_table

    def capture(table_id, **kwargs):
        sent.update(kwargs)
        notify(table_id, **kwargs)

    mine = hand_cache._CACHE
    hand_cache._CACHE = OrderedDict()
    play.notify_table = capture
    try:
        actor = _advance(table, users, 1, seed=9)
    finally:
        play.notify_table = notify
        hand_cache._CACHE = mine
    assert sent["hand_id"] == record.pk and sent["events"]
    # the opponent's consumer, in the process that did not make the move
    consumer = TableConsumer()
    consumer.table_id, consumer.seat, consumer.lang = table.pk, 1 - actor, None
    consumer.scope = {"user": users[1 - actor]}
    with CaptureQueriesContext(connection) as q:
        html = consumer._render_sync(sent["hand_id"], sent["events"])
    table.refresh_from_db()
    assert f'data-seq="{table.seq}"' in html
    sql = " ".join(x["sql"] for x in q.captured_queries)
    assert "games_handevent" not in sql


def test_profiles_are_read_once_per_hand_and_again_after_settlement(table):
    users = {0: table.seat0, 1: table.seat1}
    presenters.clear_profile_cache()
    _advance(table, users, 2)
    table = FRAME_TABLE.first(table.pk)
    with CaptureQueriesContext(connection) as q:
        presenters.render_frame(table, 0)
        presenters.render_frame(table, 1)
    profile_reads = [x for x in q.captured_queries if "accounts_profile" in x["sql"]]
    assert len(profile_reads) == 1
    before = table.seat0.profile.coins
    play_out(table, users, seed=11)
    table = FRAME_TABLE.first(table.pk)
    assert table.hand.status != "live"
    html = presenters.render_frame(table, 0)
    table.seat0.profile.refresh_from_db()
    after = table.seat0.profile.coins
    # the settled frame shows the balance after settlement, not the cached one
    assert f"{after:,}" in html
    if after != before:
        assert f">{before:,}<" not in html
