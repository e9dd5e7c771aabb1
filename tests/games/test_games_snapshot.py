"""The hand's snapshot row: stored with every move, equal to its replayed log,
repaired from the log by crash recovery, never shown to a browser."""

from __future__ import annotations

import random
import time

import pytest

from games.engine.errors import ActionError
from games.engine.snapshot import recent_events
from games.models import HandRecord, HandSnapshot, Table
from games.presenters import render_frame
from games.protocol import parse_move
from games.services import table_act, table_continue, table_quick_match
from games.services.hands import (
    check_snapshot,
    fetch_table,
    load_hand,
    rebuild_hand,
)
from games.services.resume import resume_tables
from tests.games.driver import apply_move, next_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    return table_quick_match(user=bob, room=room)


def _live(table: Table, users, moves: int, seed: int = 1) -> Table:
    """Play ``moves`` moves (into the next hand if one ends); a live table."""
    rng = random.Random(seed)
    for _ in range(moves):
        move = next_move(table, rng)
        if move is None:
            for user in users.values():
                table_continue(user=user, table_id=table.pk)
            move = next_move(table, rng)
        apply_move(table, users[move[0]], move[0], move[1])
    table.refresh_from_db()
    if table.status != Table.Status.PLAYING:
        for user in users.values():
            table_continue(user=user, table_id=table.pk)
        table.refresh_from_db()
    return table


def test_every_move_stores_the_state_its_log_rebuilds(table, alice, bob):
    users = {0: alice, 1: bob}
    rng = random.Random(7)
    record = None
    moves = 0
    while moves < 400:
        move = next_move(table, rng)
        if move is None:
            break
        table_act(user=users[move[0]], table_id=table.pk, move=parse_move(move[1]))
        moves += 1
        table.refresh_from_db()
        record = HandRecord.objects.get(pk=table.hand_id)
        snap = HandSnapshot.objects.get(hand=record)
        assert snap.seq == table.seq
        assert check_snapshot(record)
        # the snapshot keeps the recent events only, and every frame drawn
        # from it is the frame drawn from the whole replayed log
        full = rebuild_hand(record)
        loaded = load_hand(fetch_table(table.pk).hand, seq=table.seq)
        assert len(snap.events) == len(recent_events(full)) <= len(full.events)
        now = time.time()
        for seat in (0, 1):
            assert loaded.view(seat) == full.view(seat)
            assert loaded.legal_actions(seat) == full.legal_actions(seat)
            fresh = fetch_table(table.pk)
            assert render_frame(fresh, seat, now=now) == render_frame(
                fresh, seat, now=now, hand=full
            )
    assert record is not None and record.status != HandRecord.Status.LIVE
    assert check_snapshot(record)  # the ended hand too (its settlement)
    assert moves > 3


def test_a_refused_action_stores_nothing(table, alice, bob):
    table = _live(table, {0: alice, 1: bob}, 2)
    before = HandSnapshot.objects.get(hand=table.hand_id)
    hand = load_hand(table.hand, seq=table.seq)
    idle = next(s for s in (0, 1) if not hand.state.pending[s])
    with pytest.raises(ActionError):
        table_act(
            user=(alice, bob)[idle],
            table_id=table.pk,
            move=parse_move({"action": "discard", "tile": "1m", "seq": table.seq}),
        )
    after = HandSnapshot.objects.get(hand=table.hand_id)
    assert (after.seq, after.data) == (before.seq, before.data)


def test_a_missing_snapshot_is_rebuilt_from_the_log_and_restored_by_recovery(
    table, alice, bob
):
    table = _live(table, {0: alice, 1: bob}, 3)
    record = table.hand
    want = rebuild_hand(record).state.snapshot()
    HandSnapshot.objects.filter(hand=record).delete()
    record = HandRecord.objects.get(pk=record.pk)
    assert not check_snapshot(record)
    # a hand dealt before snapshots existed still plays (from its log)
    assert load_hand(record, seq=table.seq).state.snapshot() == want
    report = resume_tables()
    assert table.pk in report.resumed
    assert check_snapshot(HandRecord.objects.get(pk=record.pk))


def test_recovery_replaces_a_snapshot_that_differs_from_the_log(table, alice, bob):
    table = _live(table, {0: alice, 1: bob}, 3)
    record = table.hand
    snap = HandSnapshot.objects.get(hand=record)
    snap.data["state"]["wall"] = list(reversed(snap.data["state"]["wall"]))
    snap.save()
    assert not check_snapshot(record)
    assert table.pk in resume_tables().resumed
    assert check_snapshot(record)
    stored = HandSnapshot.objects.get(hand=record)
    assert stored.data == snap.data or stored.seq == table.seq
    assert load_hand(
        HandRecord.objects.get(pk=record.pk), seq=table.seq
    ).state.snapshot() == (rebuild_hand(record).state.snapshot())


def test_a_snapshot_of_another_format_is_replayed_instead(table, alice, bob):
    table = _live(table, {0: alice, 1: bob}, 3)
    record = table.hand
    HandSnapshot.objects.filter(hand=record).update(data={"v": 0})
    record = HandRecord.objects.get(pk=record.pk)
    hand = load_hand(record, seq=table.seq)
    assert hand.state.snapshot() == rebuild_hand(record).state.snapshot()


def test_no_frame_shows_the_snapshot(table, alice, bob):
    table = _live(table, {0: alice, 1: bob}, 3)
    record = table.hand
    assert record.status == HandRecord.Status.LIVE
    for seat in (0, 1):
        html = render_frame(table, seat)
        assert record.secret_seed not in html
        assert '"wall"' not in html and "clock_from" not in html


def test_a_snapshot_whose_events_do_not_end_at_its_seq_is_replayed(table, alice, bob):
    table = _live(table, {0: alice, 1: bob}, 5)
    record = table.hand
    snap = HandSnapshot.objects.get(hand=record)
    HandSnapshot.objects.filter(hand=record).update(events=snap.events[:-1])
    record = HandRecord.objects.get(pk=record.pk)
    assert not check_snapshot(record)
    hand = load_hand(record, seq=table.seq)
    assert hand.state.snapshot() == rebuild_hand(record).state.snapshot()
    assert hand.events == rebuild_hand(record).events  # the whole log, replayed
