"""Deadlines, 托管 on disconnect, the claim-window veil, crash/resume, the clock."""

import time

import pytest

from games import presence
from games.engine.errors import InvalidActionError, OutOfTurnError, StaleActionError
from games.models import Due, HandEvent, HandRecord, HandSeat, Table
from games.presenters import render_frame, seat_context
from games.protocol import parse_move
from games.services import (
    seat_away,
    seat_connect,
    seat_disconnect,
    table_act,
    table_continue,
    table_quick_match,
    table_timeout,
)
from games.services.clock import run_due
from games.services.hands import load_hand
from games.services.resume import resume_tables
from tests.games.driver import apply_move, next_move, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    t = table_quick_match(user=bob, room=room)
    t.refresh_from_db()
    return t


def _hand(table):
    table.refresh_from_db()
    return load_hand(table.hand, seq=table.seq)


def test_timeout_fires_once_even_when_the_job_runs_twice(table):
    hand = _hand(table)
    seq, deadline = table.seq, hand.state.deadline
    pending = [i for i in (0, 1) if hand.state.pending[i]]
    assert pending and deadline is not None
    assert table.deadline.timestamp() == pytest.approx(deadline)
    # too early: nothing happens
    assert (
        table_timeout(
            table_id=table.pk, hand_id=table.hand_id, seq=seq, now=deadline - 5
        )
        is False
    )
    assert (
        table_timeout(
            table_id=table.pk, hand_id=table.hand_id, seq=seq, now=deadline + 0.3
        )
        is True
    )
    table.refresh_from_db()
    after = table.seq
    assert after > seq
    assert (
        table_timeout(
            table_id=table.pk, hand_id=table.hand_id, seq=seq, now=deadline + 1
        )
        is False
    )
    table.refresh_from_db()
    assert table.seq == after
    timeouts = HandEvent.objects.filter(hand=table.hand, kind="timeout")
    assert sorted(e.seat for e in timeouts) == pending


def test_timeout_after_the_seat_answered_does_nothing(table, alice, bob):
    seat, payload = next_move(table, __import__("random").Random(1))
    seq = table.seq
    deadline = _hand(table).state.deadline
    table_act(
        user={0: alice, 1: bob}[seat], table_id=table.pk, move=parse_move(payload)
    )
    table.refresh_from_db()
    moved = table.seq
    # the job of the answered prompt finds another seq
    assert (
        table_timeout(
            table_id=table.pk, hand_id=table.hand_id, seq=seq, now=deadline + 1
        )
        is False
    )
    table.refresh_from_db()
    assert table.seq == moved
    # ...and the move replaced the clock's row with the prompt now open
    current = _hand(table).state.deadline
    assert table.deadline.timestamp() == pytest.approx(current)
    row = Due.objects.get(table=table, kind="timeout")
    assert (row.hand_id, row.seq) == (table.hand_id, moved)
    assert row.at.timestamp() == pytest.approx(current + 0.25)


def test_timeouts_alone_finish_a_hand(table):
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        hand = _hand(table)
        assert table_timeout(
            table_id=table.pk,
            hand_id=table.hand_id,
            seq=table.seq,
            now=hand.state.deadline + 0.5,
        )
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == HandRecord.Status.ENDED and record.settled


GRACE = 20.0  # settings.MAHJONG_DISCONNECT_GRACE (the default)
BEAT = 5.0  # settings.MAHJONG_PRESENCE_BEAT (the default)


def _connect(table, seat, socket_id, now):
    """A socket of ``seat`` opens at ``now`` (as the consumer does)."""
    presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)
    seat_connect(table_id=table.pk, seat=seat, now=now)


def _beat(table, seat, socket_id, now):
    presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)


def _disconnect(table, seat, socket_id, now):
    presence.socket_gone(table_id=table.pk, seat=seat, socket_id=socket_id)
    seat_disconnect(table_id=table.pk, seat=seat, now=now)


