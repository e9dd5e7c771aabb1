"""The stored review (复盘): planned when a hand ends, computed once, summed
for moderation by ``games.selectors.review_agreement``."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

import games.services.review as review_services
from games import tasks
from games.engine.review import REVIEW_VERSION, review_hand
from games.models import HandEvent, HandRecord, HandReview
from games.selectors import review_agreement
from games.services import clock, hand_annul, table_play_bot
from games.services.hands import event_from_row
from games.services.review import review_for, review_store
from tests.games.conftest import make_player
from tests.games.driver import live_hand, play_out
from tests.leaderboard.factory import hand as booked_hand


def _planned(monkeypatch) -> list[tuple[str, list[int]]]:
    from games.services import settlement

    planned: list[tuple[str, list[int]]] = []
    real = settlement.review_schedule
    monkeypatch.setattr(
        settlement,
        "review_schedule",
        lambda *, hand_id: (
            planned.append(("review_hand", [hand_id])) or real(hand_id=hand_id)
        ),
    )
    return planned


def _engine_review(record: HandRecord):
    rows = HandEvent.objects.filter(hand=record).order_by("seq")
    return review_hand(record.secret_seed, [event_from_row(r) for r in rows])


def test_an_ended_hand_is_reviewed_once_and_stored(alice, room, monkeypatch):
    planned = _planned(monkeypatch)
    table = table_play_bot(user=alice, room=room, level="easy")
    record = HandRecord.objects.get(pk=table.hand_id)
    assert review_store(hand_id=record.pk) is None  # live: the log is secret
    play_out(table, {0: alice}, seed=3)
    record.refresh_from_db()
    assert record.status == HandRecord.Status.ENDED
    assert planned == [("review_hand", [record.pk])]

    tasks.review_hand(record.pk)
    stored = HandReview.objects.get(hand=record)
    engine = _engine_review(record)
    assert stored.version == REVIEW_VERSION and stored.bot_level == "hard"
    assert stored.error == ""
    assert stored.counts(0) == engine.counts(0)
    assert stored.counts(1) == engine.counts(1)
    assert stored.seat0_decisions > 0
    assert stored.decisions == [d.to_json() for d in engine.decisions]
    assert stored.seconds > 0
    # once: running it again (a second worker, the page) keeps the row
    tasks.review_hand(record.pk)
    assert review_for(record=record).pk == stored.pk
    assert HandReview.objects.filter(hand=record).count() == 1


def test_an_old_version_is_reviewed_again_on_first_view(alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=4)
    record = HandRecord.objects.get(pk=table.hand_id)
    HandReview.objects.create(hand=record, version=REVIEW_VERSION - 1)
    fresh = review_for(record=record)
    assert fresh.version == REVIEW_VERSION
    assert fresh.counts(0) == _engine_review(record).counts(0)
    assert HandReview.objects.filter(hand=record).count() == 1


def test_an_annulled_hand_is_reviewed_up_to_where_it_stopped(alice, room, monkeypatch):
    planned = _planned(monkeypatch)
    table, record = live_hand(alice, room)
    with transaction.atomic():
        hand_annul(table=table, record=record, now=time.time(), reason="test")
    assert ("review_hand", [record.pk]) in planned
    record.refresh_from_db()
    assert record.status == HandRecord.Status.ANNULLED
    stored = review_store(hand_id=record.pk)
    assert stored.error == ""
    assert stored.counts(0) == _engine_review(record).counts(0)


def test_a_log_that_does_not_replay_is_stored_with_its_error(alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=6)
    record = HandRecord.objects.get(pk=table.hand_id)
    draw = HandEvent.objects.filter(hand=record, kind="draw", seat=0).first()
    fake = "9m" if draw.payload["tile"] != "9m" else "8m"
    draw.payload = {**draw.payload, "tile": fake}
    draw.save()
    stored = review_store(hand_id=record.pk)
    assert "differs" in stored.error
    assert stored.counts(0) == (0, 0) and stored.decisions == []


@pytest.mark.django_db(transaction=True)
def test_embedded_default_reviews_in_a_thread_after_the_commit(settings, monkeypatch):
    """No broker (eager Celery, MAHJONG_CLOCK=thread): the web process
    reviews right after the end, on a thread, so the table's last frame is
    not held up."""
    from games.models import Room

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.MAHJONG_CLOCK = "thread"
    # (not the clock thread itself: its passes would lock SQLite's shared
    # in-memory database while this thread plays the hand)
    monkeypatch.setattr(clock._LOOP, "wake", lambda at: None)
    room = Room.objects.get_or_create(
        name="新手场", defaults={"stake": 10, "min_balance": 200}
    )[0]
    player = make_player("rv")
    table = table_play_bot(user=player, room=room, level="easy")
    play_out(table, {0: player}, seed=7)
    threads = list(review_services._THREADS)
    assert threads
    for thread in threads:
        thread.join(timeout=30)
    stored = HandReview.objects.get(hand_id=table.hand_id)
    assert stored.error == "" and stored.seat0_decisions > 0


def _review(record: HandRecord, a0: int, d0: int, a1: int, d1: int) -> None:
    HandReview.objects.create(
        hand=record,
        seat0_agreed=a0,
        seat0_decisions=d0,
        seat1_agreed=a1,
        seat1_decisions=d1,
    )


def test_review_agreement_sums_the_users_seats(db):
    a, b, c = make_player("ra"), make_player("rb"), make_player("rc")
    t0 = datetime(2025, 3, 1, 12, tzinfo=UTC)
    # a on seat 0, then seat 1, then seat 0 (newest last); one hand unreviewed
    h1 = booked_hand(a, b, ended=t0, winner=0)[0].hand
    h2 = booked_hand(b, a, ended=t0 + timedelta(hours=1), winner=1)[0].hand
    h3 = booked_hand(a, c, ended=t0 + timedelta(hours=2), winner=None)[0].hand
    h4 = booked_hand(a, b, ended=t0 + timedelta(hours=3), winner=0)[0].hand
    _review(h1, 5, 10, 1, 9)
    _review(h2, 7, 8, 3, 12)  # a is seat 1 here: 3 of 12
    _review(h3, 4, 4, 0, 6)
    assert review_agreement(user_id=a.pk) == (5 + 3 + 4, 10 + 12 + 4)
    assert review_agreement(user_id=b.pk) == (1 + 7, 9 + 8)
    assert review_agreement(user_id=c.pk) == (0, 6)
    # the newest reviewed hands first (h4 has no review: it counts nothing)
    assert review_agreement(user_id=a.pk, limit=1) == (4, 4)
    assert review_agreement(user_id=a.pk, limit=2) == (4 + 3, 4 + 12)
    assert review_agreement(user_id=a.pk, limit=0) == (0, 0)
    assert review_agreement(user_id=a.pk, hand_ids=[h1.pk, h4.pk]) == (5, 10)
    assert review_agreement(user_id=a.pk, hand_ids=iter([h2.pk, h3.pk]), limit=1) == (
        4,
        4,
    )
    assert review_agreement(user_id=a.pk, hand_ids=[]) == (0, 0)
    assert review_agreement(user_id=999_999) == (0, 0)
    with pytest.raises(ValueError):
        review_agreement(user_id=a.pk, limit=-1)
