"""Automated play is paced: 托管 or 报听 against the bot plays one round at a time."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest

from games.models import HandEvent, HandRecord, Table
from games.rules.tiles import Tile
from games.services import do_apply_action, notify, play, play_bot
from games.services.hands import clear_cache, load_hand
from games.services.play import do_auto_step, do_timeout
from games.tasks import table_auto_step


def _discards_by_seat(record: HandRecord, after: int) -> dict[int, int]:
    """Discards per seat after ``after`` — every one: the live table's hands
    are dealt with ``prompt_locked``, so the engine never discards for a
    locked 报听 seat by itself (no payload ``auto``); the table does, paced."""
    counts = {0: 0, 1: 0}
    for seat, payload in HandEvent.objects.filter(
        hand=record, kind="discard", seq__gt=after
    ).values_list("seat", "payload"):
        assert payload["auto"] is False, payload
        counts[seat] += 1
    return counts


def _start_auto(alice, room, level: str = "easy") -> Table:
    table = play_bot(alice, room, level)
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
    # a hand still running after one paced round, where 托管 has not declared
    # 报听 for the player (a locked seat's forced discards go on by themselves)
    for _ in range(10):
        table = _start_auto(alice, room)
        record = table.hand
        assert do_auto_step(table.pk, record.pk, table.seq) is True
        table.refresh_from_db()
        if (
            table.status == Table.Status.PLAYING
            and not load_hand(record, seq=table.seq).state.ready[0]
        ):
            break
        if table.status == Table.Status.PLAYING:  # locked: let the hand run out
            settings.MAHJONG_AUTO_PACE = 0
            assert do_auto_step(table.pk, record.pk, table.seq) is True
            settings.MAHJONG_AUTO_PACE = 1.0
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
    assert not [p for _, p in rows if p["auto"]]  # no unpaced engine discards
    chosen = [at for at, _ in rows]
    times = sorted(set(chosen))
    # one round per pace: the discards happened at many distinct moments (at
    # most one per seat each), at least a pace apart, not in one burst
    assert len(times) >= 2 and len(times) * 2 >= len(chosen), (times, chosen)
    assert times[-1] - times[0] >= 0.05 * (len(times) - 1) * 0.9
    assert table_auto_step.name == "games.table_auto_step"


def _pause_on_the_bot(alice, room) -> Table:
    """A 托管 table whose paced play stopped on a move that needs no person
    even without 托管: the bot's (seat 1), or — the usual case, as a pause
    falls on the seat that moved first in the step, the person in 托管 — the
    person's forced discard after 托管 declared 报听 (a locked seat with no
    win or kong is automated at the live table)."""
    for _ in range(10):
        table = _start_auto(alice, room)
        record = table.hand
        for _ in range(200):
            if table.status != Table.Status.PLAYING:
                break
            hand = load_hand(record, seq=table.seq)
            s = hand.state
            if (s.pending[1] and not s.pending[0]) or (
                s.pending[0] and hand.locked_discard(0) is not None
            ):
                return table
            assert do_auto_step(table.pk, record.pk, table.seq) is True
            table.refresh_from_db()
        do_apply_action(table.pk, alice, {"action": "leave"})
    raise AssertionError("paced play never stopped on the bot or a locked seat")


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
    # play moved on and 托管 is off (the player is back); now it is their
    # move — or, if 托管 had declared 报听 (the table discards for a locked
    # seat), the next automated move, paced again
    assert table.seq > seq
    assert hand.state.auto[0] is False
    assert (
        hand.ended
        or hand.state.pending[0]
        or (hand.state.ready[0] and hand.state.pending[1])
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


def _ask_person(table: Table, alice, hand) -> None:
    """The locked person is asked (a win or a kong): win if it can, else
    discard the drawn tile."""
    legal = {a.kind for a in hand.legal_actions(0)}
    if "win" in legal:
        payload = {"action": "win", "seq": hand.seq}
    else:
        tile = str(Tile.from_index(hand.state.drawn[0]))
        payload = {"action": "discard", "seq": hand.seq, "tile": tile}
    do_apply_action(table.pk, alice, payload)


@pytest.mark.django_db
def test_two_locked_seats_play_one_round_per_step(settings, monkeypatch, alice, room):
    """报听 on both seats at a bot table: the person declared (in 托管, then
    took control back) and so did the bot.  The forced discards are paced —
    one per seat per step, the hand waiting between steps — not played out
    in one move; the person's locked prompt has a deadline whose timeout
    discards the drawn tile."""
    settings.MAHJONG_AUTO_PACE = 1.0
    # the same deals and bots every run: both seats locked is a matter of luck
    rng = random.Random(2026)
    monkeypatch.setattr(
        play,
        "secrets",
        SimpleNamespace(
            token_hex=lambda n: rng.randbytes(n).hex(), randbits=rng.getrandbits
        ),
    )
    locked_steps = timed_out = 0
    for _ in range(40):
        table = _start_auto(alice, room, "normal")
        record = table.hand
        assert load_hand(record, seq=table.seq).events[0].payload["prompt_locked"]
        for _ in range(300):
            if table.status != Table.Status.PLAYING:
                break
            hand = load_hand(record, seq=table.seq)
            s = hand.state
            if s.ready[0] and s.auto[0]:  # the person takes control back
                do_apply_action(
                    table.pk, alice, {"action": "auto_play", "seq": s.seq, "on": False}
                )
                table.refresh_from_db()
                continue
            if s.pending[0] and not s.auto[0] and hand.locked_discard(0) is None:
                _ask_person(table, alice, hand)
                table.refresh_from_db()
                continue
            before = table.seq
            both = all(s.ready)
            if both and s.pending[0] and not timed_out:
                # the person's forced discard: a prompt with a deadline
                assert table.deadline is not None
                drawn = str(Tile.from_index(s.drawn[0]))
                at = s.deadline + settings.MAHJONG_DEADLINE_SLACK
                assert do_timeout(table.pk, record.pk, before, now=at) is True
                first = HandEvent.objects.filter(hand=record, seq__gt=before)
                kinds = list(first.order_by("seq").values_list("kind", "seat"))
                assert kinds[:2] == [("timeout", 0), ("discard", 0)]
                assert first.get(kind="discard", seat=0).payload["tile"] == drawn
                timed_out += 1
            else:
                assert do_auto_step(table.pk, record.pk, before) is True
            table.refresh_from_db()
            counts = _discards_by_seat(record, before)
            assert counts[0] <= 1 and counts[1] <= 1, counts
            if both:
                locked_steps += 1
                # one round, then the hand waits for the next step
                assert table.status != Table.Status.PLAYING or table.seq > before
        if locked_steps >= 3 and timed_out:
            break
        do_apply_action(table.pk, alice, {"action": "leave"})
    assert locked_steps >= 3 and timed_out == 1, (locked_steps, timed_out)


@pytest.mark.django_db
def test_settlement_countdown_is_the_rule_sets_unless_configured(settings, alice, room):
    settings.MAHJONG_AUTO_PACE = 0
    for configured, expected in ((0, 15.0), (120, 120.0)):
        settings.MAHJONG_SETTLEMENT_SECONDS = configured
        table = _start_auto(alice, room)  # 托管 plays the hand out at once
        assert table.status == Table.Status.SETTLING
        ended = HandEvent.objects.get(hand_id=table.hand_id, kind="hand_ended").at
        assert table.settle_deadline.timestamp() - ended == pytest.approx(
            expected, abs=1
        )
        do_apply_action(table.pk, alice, {"action": "leave"})