def test_disconnect_grace_then_tuoguan_and_reconnect_hands_control_back(table):
    _connect(table, 0, "a", 1000.0)
    _connect(table, 1, "b", 1000.0)
    _disconnect(table, 1, "b", 1001.0)
    table.refresh_from_db()
    assert table.away_since == [None, 1001.0]
    _beat(table, 0, "a", 1030.0)
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=1030.0) is False
    )  # here
    # 19 s after the disconnect: still within the grace
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=1020.0) is False
    )
    assert not _hand(table).state.auto[1]
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=1001.0 + GRACE)
        is True
    )
    hand = _hand(table)
    assert hand.state.auto[1] is True
    ev = HandEvent.objects.filter(hand=table.hand, kind="auto_play").last()
    assert ev.seat == 1 and ev.payload == {"on": True}
    assert ev.action["kind"] == "auto_play"
    # seat 1 never waits for a human while in 托管
    assert not hand.state.pending[1] or hand.ended
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=1030.0) is False
    )  # on
    _connect(table, 1, "b2", time.time())
    hand = _hand(table)
    assert hand.state.auto[1] is False
    last = HandEvent.objects.filter(hand=table.hand, kind="auto_play").last()
    assert last.payload == {"on": False}


def test_reconnect_within_grace_keeps_control(table):
    _connect(table, 1, "b", 1000.0)
    _disconnect(table, 1, "b", 1001.0)
    _connect(table, 1, "b2", 1005.0)
    _beat(table, 1, "b2", 1010.0)
    _beat(table, 1, "b2", 1015.0)
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=1001.0 + GRACE)
        is False
    )
    assert not HandEvent.objects.filter(hand=table.hand, kind="auto_play").exists()
    table.refresh_from_db()
    assert table.away_since[1] is None


@pytest.mark.parametrize("gone", [3.0, GRACE + 5.0], ids=["reload", "long_absence"])
def test_the_players_own_tuoguan_survives_a_reload(table, gone):
    """Tester: a reload turned the player's own 托管 off.  托管 switched on
    by the player before the page closed stays on when it opens again,
    after a reload or a whole grace away; only 取消托管 hands control back
    (托管 from the disconnect itself is handed back: the test above)."""
    _connect(table, 0, "a", 1000.0)
    _connect(table, 1, "b", 1000.0)
    user = table.seat1
    table_act(
        user=user,
        table_id=table.pk,
        move=parse_move({"action": "auto", "seq": _hand(table).seq, "on": "true"}),
        now=1001.0,
    )
    assert _hand(table).state.auto[1] is True
    _disconnect(table, 1, "b", 1002.0)
    if gone > GRACE:  # the grace job finds 托管 already on: nothing to do
        assert (
            seat_away(
                table_id=table.pk, seat=1, hand_id=table.hand_id, now=1002.0 + GRACE
            )
            is False
        )
    _connect(table, 1, "b2", 1002.0 + gone)
    table.refresh_from_db()
    assert table.away_since[1] is None  # back: the opponent is told
    assert _hand(table).state.auto[1] is True
    ons = HandEvent.objects.filter(hand=table.hand, kind="auto_play", seat=1)
    assert [e.payload for e in ons] == [{"on": True}]
    table_act(
        user=user,
        table_id=table.pk,
        move=parse_move({"action": "auto", "seq": _hand(table).seq, "on": "false"}),
        now=1003.0 + gone,
    )
    assert _hand(table).state.auto[1] is False


def test_a_second_tab_keeps_the_seat_when_one_closes(table):
    _connect(table, 1, "tab1", 1000.0)
    _connect(table, 1, "tab2", 1000.0)
    _disconnect(table, 1, "tab1", 1002.0)
    table.refresh_from_db()
    assert table.away_since in ([], [None, None])  # tab2 is still open


def test_an_old_grace_job_ignores_a_later_short_disconnect(alice, bob, room):
    """Tester's bug: 托管 1-6 s after closing the page instead of after 20 s.

    The job of an earlier absence (or of the hand start, for a seat that had
    not connected yet) fired during a later, short disconnect and found
    "no socket right now".  It must wait for the full grace of the latest
    disconnect, whose own job then switches 托管 on.
    """
    from games.services import seat_away

    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room, now=1000.0)
    # seat 1 had no socket at the hand start: a job one heartbeat later
    # finds it absent and starts its grace
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=1000.0 + BEAT)
        is False
    )
    table.refresh_from_db()
    start = table.away_since[1]
    assert start == 1000.0 + BEAT
    _connect(table, 1, "b", start + 1)
    _beat(table, 1, "b", start + 11)
    _disconnect(table, 1, "b", start + 15.5)  # closes the page at 15.5 s
    # the first grace job fires 4.5 s later: the seat has been away 4.5 s only
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=start + GRACE)
        is False
    )
    assert not _hand(table).state.auto[1]
    assert (
        seat_away(
            table_id=table.pk,
            seat=1,
            hand_id=table.hand_id,
            now=start + 15.5 + GRACE - 1,
        )
        is False
    )
    # the job of the disconnect itself: away for the whole grace → 托管
    assert (
        seat_away(
            table_id=table.pk, seat=1, hand_id=table.hand_id, now=start + 15.5 + GRACE
        )
        is True
    )
    assert _hand(table).state.auto[1] is True


