"""A frame is built from one consistent state (issue 11 §5.6, issue 15).

The attack run saw "ended / 流局" frames during live hands: the consumer read
the table row (``seq`` N), then a move was committed, then the hand was
loaded from the log, which now ended past N; the mismatch made the hand
"unloadable" and the frame was drawn as a finished hand.  These tests commit
a move between the two reads, deterministically: the row is read first (as
the consumer does), the move is applied, and only then is the frame built
from that row.
"""

from __future__ import annotations

import random

import pytest

from games.consumers import frame_table
from games.models import HandRecord, Table
from games.presenters import render_frame, seat_context
from games.protocol import parse_move
from games.services import hands as hand_cache
from games.services import table_act, table_continue, table_quick_match
from tests.games.driver import apply_move, next_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    return table_quick_match(user=bob, room=room)


def _live_with_a_move_to_make(table: Table, users, moves: int = 6):
    """Play ``moves`` moves into a live hand; return the next (seat, payload)
    that keeps the hand live, or move on to the next hand and retry."""
    rng = random.Random(5)
    for _ in range(400):
        move = next_move(table, rng)
        if move is None:
            for user in users.values():
                table_continue(user=user, table_id=table.pk)
            continue
        moves -= 1
        if moves <= 0 and move[1]["action"] in ("discard", "pass"):
            return move
        apply_move(table, users[move[0]], move[0], move[1])
    raise AssertionError("no live hand with a discard to make")


def test_a_move_committed_between_row_and_log_does_not_end_the_frame(table, alice, bob):
    users = {0: alice, 1: bob}
    seat, payload = _live_with_a_move_to_make(table, users)
    before = frame_table(table.pk)  # the consumer's first read
    assert before.hand.status == HandRecord.Status.LIVE
    expected = {s: seat_context(before, s, now=0.0) for s in (0, 1)}
    # a move committed by another consumer between the two reads
    table_act(user=users[seat], table_id=table.pk, move=parse_move(payload))
    after = frame_table(table.pk)
    assert after.seq > before.seq
    for s in (0, 1):
        ctx = seat_context(before, s, now=0.0)
        assert ctx["phase"] != "ended" and ctx["settlement"] is None
        assert ctx == expected[s]  # the state the row describes
        html = render_frame(before, s, now=0.0)
        assert f'data-seq="{expected[s]["seq"]}"' in html
        # and the newer row gives the newer state
        # (a veiled discarder keeps seeing its claim prompt's seq)
        assert seat_context(after, s, now=0.0)["seq"] >= expected[s]["seq"]


def test_load_hand_rebuilds_the_state_at_the_asked_seq(table, alice, bob):
    users = {0: alice, 1: bob}
    seat, payload = _live_with_a_move_to_make(table, users)
    before = frame_table(table.pk)
    table_act(user=users[seat], table_id=table.pk, move=parse_move(payload))
    old_seq = hand_cache.load_hand(before.hand, seq=before.seq).seq
    assert old_seq == before.seq
    after = frame_table(table.pk)
    new = hand_cache.load_hand(after.hand, seq=after.seq)
    assert new.seq == after.seq > old_seq  # the stored snapshot
    # a seq past the log is still refused (a table row ahead of its log)
    with pytest.raises(hand_cache.HandUnavailableError):
        hand_cache.load_hand(after.hand, seq=after.seq + 5)
