"""Automated play is paced: 托管 against the bot plays one round at a time."""

from __future__ import annotations

import time

import pytest

from games.models import HandEvent, HandRecord, Table
from games.services import do_apply_action, notify, play_bot
from games.services.hands import clear_cache, load_hand
from games.services.play import do_auto_step
from games.tasks import table_auto_step


def _discards_by_seat(record: HandRecord, after: int) -> dict[int, int]:
    """Discards chosen by a seat (bot, 托管) after ``after``; the engine's own
    报听 discards (payload ``auto``) are not counted: two locked seats are
    played out by the engine in one move."""
    counts = {0: 0, 1: 0}
    for seat, payload in HandEvent.objects.filter(
        hand=record, kind="discard", seq__gt=after
    ).values_list("seat", "payload"):
        if not payload.get("auto"):
            counts[seat] += 1
    return counts


def _start_auto(alice, room) -> Table:
    table = play_bot(alice, room, "easy")
    table.refresh_from_db()
    do_apply_action(
        table.pk, alice, {"action": "auto_play", "seq": table.seq, "on": True}
    )
    table.refresh_from_db()
    return table


@pytest.mark.django_db
def test_tuoguan_against_the_bot_plays_one_round_per_step(settings, alice, room):
    settings.MAHJONG_AUTO_PACE = 1.0
    table = _start_auto(alice, room)
    record = table.hand
    start = table.seq
    steps = 0
    while table.status == Table.Status.PLAYING and steps < 400:
        before = table.seq
        # each step: at most one discard per seat, and the hand waits again
        assert do_auto_step(table.pk, record.pk, table.seq) is True
        table.refresh_from_db()
        counts = _discards_by_seat(record, before)
        assert counts[0] <= 1 and counts[1] <= 1, counts
        steps += 1
        # the same job once more (fired twice, or late) changes nothing
        assert do_auto_step(table.pk, record.pk, before) is False
    record.refresh_from_db()
    assert record.status == HandRecord.Status.ENDED
    # the hand took one step per round, not one burst: every chosen discard
    # after 托管 was switched on belongs to a step (one per seat per step) or
    # to the switch itself
    chosen = sum(_discards_by_seat(record, start).values())
    assert steps >= 1 and chosen <= 2 * steps + 2, (steps, chosen)


@pytest.mark.django_db
def test_turning_tuoguan_off_stops_the_paced_play(settings, alice, room):
    settings.MAHJONG_AUTO_PACE = 1.0
    for _ in range(5):  # a hand that is still running after one paced round
        table = _start_auto(alice, room)
        record = table.hand
        assert do_auto_step(table.pk, record.pk, table.seq) is True
        table.refresh_from_db()
        if table.status == Table.Status.PLAYING:
            break
        do_apply_action(table.pk, alice, {"action": "leave"})
    assert table.status == Table.Status.PLAYING
    do_apply_action(
        table.pk, alice, {"action": "auto_play", "seq": table.seq, "on": False}
    )
    table.refresh_from_db()
    seq = table.seq
    assert do_auto_step(table.pk, record.pk, seq) is False
    table.refresh_from_db()
    assert table.seq == seq
    assert load_hand(record, seq=seq).state.pending[0]


@pytest.mark.django_db
def test_without_pace_tuoguan_plays_out_at_once(settings, alice, room):
    settings.MAHJONG_AUTO_PACE = 0
    table = _start_auto(alice, room)
    assert table.status == Table.Status.SETTLING
    assert HandRecord.objects.get(pk=table.hand_id).status == HandRecord.Status.ENDED


@pytest.mark.django_db(transaction=True)
def test_scheduled_steps_finish_the_hand_over_time(settings, alice):
    """End to end in the embedded default: timer-thread jobs, real pauses."""
    from tests.games.conftest import seed_rooms

    seed_rooms()
    from games.models import Room

    room = Room.objects.get(name="新手场")
    settings.MAHJONG_SCHEDULER = "thread"
    settings.MAHJONG_AUTO_PACE = 0.05
    clear_cache()
    table = _start_auto(alice, room)
    # wait for the chain of step jobs on their timer threads without touching
    # the database meanwhile (SQLite's shared in-memory database locks whole
    # tables across threads); each job plans the next before it ends
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with notify._TIMERS_LOCK:
            due = [t for t in notify._TIMERS if t.is_alive() and t.interval < 1.0]
        if not due:
            break
        for timer in due:
            timer.join(timeout=10)
    notify.cancel_timers()  # the long deadline jobs of the hand
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == HandRecord.Status.ENDED
    rows = HandEvent.objects.filter(hand=record, kind="discard").values_list(
        "at", "payload"
    )
    chosen = [at for at, payload in rows if not payload.get("auto")]
    times = sorted(set(chosen))
    # one round per pace: the discards happened at many distinct moments (at
    # most one per seat each), at least a pace apart, not in one burst
    assert len(times) >= 2 and len(times) * 2 >= len(chosen), (times, chosen)
    assert times[-1] - times[0] >= 0.05 * (len(times) - 1) * 0.9
    assert table_auto_step.name == "games.table_auto_step"


def _pause_on_the_bot(alice, room) -> Table:
    """A 托管 table whose paced play stopped with the bot (seat 1) to move."""
    for _ in range(5):
        table = _start_auto(alice, room)
        record = table.hand
        for _ in range(200):
            if table.status != Table.Status.PLAYING:
                break
            hand = load_hand(record, seq=table.seq)
            if hand.state.pending[1] and not hand.state.pending[0]:
                return table
            assert do_auto_step(table.pk, record.pk, table.seq) is True
            table.refresh_from_db()
        do_apply_action(table.pk, alice, {"action": "leave"})
    raise AssertionError("paced play never stopped on the bot")


@pytest.mark.django_db
def test_a_lost_step_job_resumes_when_the_player_opens_the_table(settings, alice, room):
    from games.services.play import note_connect

    settings.MAHJONG_AUTO_PACE = 1.0
    table = _pause_on_the_bot(alice, room)
    seq = table.seq
    clear_cache()  # a restart: the step job died with the process
    note_connect(table.pk, 0)
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    # the bot moved on and 托管 is off (the player is back); now it is their
    # move — or, if 托管 had declared 报听 (the engine discards for a locked
    # seat), the bot's next move, paced again
    assert table.seq > seq
    assert hand.state.auto[0] is False
    assert hand.ended or hand.state.pending[0] or (
        hand.state.ready[0] and hand.state.pending[1]
    )


@pytest.mark.django_db
def test_resume_tables_plans_the_next_step_of_paced_play(
    settings, alice, room, monkeypatch
):
    import games.services.resume as resume

    settings.MAHJONG_AUTO_PACE = 1.0
    table = _pause_on_the_bot(alice, room)
    planned = []
    real = resume.schedule
    monkeypatch.setattr(
        resume,
        "schedule",
        lambda name, args, at: planned.append((name, args)) or real(name, args, at=at),
    )
    clear_cache()
    report = resume.resume_tables()
    assert table.pk in report.resumed
    assert ("table_auto_step", [table.pk, table.hand_id, table.seq]) in planned
    assert do_auto_step(table.pk, table.hand_id, table.seq) is True