def test_a_present_seats_grace_check_reads_one_row_and_takes_no_lock(
    table, django_assert_num_queries
):
    """The clock's look a heartbeat after the deal (or a seat back within
    the grace) finds the seat present and not marked away: one row read,
    not the table and its hand fetched under the lock (bench_ws: 5 ms of the
    clock's CPU per row, two rows per new match)."""
    _beat(table, 0, "a", 1000.0)
    with django_assert_num_queries(1):
        assert (
            seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=1001.0)
            is False
        )
    # a stale mark of a present seat is still cleared (under the lock)
    Table.objects.filter(pk=table.pk).update(away_since=[990.0, None])
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=1002.0) is False
    )
    table.refresh_from_db()
    assert table.away_since == [None, None]
    # at another hand: nothing, whoever is present
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id + 1, now=1003.0)
        is False
    )
    assert not HandEvent.objects.filter(hand=table.hand, kind="auto_play").exists()


def test_reconnect_and_short_disconnect_then_old_job_does_nothing(table):
    _connect(table, 0, "a", 1000.0)
    _disconnect(table, 0, "a", 1010.0)  # job A due at 1030
    _connect(table, 0, "a2", 1012.0)
    _beat(table, 0, "a2", 1017.0)
    _beat(table, 0, "a2", 1022.0)
    _disconnect(table, 0, "a2", 1028.0)  # job B due at 1048
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=1030.0) is False
    )  # A
    assert not HandEvent.objects.filter(hand=table.hand, kind="auto_play").exists()
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=1048.0) is True
    )  # B


def test_a_socket_whose_heartbeats_stop_is_away_without_a_disconnect(table):
    """Issue 11 §5.3: ``disconnect()`` may never run (a crashed handler, a dead
    process): the seat's presence expires after the TTL, the opponent's
    heartbeat notices it (the consumer calls ``seat_disconnect``) and the
    grace runs from then."""
    ttl = presence.ttl()
    _connect(table, 0, "a", 1000.0)
    _connect(table, 1, "b", 1000.0)
    _beat(table, 0, "a", 1010.0)
    assert presence.seat_present(table_id=table.pk, seat=1, now=1010.0)
    # seat 1's socket is never heard from again, and never closes
    assert not presence.seat_present(table_id=table.pk, seat=1, now=1000.0 + ttl)
    assert seat_disconnect(table_id=table.pk, seat=1, now=1000.0 + ttl) is True
    table.refresh_from_db()
    assert table.away_since == [None, 1000.0 + ttl]
    assert (
        seat_disconnect(table_id=table.pk, seat=1, now=1020.0) is False
    )  # already away
    assert (
        seat_away(
            table_id=table.pk, seat=1, hand_id=table.hand_id, now=1000 + ttl + GRACE
        )
        is True
    )
    assert _hand(table).state.auto[1] is True


def _drive_to_discard(table, users, rng):
    """Play until a seat's discard leaves it waiting; return that seat or None."""
    for _ in range(400):
        move = next_move(table, rng)
        if move is None:
            return None
        seat, payload = move
        apply_move(table, users[seat], seat, payload)
        table.refresh_from_db()
        veil = table.veil
        if veil and veil["seat"] == seat:
            return seat
    return None


