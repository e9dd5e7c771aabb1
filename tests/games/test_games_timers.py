"""Deadlines, 托管 on disconnect, the claim-window veil, crash/resume."""

import time

import pytest

from games import presence
from games.engine.errors import InvalidActionError, OutOfTurnError, StaleActionError
from games.models import HandEvent, HandRecord, HandSeat, Table
from games.presenters import render_frame, seat_context
from games.services import (
    continue_match,
    do_apply_action,
    do_seat_away,
    note_connect,
    note_disconnect,
    quick_match,
)
from games.services.hands import clear_cache, load_hand
from games.services.resume import resume_tables
from games.tasks import table_deadline
from tests.games.driver import next_move, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    quick_match(alice, room)
    t = quick_match(bob, room)
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
    assert table_deadline(table.pk, table.hand_id, seq, now=deadline - 5) is False
    assert table_deadline(table.pk, table.hand_id, seq, now=deadline + 0.3) is True
    table.refresh_from_db()
    after = table.seq
    assert after > seq
    assert table_deadline(table.pk, table.hand_id, seq, now=deadline + 1) is False
    table.refresh_from_db()
    assert table.seq == after
    timeouts = HandEvent.objects.filter(hand=table.hand, kind="timeout")
    assert sorted(e.seat for e in timeouts) == pending


def test_timeout_after_the_seat_answered_does_nothing(table, alice, bob):
    seat, payload = next_move(table, __import__("random").Random(1))
    seq = table.seq
    deadline = _hand(table).state.deadline
    do_apply_action(table.pk, {0: alice, 1: bob}[seat], payload)
    table.refresh_from_db()
    moved = table.seq
    # the job of the answered prompt finds another seq
    assert table_deadline(table.pk, table.hand_id, seq, now=deadline + 1) is False
    table.refresh_from_db()
    assert table.seq == moved
    # ...and re-arms one job for the prompt now open
    current = _hand(table).state.deadline
    assert table.deadline.timestamp() == pytest.approx(current)
    assert table.timer_at.timestamp() == pytest.approx(current + 0.25)


def test_timeouts_alone_finish_a_hand(table):
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        hand = _hand(table)
        assert table_deadline(
            table.pk, table.hand_id, table.seq, now=hand.state.deadline + 0.5
        )
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == HandRecord.Status.ENDED and record.settled


GRACE = 20.0  # settings.MAHJONG_DISCONNECT_GRACE (the default)
BEAT = 5.0  # settings.MAHJONG_PRESENCE_BEAT (the default)


def _connect(table, seat, socket_id, now):
    """A socket of ``seat`` opens at ``now`` (as the consumer does)."""
    presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)
    note_connect(table.pk, seat, now=now)


def _beat(table, seat, socket_id, now):
    presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)


def _disconnect(table, seat, socket_id, now):
    presence.socket_gone(table_id=table.pk, seat=seat, socket_id=socket_id)
    note_disconnect(table.pk, seat, now=now)


def test_disconnect_grace_then_tuoguan_and_reconnect_hands_control_back(table):
    _connect(table, 0, "a", 1000.0)
    _connect(table, 1, "b", 1000.0)
    _disconnect(table, 1, "b", 1001.0)
    table.refresh_from_db()
    assert table.away_since == [None, 1001.0]
    _beat(table, 0, "a", 1030.0)
    assert do_seat_away(table.pk, 0, table.hand_id, now=1030.0) is False  # here
    # 19 s after the disconnect: still within the grace
    assert do_seat_away(table.pk, 1, table.hand_id, now=1020.0) is False
    assert not _hand(table).state.auto[1]
    assert do_seat_away(table.pk, 1, table.hand_id, now=1001.0 + GRACE) is True
    hand = _hand(table)
    assert hand.state.auto[1] is True
    ev = HandEvent.objects.filter(hand=table.hand, kind="auto_play").last()
    assert ev.seat == 1 and ev.payload == {"on": True}
    assert ev.action["kind"] == "auto_play"
    # seat 1 never waits for a human while in 托管
    assert not hand.state.pending[1] or hand.ended
    assert do_seat_away(table.pk, 1, table.hand_id, now=1030.0) is False  # on
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
    assert do_seat_away(table.pk, 1, table.hand_id, now=1001.0 + GRACE) is False
    assert not HandEvent.objects.filter(hand=table.hand, kind="auto_play").exists()
    table.refresh_from_db()
    assert table.away_since[1] is None


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
    from games.tasks import seat_away

    quick_match(alice, room)
    table = quick_match(bob, room, now=1000.0)
    # seat 1 had no socket at the hand start: a job one heartbeat later
    # finds it absent and starts its grace
    assert seat_away(table.pk, 1, table.hand_id, now=1000.0 + BEAT) is False
    table.refresh_from_db()
    start = table.away_since[1]
    assert start == 1000.0 + BEAT
    _connect(table, 1, "b", start + 1)
    _beat(table, 1, "b", start + 11)
    _disconnect(table, 1, "b", start + 15.5)  # closes the page at 15.5 s
    # the first grace job fires 4.5 s later: the seat has been away 4.5 s only
    assert seat_away(table.pk, 1, table.hand_id, now=start + GRACE) is False
    assert not _hand(table).state.auto[1]
    assert seat_away(table.pk, 1, table.hand_id, now=start + 15.5 + GRACE - 1) is False
    # the job of the disconnect itself: away for the whole grace → 托管
    assert seat_away(table.pk, 1, table.hand_id, now=start + 15.5 + GRACE) is True
    assert _hand(table).state.auto[1] is True


