"""Automated play is paced: 托管 or 报听 against the bot plays one round at a time."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from games.models import Due, HandEvent, HandRecord, Table
from games.protocol import parse_move
from games.rules.tiles import Tile
from games.services import (
    auto,
    clock,
    deal,
    table_act,
    table_auto_step,
    table_leave,
    table_play_bot,
    table_timeout,
)
from games.services.hands import load_hand, rebuild_hand


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
    table = table_play_bot(user=alice, room=room, level=level)
    table.refresh_from_db()
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": True}),
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
        assert (
            table_auto_step(table_id=table.pk, hand_id=record.pk, seq=table.seq) is True
        )
        table.refresh_from_db()
        counts = _discards_by_seat(record, before)
        assert counts[0] <= 1 and counts[1] <= 1, counts
        steps += 1
        # the same job once more (fired twice, or late) changes nothing
        assert (
            table_auto_step(table_id=table.pk, hand_id=record.pk, seq=before) is False
        )
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
        assert (
            table_auto_step(table_id=table.pk, hand_id=record.pk, seq=table.seq) is True
        )
        table.refresh_from_db()
        if (
            table.status == Table.Status.PLAYING
            and not load_hand(record, seq=table.seq).state.ready[0]
        ):
            break
        if table.status == Table.Status.PLAYING:  # locked: let the hand run out
            settings.MAHJONG_AUTO_PACE = 0
            assert (
                table_auto_step(table_id=table.pk, hand_id=record.pk, seq=table.seq)
                is True
            )
            settings.MAHJONG_AUTO_PACE = 1.0
        table_leave(user=alice, table_id=table.pk)
    assert table.status == Table.Status.PLAYING
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": table.seq, "on": False}),
    )
    table.refresh_from_db()
    seq = table.seq
    assert table_auto_step(table_id=table.pk, hand_id=record.pk, seq=seq) is False
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
    """End to end in the embedded default: the clock thread, real pauses."""
    from tests.games.conftest import seed_rooms

    seed_rooms()
    from games.models import Room

    room = Room.objects.get(name="新手场")
    settings.MAHJONG_AUTO_PACE = 0.05
    table = _start_auto(alice, room)
    # the clock thread runs the chain of step rows (each step plans the
    # next) while this thread leaves the database alone (SQLite's shared
    # in-memory database locks whole tables across threads)
    settings.MAHJONG_CLOCK = "thread"
    clock.start_loop()
    try:
        assert clock.wait_idle(within=1.0, timeout=60)
    finally:
        assert clock.stop_loop() is True
    from games.services import review

    for thread in list(review._THREADS):  # the ended hand's review (复盘)
        thread.join(timeout=60)
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
            assert (
                table_auto_step(table_id=table.pk, hand_id=record.pk, seq=table.seq)
                is True
            )
            table.refresh_from_db()
        table_leave(user=alice, table_id=table.pk)
    raise AssertionError("paced play never stopped on the bot or a locked seat")


@pytest.mark.django_db
def test_a_lost_step_job_resumes_when_the_player_opens_the_table(settings, alice, room):
    from games.services import seat_connect

    settings.MAHJONG_AUTO_PACE = 1.0
    table = _pause_on_the_bot(alice, room)
    seq = table.seq
    seat_connect(table_id=table.pk, seat=0)
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    # play moved on and 托管 is off (the player is back); now it is their
    # move — or, if 托管 had declared 报听 (the table discards for a locked
    # seat), the next automated move, paced again
    # play moved on; the player's own 托管 stays on (it was switched on
    # before the page opened, games.services.seats._chose_auto), paced again:
    # the next step is planned unless the hand ended
    assert table.seq > seq
    assert hand.state.auto[0] is True
    assert hand.ended or Due.objects.filter(table=table, kind="auto_step").exists()


@pytest.mark.django_db
def test_resume_tables_plans_the_next_step_of_paced_play(settings, alice, room):
    import games.services.resume as resume

    settings.MAHJONG_AUTO_PACE = 1.0
    table = _pause_on_the_bot(alice, room)
    Due.objects.filter(table=table).delete()  # lost (the worse case)
    report = resume.resume_tables(now=5000.0)
    assert table.pk in report.resumed
    step = Due.objects.get(table=table, kind="auto_step")
    assert (step.hand_id, step.seq, step.at.timestamp()) == (
        table.hand_id,
        table.seq,
        5000.0,
    )
    assert clock.run_due(now=5000.0) >= 1
    table.refresh_from_db()
    assert table.seq > step.seq


def _ask_person(table: Table, alice, hand) -> None:
    """The locked person is asked (a win or a kong): win if it can, else
    discard the drawn tile."""
    legal = {a.kind for a in hand.legal_actions(0)}
    if "win" in legal:
        payload = {"action": "win", "seq": hand.seq}
    else:
        tile = str(Tile.from_index(hand.state.drawn[0]))
        payload = {"action": "discard", "seq": hand.seq, "tile": tile}
    table_act(user=alice, table_id=table.pk, move=parse_move(payload))


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
    fixed = SimpleNamespace(
        token_hex=lambda n: rng.randbytes(n).hex(), randbits=rng.getrandbits
    )
    monkeypatch.setattr(deal, "secrets", fixed)  # the seeds
    monkeypatch.setattr(auto, "secrets", fixed)  # the bots' generators
    locked_steps = timed_out = 0
    for _ in range(40):
        table = _start_auto(alice, room, "normal")
        record = table.hand
        assert rebuild_hand(record).events[0].payload["prompt_locked"]
        for _ in range(300):
            if table.status != Table.Status.PLAYING:
                break
            hand = load_hand(record, seq=table.seq)
            s = hand.state
            if s.ready[0] and s.auto[0]:  # the person takes control back
                table_act(
                    user=alice,
                    table_id=table.pk,
                    move=parse_move({"action": "auto_play", "seq": s.seq, "on": False}),
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
                assert (
                    table_timeout(
                        table_id=table.pk, hand_id=record.pk, seq=before, now=at
                    )
                    is True
                )
                first = HandEvent.objects.filter(hand=record, seq__gt=before)
                kinds = list(first.order_by("seq").values_list("kind", "seat"))
                assert kinds[:2] == [("timeout", 0), ("discard", 0)]
                assert first.get(kind="discard", seat=0).payload["tile"] == drawn
                timed_out += 1
            else:
                assert (
                    table_auto_step(table_id=table.pk, hand_id=record.pk, seq=before)
                    is True
                )
            table.refresh_from_db()
            counts = _discards_by_seat(record, before)
            assert counts[0] <= 1 and counts[1] <= 1, counts
            if both:
                locked_steps += 1
                # one round, then the hand waits for the next step
                assert table.status != Table.Status.PLAYING or table.seq > before
        if locked_steps >= 3 and timed_out:
            break
        table_leave(user=alice, table_id=table.pk)
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
        table_leave(user=alice, table_id=table.pk)