def test_veil_hides_whether_the_opponent_could_claim(table, alice, bob):
    """Issue 11 §5.2: the same frame, seq and timer in both cases, held
    through the opponent's pass and draw until its own next move."""
    import random

    users = {0: alice, 1: bob}
    rng = random.Random(7)
    seen_claim = seen_draw = False
    for _ in range(200):
        seat = _drive_to_discard(table, users, rng)
        if seat is None:  # the hand ended: deal the next one (walls are random)
            table_continue(user=alice, table_id=table.pk)
            table_continue(user=bob, table_id=table.pk)
            continue
        hand = _hand(table)
        veil = table.veil
        discard = next(
            e for e in reversed(hand.events) if e.kind == "discard" and e.seat == seat
        )
        now = discard.at + 0.5
        ctx = seat_context(table, seat, now=now)
        prompt = hand.event_at(discard.seq + 1)
        assert prompt.kind == "prompt" and prompt.payload["phase"] == "claim"
        assert ctx["seq"] == discard.seq + 1 == veil["shown"]
        assert f'data-seq="{discard.seq + 1}"' in render_frame(table, seat, now=now)
        assert ctx["phase"] == "turn" and ctx["turn"] == "opponent"
        # the opponent's turn, timed from the discard (seed 000: 15 s)
        assert ctx["deadline"] == {
            "at": int((discard.at + 15) * 1000),
            "seconds": 15,
            "seat": "opponent",
        }
        assert ctx["my_turn"] is False
        assert ctx["wall_count"] == veil["wall_count"]
        assert ctx["opponent"]["count"] == veil["opp_count"]
        assert ctx["last_discard"] == {
            "seat": "me",
            "tile": veil["tile"],
            "index": len(ctx["me"]["discards"]) - 1,
        }
        other = 1 - seat
        if hand.state.phase.value == "claim":
            seen_claim = True
            # the opponent passes a while later: nothing changes for the
            # discarder, and its turn keeps the deadline counted from the
            # discard
            table_act(
                user=users[other],
                table_id=table.pk,
                move=parse_move({"action": "pass", "seq": hand.seq}),
                now=now,
            )
            table.refresh_from_db()
            after = _hand(table)
            if not (after.ended or after.state.pending[seat]):
                # (a locked opponent discards at once: then it is my move)
                assert seat_context(table, seat, now=now) == ctx
        else:
            seen_draw = True
            passed = hand.event_at(discard.seq + 2)
            assert passed.kind == "pass" and passed.payload == {"auto": True}
            after = hand
        if after.state.phase.value == "turn" and after.state.pending[other]:
            assert after.state.deadline == discard.at + 15
        if seen_claim and seen_draw:
            break
    assert seen_draw
    assert seen_claim


def test_the_veiled_seat_can_toggle_auto_play_with_the_shown_seq(table, alice, bob):
    """托管 during the veil: the shown seq works, the veil stays (claim or not)."""
    import random

    users = {0: alice, 1: bob}
    rng = random.Random(11)
    seen = set()
    for _ in range(200):
        seat = _drive_to_discard(table, users, rng)
        if seat is None:
            table_continue(user=alice, table_id=table.pk)
            table_continue(user=bob, table_id=table.pk)
            continue
        veil = table.veil
        claim = _hand(table).state.phase.value == "claim"
        if claim in seen:
            continue
        seen.add(claim)
        hand = _hand(table)
        now = hand.events[-1].at + 0.01  # inside the random pause
        shown = seat_context(table, seat, now=now)["seq"]
        assert shown == veil["shown"]
        # a number past the shown one is refused alike in both cases
        with pytest.raises(InvalidActionError):
            table_act(
                user=users[seat],
                table_id=table.pk,
                move=parse_move({"action": "auto", "seq": shown + 1}),
                now=now,
            )
        with pytest.raises(StaleActionError):
            table_act(
                user=users[seat],
                table_id=table.pk,
                move=parse_move({"action": "auto", "seq": shown - 1}),
                now=now,
            )
        # anything but 托管 is "not your turn" (报听 would lift the veil)
        for kind in ("pass", "ting", "discard"):
            with pytest.raises(OutOfTurnError):
                table_act(
                    user=users[seat],
                    table_id=table.pk,
                    move=parse_move({"action": kind, "seq": shown}),
                    now=now,
                )
        table_act(
            user=users[seat],
            table_id=table.pk,
            move=parse_move({"action": "auto", "seq": shown, "on": "true"}),
            now=now,
        )
        table.refresh_from_db()
        assert table.veil["shown"] == shown + 1
        ctx = seat_context(table, seat, now=now)
        assert ctx["seq"] == shown + 1
        assert ctx["phase"] == "turn" and ctx["turn"] == "opponent"
        assert ctx["players"]["me"]["auto_play"] is True
        assert ctx["actions"]["auto"] == {"on": True, "available": True}
        table_act(
            user=users[seat],
            table_id=table.pk,
            move=parse_move({"action": "auto", "seq": shown + 1, "on": "false"}),
            now=now,
        )
        table.refresh_from_db()
        assert seat_context(table, seat, now=now)["seq"] == shown + 2
        assert _hand(table).state.auto[seat] is False
        if seen == {True, False}:
            break
    assert seen == {True, False}