def test_reconnect_and_short_disconnect_then_old_job_does_nothing(table):
    _connect(table, 0, "a", 1000.0)
    _disconnect(table, 0, "a", 1010.0)  # job A due at 1030
    _connect(table, 0, "a2", 1012.0)
    _beat(table, 0, "a2", 1017.0)
    _beat(table, 0, "a2", 1022.0)
    _disconnect(table, 0, "a2", 1028.0)  # job B due at 1048
    assert do_seat_away(table.pk, 0, table.hand_id, now=1030.0) is False  # A
    assert not HandEvent.objects.filter(hand=table.hand, kind="auto_play").exists()
    assert do_seat_away(table.pk, 0, table.hand_id, now=1048.0) is True  # B


def test_a_socket_whose_heartbeats_stop_is_away_without_a_disconnect(table):
    """Issue 11 §5.3: ``disconnect()`` may never run (a crashed handler, a dead
    process): the seat's presence expires after the TTL, the opponent's
    heartbeat notices it (the consumer calls ``note_disconnect``) and the
    grace runs from then."""
    ttl = presence.ttl()
    _connect(table, 0, "a", 1000.0)
    _connect(table, 1, "b", 1000.0)
    _beat(table, 0, "a", 1010.0)
    assert presence.seat_present(table_id=table.pk, seat=1, now=1010.0)
    # seat 1's socket is never heard from again, and never closes
    assert not presence.seat_present(table_id=table.pk, seat=1, now=1000.0 + ttl)
    assert note_disconnect(table.pk, 1, now=1000.0 + ttl) is True
    table.refresh_from_db()
    assert table.away_since == [None, 1000.0 + ttl]
    assert note_disconnect(table.pk, 1, now=1020.0) is False  # already away
    assert do_seat_away(table.pk, 1, table.hand_id, now=1000 + ttl + GRACE) is True
    assert _hand(table).state.auto[1] is True