def _some_moves_into_a_live_hand(table, users, limit):
    for attempt in range(10):  # walls are random: a hand may end very early
        play_out(table, users, seed=attempt, limit=limit)
        if table.status == Table.Status.PLAYING:
            return
        table_continue(user=users[0], table_id=table.pk)
        table_continue(user=users[1], table_id=table.pk)
        table.refresh_from_db()
    raise AssertionError("no live hand after 10 tries")


def test_resume_after_restart_rebuilds_from_the_log(table, alice, bob):
    _some_moves_into_a_live_hand(table, {0: alice, 1: bob}, 10)
    table.refresh_from_db()
    seq = table.seq
    report = resume_tables(now=5000.0)
    assert report.resumed == [table.pk] and report.annulled == []
    table.refresh_from_db()
    assert table.seq == seq
    # nobody has a live socket: the grace starts at the resume
    assert table.away_since == [5000.0, 5000.0]
    # the clock's timeout row is for the current prompt
    row = Due.objects.get(table=table, kind="timeout")
    assert (row.hand_id, row.seq) == (table.hand_id, seq)
    assert (
        seat_away(
            table_id=table.pk, seat=0, hand_id=table.hand_id, now=5000.0 + GRACE - 2
        )
        is False
    )
    assert _hand(table).seq == seq
    # and play goes on to the end
    play_out(table, {0: alice, 1: bob}, seed=2)
    assert table.status == Table.Status.SETTLING


def test_resume_leaves_players_on_a_live_process_in_control(table, alice, bob):
    """Issue 11 §5.4: ``resume_tables`` (run when one Daphne process restarts)
    put every playing table's players into 托管, also those whose sockets sit
    on another process that never stopped.  Two "processes" here: seat 0's
    socket lives on process A (it keeps beating); seat 1's lived on process B,
    which died (its presence entry is left to expire, no disconnect ran)."""
    _some_moves_into_a_live_hand(table, {0: alice, 1: bob}, 10)
    t0 = 5000.0
    _connect(table, 0, "process-A.sock", t0 - 3)
    _connect(table, 1, "process-B.sock", t0 - 2)
    Due.objects.filter(kind="seat_away").delete()  # (those of the deal)
    assert resume_tables(now=t0).resumed == [table.pk]
    table.refresh_from_db()
    assert table.away_since == [None, None]  # both looked present a moment ago
    ttl = presence.ttl()
    checks = {
        row.seat: row.at.timestamp()
        for row in Due.objects.filter(table=table, kind="seat_away")
    }
    assert checks == {0: t0 + ttl + BEAT, 1: t0 + ttl + BEAT}
    # process A's socket goes on beating; process B's entry expires
    for k in range(1, 12):
        _beat(table, 0, "process-A.sock", t0 + 5 * k)
    at = checks[1]
    assert seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=at) is False
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=at) is False
    )  # grace starts
    table.refresh_from_db()
    assert table.away_since == [None, at]
    later = at + GRACE
    assert (
        seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=later) is False
    )
    assert (
        seat_away(table_id=table.pk, seat=1, hand_id=table.hand_id, now=later) is True
    )
    hand = _hand(table)
    # the player on the live process keeps control; the other is in 托管
    assert hand.state.auto[0] is False or hand.ended
    assert not HandEvent.objects.filter(
        hand=table.hand, kind="auto_play", seat=0
    ).exists()
    assert HandEvent.objects.filter(hand=table.hand, kind="auto_play", seat=1).exists()


def test_unresumable_hand_is_annulled_and_stakes_returned(table, alice, bob):
    _some_moves_into_a_live_hand(table, {0: alice, 1: bob}, 6)
    table.refresh_from_db()
    record = table.hand
    alice.profile.refresh_from_db()
    bob.profile.refresh_from_db()
    before = [alice.profile.coins, bob.profile.coins]
    played = HandSeat.objects.filter(user=alice).exclude(result="annulled").count()
    HandEvent.objects.filter(hand=record, seq=table.seq).delete()  # a lost write
    report = resume_tables()
    assert report.annulled == [table.pk]
    record.refresh_from_db()
    table.refresh_from_db()
    assert record.status == HandRecord.Status.ANNULLED and record.settled
    assert record.seed == record.secret_seed
    assert record.settlement["deltas"] == [0, 0]
    assert record.result["note"].startswith("系统断线")
    assert table.status == Table.Status.SETTLING
    alice.profile.refresh_from_db()
    bob.profile.refresh_from_db()
    # the annulled hand moved nothing
    assert [alice.profile.coins, bob.profile.coins] == before
    assert (
        HandSeat.objects.filter(user=alice).exclude(result="annulled").count() == played
    )
    assert HandSeat.objects.get(user=alice, hand=record).result == "annulled"
    ctx = seat_context(table, 0)
    assert ctx["settlement"]["annulled"] is True


@pytest.mark.django_db(transaction=True)
def test_embedded_default_runs_the_clock_in_a_thread(settings):
    """MAHJONG_CLOCK=thread (the embedded default): the web process's own
    clock thread, woken by each committed row, keeps time.

    Seat 1 opens the table, then leaves 0.3 s into the hand: the presence
    check planned at the hand start (due a heartbeat later, 0.6 s) leaves it
    alone; the row of its disconnect (due at 0.9 s) switches 托管 on.
    """
    from games.models import Room
    from games.services import clock
    from tests.games.conftest import make_player

    settings.MAHJONG_DISCONNECT_GRACE = 0.6
    room = Room.objects.get_or_create(
        name="新手场", defaults={"stake": 10, "min_balance": 200}
    )[0]
    settings.MAHJONG_PRESENCE_BEAT = 0.6
    a, b = make_player("ea"), make_player("eb")
    # the clock thread starts with the disconnect's row (it would start with
    # the deal's): from then on this thread does not touch the database
    # (SQLite's shared in-memory database locks whole tables across threads)
    table_quick_match(user=a, room=room)
    t = table_quick_match(user=b, room=room)
    _connect(t, 0, "a", time.time())
    _connect(t, 1, "b", time.time())
    time.sleep(0.3)
    settings.MAHJONG_CLOCK = "thread"
    try:
        _disconnect(t, 1, "b", time.time())  # a seat_away row due in 0.6 s
        assert clock.wait_idle(within=1.0, timeout=30)
    finally:
        assert clock.stop_loop() is True
    away = HandEvent.objects.filter(hand_id=t.hand_id, kind="auto_play")
    ev = away.get()
    assert ev.seat == 1 and ev.payload == {"on": True}
    t.refresh_from_db()
    assert ev.at >= t.away_since[1] + 0.6 - 0.06  # a whole grace after leaving
    # the pre-deal timeout is still planned (10 s), the grace rows are done
    assert not Due.objects.filter(table=t, kind="seat_away").exists()
    assert Due.objects.filter(table=t, kind="timeout").exists()


def test_a_player_who_never_connects_goes_to_tuoguan(alice, bob, room):
    table_quick_match(user=alice, room=room)
    t = table_quick_match(user=bob, room=room, now=1000.0)
    # nobody opened the table page: a presence check per seat a heartbeat later
    planned = Due.objects.filter(table=t, kind="seat_away")
    assert sorted((r.seat, r.hand_id, r.at.timestamp()) for r in planned) == [
        (0, t.hand_id, 1000.0 + BEAT),
        (1, t.hand_id, 1000.0 + BEAT),
    ]
    t.refresh_from_db()
    assert t.away_since in ([], [None, None])  # no flash of "对手断线" at the deal
    assert (
        seat_away(table_id=t.pk, seat=0, hand_id=t.hand_id, now=1000.0 + BEAT) is False
    )
    t.refresh_from_db()
    assert t.away_since[0] == 1000.0 + BEAT  # the grace starts
    assert (
        seat_away(table_id=t.pk, seat=0, hand_id=t.hand_id, now=1000.0 + BEAT + GRACE)
        is True
    )
    assert _hand(t).state.auto[0] is True