def _drive_to_discard(table, users, rng):
    """Play until a seat's discard leaves it waiting; return that seat or None."""
    for _ in range(400):
        move = next_move(table, rng)
        if move is None:
            return None
        seat, payload = move
        do_apply_action(table.pk, users[seat], payload)
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
            continue_match(alice, table)
            continue_match(bob, table)
            continue
        hand = _hand(table)
        veil = table.veil
        discard = next(
            e for e in reversed(hand.events) if e.kind == "discard" and e.seat == seat
        )
        now = discard.at + 0.5
        ctx = seat_context(table, seat, now=now)
        prompt = hand.events[discard.seq]  # seq n is events[n - 1]
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
            do_apply_action(
                table.pk, users[other], {"action": "pass", "seq": hand.seq}, now=now
            )
            table.refresh_from_db()
            after = _hand(table)
            if not (after.ended or after.state.pending[seat]):
                # (a locked opponent discards at once: then it is my move)
                assert seat_context(table, seat, now=now) == ctx
        else:
            seen_draw = True
            passed = hand.events[discard.seq + 1]
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
            continue_match(alice, table)
            continue_match(bob, table)
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
            do_apply_action(
                table.pk, users[seat], {"action": "auto", "seq": shown + 1}, now=now
            )
        with pytest.raises(StaleActionError):
            do_apply_action(
                table.pk, users[seat], {"action": "auto", "seq": shown - 1}, now=now
            )
        # anything but 托管 is "not your turn" (报听 would lift the veil)
        for kind in ("pass", "ting", "discard"):
            with pytest.raises(OutOfTurnError):
                do_apply_action(
                    table.pk, users[seat], {"action": kind, "seq": shown}, now=now
                )
        do_apply_action(
            table.pk,
            users[seat],
            {"action": "auto", "seq": shown, "on": "true"},
            now=now,
        )
        table.refresh_from_db()
        assert table.veil["shown"] == shown + 1
        ctx = seat_context(table, seat, now=now)
        assert ctx["seq"] == shown + 1
        assert ctx["phase"] == "turn" and ctx["turn"] == "opponent"
        assert ctx["players"]["me"]["auto_play"] is True
        assert ctx["actions"]["auto"] == {"on": True, "available": True}
        do_apply_action(
            table.pk,
            users[seat],
            {"action": "auto", "seq": shown + 1, "on": "false"},
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
        continue_match(users[0], table)
        continue_match(users[1], table)
        table.refresh_from_db()
    raise AssertionError("no live hand after 10 tries")


def test_resume_after_restart_rebuilds_from_the_log(table, alice, bob):
    _some_moves_into_a_live_hand(table, {0: alice, 1: bob}, 10)
    table.refresh_from_db()
    seq = table.seq
    clear_cache()  # a restarted process has no cached hand
    report = resume_tables(now=5000.0)
    assert report.resumed == [table.pk] and report.annulled == []
    table.refresh_from_db()
    assert table.seq == seq
    # nobody has a live socket: the grace starts at the resume
    assert table.away_since == [5000.0, 5000.0]
    assert table.timer_at is None  # the next move schedules the deadline job
    assert do_seat_away(table.pk, 0, table.hand_id, now=5000.0 + GRACE - 2) is False
    assert _hand(table).seq == seq
    # and play goes on to the end
    play_out(table, {0: alice, 1: bob}, seed=2)
    assert table.status == Table.Status.SETTLING


def test_resume_leaves_players_on_a_live_process_in_control(
    table, alice, bob, monkeypatch
):
    """Issue 11 §5.4: ``resume_tables`` (run when one Daphne process restarts)
    put every playing table's players into 托管, also those whose sockets sit
    on another process that never stopped.  Two "processes" here: seat 0's
    socket lives on process A (it keeps beating); seat 1's lived on process B,
    which died (its presence entry is left to expire, no disconnect ran)."""
    import games.services.resume as resume

    planned = []
    real = resume.schedule
    monkeypatch.setattr(
        resume,
        "schedule",
        lambda name, args, at: (
            planned.append((name, args, at)) or real(name, args, at=at)
        ),
    )
    _some_moves_into_a_live_hand(table, {0: alice, 1: bob}, 10)
    t0 = 5000.0
    _connect(table, 0, "process-A.sock", t0 - 3)
    _connect(table, 1, "process-B.sock", t0 - 2)
    clear_cache()  # process B restarts: no cached hand, then resume_tables
    assert resume_tables(now=t0).resumed == [table.pk]
    table.refresh_from_db()
    assert table.away_since == [None, None]  # both looked present a moment ago
    ttl = presence.ttl()
    checks = {args[1]: at for name, args, at in planned if name == "seat_away"}
    assert checks == {0: t0 + ttl + BEAT, 1: t0 + ttl + BEAT}
    # process A's socket goes on beating; process B's entry expires
    for k in range(1, 12):
        _beat(table, 0, "process-A.sock", t0 + 5 * k)
    at = checks[1]
    assert do_seat_away(table.pk, 0, table.hand_id, now=at) is False
    assert do_seat_away(table.pk, 1, table.hand_id, now=at) is False  # grace starts
    table.refresh_from_db()
    assert table.away_since == [None, at]
    later = at + GRACE
    assert do_seat_away(table.pk, 0, table.hand_id, now=later) is False
    assert do_seat_away(table.pk, 1, table.hand_id, now=later) is True
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
    clear_cache()
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
def test_embedded_default_runs_delayed_jobs_in_a_timer_thread(settings):
    """Without a Celery broker (eager), the web process itself keeps time.

    Seat 1 opens the table, then leaves 0.3 s into the hand: the presence
    check planned at the hand start (due a heartbeat later, 0.6 s) leaves it
    alone; the job of its disconnect (due at 0.9 s) switches 托管 on.
    """
    from games.models import Room
    from games.services import notify
    from tests.games.conftest import make_player

    settings.MAHJONG_SCHEDULER = "auto"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.MAHJONG_DISCONNECT_GRACE = 0.6
    room = Room.objects.get_or_create(
        name="新手场", defaults={"stake": 10, "min_balance": 200}
    )[0]
    settings.MAHJONG_PRESENCE_BEAT = 0.6
    a, b = make_player("ea"), make_player("eb")
    quick_match(a, room)
    t = quick_match(b, room)
    _connect(t, 0, "a", time.time())
    _connect(t, 1, "b", time.time())
    time.sleep(0.3)
    _disconnect(t, 1, "b", time.time())  # schedules seat_away in 0.6 s
    # wait for the grace jobs' threads without touching the database meanwhile
    # (SQLite's shared in-memory database locks whole tables across threads)
    with notify._TIMERS_LOCK:
        due = [tm for tm in notify._TIMERS if tm.interval < 1.0]
    assert len(due) == 3  # two from the hand start, one from the disconnect
    for tm in due:
        tm.join(timeout=10)
        assert not tm.is_alive()
    away = HandEvent.objects.filter(hand_id=t.hand_id, kind="auto_play")
    ev = away.get()
    assert ev.seat == 1 and ev.payload == {"on": True}
    t.refresh_from_db()
    assert ev.at >= t.away_since[1] + 0.6 - 0.06  # a whole grace after leaving
    from games.services.notify import cancel_timers

    # the bot offer and the pre-deal deadline are still pending on threads
    assert cancel_timers() >= 1


def test_a_player_who_never_connects_goes_to_tuoguan(alice, bob, room, monkeypatch):
    import games.services.play as play

    planned = []
    real = play.schedule
    monkeypatch.setattr(
        play,
        "schedule",
        lambda name, args, at: planned.append((name, args)) or real(name, args, at=at),
    )
    quick_match(alice, room)
    t = quick_match(bob, room, now=1000.0)
    # nobody opened the table page: a presence check per seat a heartbeat later
    assert ("seat_away", [t.pk, 0, t.hand_id]) in planned
    assert ("seat_away", [t.pk, 1, t.hand_id]) in planned
    t.refresh_from_db()
    assert t.away_since in ([], [None, None])  # no flash of "对手断线" at the deal
    assert do_seat_away(t.pk, 0, t.hand_id, now=1000.0 + BEAT) is False
    t.refresh_from_db()
    assert t.away_since[0] == 1000.0 + BEAT  # the grace starts
    assert do_seat_away(t.pk, 0, t.hand_id, now=1000.0 + BEAT + GRACE) is True
    assert _hand(t).state.auto[0] is True


@pytest.mark.parametrize("value", ["yes", "on", 1, 2, [True], {"x": 1}, "真"])
def test_tuoguan_refuses_a_flag_that_is_not_a_boolean(table, alice, value):
    """Tester's bug: {"action": "auto_play", "on": "yes"} switched 托管 on."""
    from games.engine.errors import InvalidActionError
    from games.services import refusal_message

    seq = table.seq
    with pytest.raises(InvalidActionError) as info:
        do_apply_action(
            table.pk, alice, {"action": "auto_play", "seq": seq, "on": value}
        )
    assert refusal_message(info.value) == "无法识别的操作"
    table.refresh_from_db()
    assert table.seq == seq and _hand(table).state.auto[0] is False


@pytest.mark.parametrize(("on", "off"), [(True, False), ("true", "false"), ("1", "0")])
def test_tuoguan_accepts_json_booleans_and_the_form_strings(table, alice, on, off):
    do_apply_action(
        table.pk, alice, {"action": "auto_play", "seq": table.seq, "on": on}
    )
    assert _hand(table).state.auto[0] is True
    do_apply_action(
        table.pk, alice, {"action": "auto_play", "seq": table.seq, "on": off}
    )
    assert _hand(table).state.auto[0] is False


def test_tuoguan_moves_are_the_bots_real_moves_not_timeouts(table, alice, bob):
    """Tester's bug: every automatic move of a 托管 seat was logged as 超时."""
    from games.services.hands import rebuild_hand

    do_apply_action(
        table.pk, alice, {"action": "auto_play", "seq": table.seq, "on": True}
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
    clear_cache()
    assert rebuild_hand(record).seq == HandEvent.objects.filter(hand=record).count()


def test_refusal_messages_are_short_and_carry_no_detail(table, alice, bob):
    from games.engine.errors import StaleActionError
    from games.services import TableError, refusal_message

    stale = StaleActionError("seq 54 is stale: seat 0 must answer seq ≥ 57")
    assert refusal_message(stale) == "牌局已更新，请按当前状态操作"
    long = TableError("没有这个机器人等级：" + "x" * 5000)
    assert len(refusal_message(long)) <= 61
    with pytest.raises(TableError) as info:
        do_apply_action(table.pk + 999, alice, {"action": "pass", "seq": 1})
    assert refusal_message(info.value) == "牌桌不存在。"


# ------------------------------------------------ the deadline sweep (beat)
def test_sweep_applies_each_overdue_timeout_once_and_leaves_the_rest(
    table, alice, bob, room, settings
):
    from games.services.play import sweep_deadlines

    settings.MAHJONG_SCHEDULER = "sweep"
    hand = _hand(table)
    seq, deadline = table.seq, hand.state.deadline
    pending = [i for i in (0, 1) if hand.state.pending[i]]
    # a second table whose prompt is not due yet
    from tests.games.conftest import make_player

    c, d = make_player("sweep-c"), make_player("sweep-d")
    quick_match(c, room)
    other = quick_match(d, room)
    other.refresh_from_db()
    other_seq = other.seq
    later = _hand(other).state.deadline
    assert later is not None and later >= deadline
    # before the deadline (+ slack): nothing
    assert sweep_deadlines(now=deadline) == 0
    assert sweep_deadlines(now=deadline + 0.3) == 1 + (later <= deadline + 0.05)
    table.refresh_from_db()
    assert table.seq > seq
    timeouts = HandEvent.objects.filter(hand=table.hand, kind="timeout")
    assert sorted(e.seat for e in timeouts) == pending
    # the next prompt's deadline is on the row; the same moment finds nothing
    assert table.deadline is not None and table.deadline.timestamp() > deadline + 1
    assert table.timer_at is None  # no countdown job in the sweep mode
    before = table.seq
    assert sweep_deadlines(now=deadline + 0.3) == 0
    table.refresh_from_db()
    assert table.seq == before
    other.refresh_from_db()
    if later > deadline + 0.05:
        assert other.seq == other_seq


def test_sweep_drops_a_deadline_no_person_waits_for(table, settings):
    from games.services.play import sweep_deadlines

    settings.MAHJONG_SCHEDULER = "sweep"
    deadline = _hand(table).state.deadline
    # the row claims a deadline at a seq whose prompt is answered: a stale
    # deadline (as left by a crash) is looked at once, then forgotten
    Table.objects.filter(pk=table.pk).update(seq=table.seq)
    record = table.hand
    hand = load_hand(record, seq=table.seq)
    hand.state.pending = [False, False]
    assert sweep_deadlines(now=deadline + 1) == 0
    table.refresh_from_db()
    assert table.deadline is None
    assert sweep_deadlines(now=deadline + 2) == 0


def test_sweep_mode_schedules_no_deadline_jobs(table, alice, bob, settings):
    from games.services import notify

    settings.MAHJONG_SCHEDULER = "sweep"
    sent = []
    original = notify.schedule

    def spy(task_name, args, *, at):
        sent.append(task_name)
        return original(task_name, args, at=at)

    notify.schedule = spy
    try:
        import games.services.play as play

        play.schedule = spy
        seat, payload = next_move(table, __import__("random").Random(2))
        do_apply_action(table.pk, {0: alice, 1: bob}[seat], payload)
    finally:
        notify.schedule = original
        play.schedule = original
    table.refresh_from_db()
    assert "table_deadline" not in sent
    assert table.deadline is not None and table.timer_at is None


def test_auto_scheduler_is_the_sweep_with_a_broker(settings):
    from games.services.notify import scheduler_mode

    settings.MAHJONG_SCHEDULER = "auto"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert scheduler_mode() == "sweep"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert scheduler_mode() == "thread"


def test_beat_schedule_runs_the_sweep_every_second(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["games-sweep-deadlines"]
    assert entry["task"] == "games.sweep_deadlines"
    assert entry["schedule"] == settings.MAHJONG_SWEEP_EVERY == 1.0
    from games import tasks

    assert tasks.sweep_deadlines.name == "games.sweep_deadlines"