@pytest.mark.parametrize("value", ["yes", "on", 1, 2, [True], {"x": 1}, "真"])
def test_tuoguan_refuses_a_flag_that_is_not_a_boolean(table, alice, value):
    """Tester's bug: {"action": "auto_play", "on": "yes"} switched 托管 on."""
    from games.engine.errors import InvalidActionError
    from games.protocol import refusal_message

    seq = table.seq
    with pytest.raises(InvalidActionError) as info:
        table_act(
            user=alice,
            table_id=table.pk,
            move=parse_move({"action": "auto_play", "seq": seq, "on": value}),
        )
    assert refusal_message(info.value) == "无法识别的操作"
    table.refresh_from_db()
    assert table.seq == seq and _hand(table).state.auto[0] is False


@pytest.mark.parametrize(("on", "off"), [(True, False), ("true", "false"), ("1", "0")])
def test_tuoguan_accepts_json_booleans_and_the_form_strings(table, alice, on, off):
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": on}),
    )
    assert _hand(table).state.auto[0] is True
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": off}),
    )
    assert _hand(table).state.auto[0] is False


def test_tuoguan_moves_are_the_bots_real_moves_not_timeouts(table, alice, bob):
    """Tester's bug: every automatic move of a 托管 seat was logged as 超时."""
    from games.services.hands import rebuild_hand

    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": True}),
    )
    play_out(table, {0: alice, 1: bob}, seed=3)
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == HandRecord.Status.ENDED
    on = HandEvent.objects.get(hand=record, kind="auto_play", seat=0).seq
    mine = list(HandEvent.objects.filter(hand=record, seat=0, seq__gt=on))
    acted = [e for e in mine if e.action and e.action["seat"] == 0]
    assert acted, "seat 0 never had to act"
    assert not [e for e in mine if e.kind == "timeout"]
    kinds = {e.action["kind"] for e in acted}
    assert kinds <= {
        "pre_deal",
        "discard",
        "pass",
        "win",
        "chi",
        "pung",
        "kong",
        "concealed_kong",
        "added_kong",
        "ready",
        "swap",
    }, kinds
    assert "discard" in kinds or "win" in kinds or "pass" in kinds
    # the engine accepted every one: the log replays to the same hand
    assert rebuild_hand(record).seq == HandEvent.objects.filter(hand=record).count()


def test_refusal_messages_are_short_and_carry_no_detail(table, alice, bob):
    from games.engine.errors import StaleActionError
    from games.protocol import refusal_message
    from games.services import TableError

    stale = StaleActionError("seq 54 is stale: seat 0 must answer seq ≥ 57")
    assert refusal_message(stale) == "牌局已更新，请按当前状态操作"
    long = TableError("没有这个机器人等级：" + "x" * 5000)
    assert len(refusal_message(long)) <= 61
    with pytest.raises(TableError) as info:
        table_act(
            user=alice,
            table_id=table.pk + 999,
            move=parse_move({"action": "pass", "seq": 1}),
        )
    assert refusal_message(info.value) == "牌桌不存在。"


# ------------------------------------------------------------- the one clock
def test_clock_applies_each_overdue_timeout_once_and_leaves_the_rest(
    table, alice, bob, room
):
    hand = _hand(table)
    seq, deadline = table.seq, hand.state.deadline
    pending = [i for i in (0, 1) if hand.state.pending[i]]
    # a second table whose prompt is not due yet
    from tests.games.conftest import make_player

    c, d = make_player("clock-c"), make_player("clock-d")
    table_quick_match(user=c, room=room)
    other = table_quick_match(user=d, room=room)
    other.refresh_from_db()
    other_seq = other.seq
    later = _hand(other).state.deadline
    assert later is not None and later >= deadline
    # before the deadline (+ slack): no timeout (the deal's presence checks
    # a heartbeat in only start the grace of the seats nobody opened)
    assert run_due(now=deadline) == 0
    assert not HandEvent.objects.filter(hand=table.hand, kind="timeout").exists()
    assert run_due(now=deadline + 0.3) == 1 + (later <= deadline + 0.05)
    table.refresh_from_db()
    assert table.seq > seq
    timeouts = HandEvent.objects.filter(hand=table.hand, kind="timeout")
    assert sorted(e.seat for e in timeouts) == pending
    # the next prompt's row replaced the one that ran; the same moment finds
    # nothing more to do
    row = Due.objects.get(table=table, kind="timeout")
    assert row.seq == table.seq and row.at.timestamp() > deadline + 1
    before = table.seq
    assert run_due(now=deadline + 0.3) == 0
    table.refresh_from_db()
    assert table.seq == before
    other.refresh_from_db()
    if later > deadline + 0.05:
        assert other.seq == other_seq


def test_clock_drops_a_row_whose_table_moved_on_without_acting(table):
    deadline = _hand(table).state.deadline
    # a row planned at an older seq (its move planned the current one)
    Due.objects.filter(table=table, kind="timeout").update(seq=table.seq - 1)
    assert run_due(now=deadline + 1) == 0
    assert not Due.objects.filter(table=table, kind="timeout").exists()
    table.refresh_from_db()
    assert not HandEvent.objects.filter(hand=table.hand, kind="timeout").exists()


def test_clock_runs_every_kind_through_one_function(alice, bob, room):
    """Timeout, paced 托管, disconnect grace, settlement countdown and bot
    offer: each is a row with its due time, run by ``run_due``."""
    from tests.games.conftest import make_player

    lone = make_player("clock-lone")
    waiting = table_quick_match(user=lone, room=room, now=1000.0)
    offer = Due.objects.get(table=waiting, kind="bot_offer")
    assert offer.at.timestamp() == 1000.0 + 20.0  # MAHJONG_BOT_OFFER_AFTER
    assert run_due(now=1019.0) == 0
    assert Due.objects.filter(table=waiting, kind="bot_offer").exists()
    assert run_due(now=1020.0) == 1  # the waiting table's frames re-sent
    assert not Due.objects.filter(table=waiting, kind="bot_offer").exists()

    table_quick_match(user=alice, room=room)
    t = table_quick_match(user=bob, room=room, now=2000.0)
    t.refresh_from_db()
    kinds = set(Due.objects.filter(table=t).values_list("kind", flat=True))
    # alice's bot offer went when bob was paired with her
    assert kinds == {"timeout", "seat_away"}
    # nobody connects: timeouts, then 托管 after the grace, play the hand
    # out; then the settlement countdown closes the table
    now = 2000.0
    for _ in range(600):
        t.refresh_from_db()
        if t.status != Table.Status.PLAYING:
            break
        row = Due.objects.filter(table=t).order_by("at").first()
        now = max(now, row.at.timestamp())
        run_due(now=now)
    assert t.status == Table.Status.SETTLING
    assert HandEvent.objects.filter(hand=t.hand, kind="auto_play").count() == 2
    settle = Due.objects.get(table=t, kind="settle")
    assert settle.hand_id == t.hand_id
    assert run_due(now=settle.at.timestamp()) == 1
    t.refresh_from_db()
    assert t.status == Table.Status.CLOSED and t.closed_reason == "timeout"
    assert not Due.objects.filter(table=t, at__lte=settle.at).exists()


def test_pairing_drops_the_waiting_tables_bot_offer(alice, bob, room):
    """A paired table's bot offer can no longer fall due: the pairing drops
    its row, rather than the clock claiming, locking and running it for
    nothing 20 s later (one row per 快速开始 pairing)."""
    waiting = table_quick_match(user=alice, room=room, now=1000.0)
    assert Due.objects.filter(table=waiting, kind="bot_offer").exists()
    t = table_quick_match(user=bob, room=room, now=1005.0)
    assert t.pk == waiting.pk
    assert not Due.objects.filter(table=t, kind="bot_offer").exists()
    assert Due.objects.filter(table=t, kind="timeout").exists()


def test_beat_runs_no_table_jobs(settings):
    """The clock is ``manage.py run_clock``, not Celery beat."""
    tasks = [e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()]
    assert not [t for t in tasks if t.startswith("games.")]


def test_run_clock_once_runs_what_is_due(room):
    """``manage.py run_clock --once``: the production loop's body, once."""
    import io
    from datetime import UTC, datetime

    from django.core.management import call_command

    from tests.games.conftest import make_player

    waiting = table_quick_match(user=make_player("clock-cmd"), room=room)
    out = io.StringIO()
    call_command("run_clock", "--once", stdout=out)
    assert out.getvalue().strip() == "acted 0"  # the bot offer is 20 s away
    Due.objects.filter(table=waiting, kind="bot_offer").update(
        at=datetime(2026, 1, 1, tzinfo=UTC)
    )
    call_command("run_clock", "--once", stdout=out)
    assert out.getvalue().split() == ["acted", "0", "acted", "1"]
    assert not Due.objects.filter(table=waiting).exists()
