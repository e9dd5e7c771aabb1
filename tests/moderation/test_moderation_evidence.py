"""Evidence figures: decision times from the log, the review's agreement signal."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.engine.events import Event
from games.engine.walk import walk
from games.models import HandEvent, HandRecord, HandReview
from games.services import table_quick_match
from games.services.hands import event_from_row
from moderation import stats
from moderation.evidence import DECISION_GROUPS, decision_times
from moderation.models import Case
from moderation.services.signals import agreement_outliers, signals_scan
from tests.games.conftest import make_player
from tests.games.driver import play_out
from tests.moderation.helpers import T0, played

pytestmark = pytest.mark.django_db


def _events(record: HandRecord) -> list[Event]:
    return [
        event_from_row(e) for e in HandEvent.objects.filter(hand=record).order_by("seq")
    ]


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_decision_times_equal_the_replay_s_seconds(alice, bob, room, seed):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    play_out(table, {0: table.seat0, 1: table.seat1}, seed=seed)
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == "ended"
    for seat in (0, 1):
        mine = decision_times(seats={record.pk: seat})
        expected: dict[str, list[float]] = {}
        auto = False
        for point in walk(record.seed, _events(record)):
            if point.action.kind == "auto_play" and point.seat == seat:
                auto = bool(getattr(point.action, "on", False))
            group = DECISION_GROUPS.get(point.action.kind)
            payload = point.event.payload or {}
            if (
                point.seat != seat
                or group is None
                or point.seconds is None
                or auto
                or payload.get("auto")
            ):
                continue
            expected.setdefault(group, []).append(round(point.seconds, 3))
        assert mine == expected, seat
        assert sum(len(v) for v in mine.values()) > 1


def test_robust_statistics():
    assert stats.median([3, 1, 2]) == 2 and stats.mad([1, 2, 3, 4, 100]) == 1
    # a bot-like 0.3 s every time against a person's 2–4 s
    z = stats.median_shift_z([0.3] * 25, [2, 3, 4, 2.5, 3.5] * 10)
    assert z is not None and z < -10
    assert stats.median_shift_z([], [1]) is None
    assert round(stats.proportion_z(90, 100, 50, 100), 1) == 8.0


def test_agreement_far_above_the_player_s_history_opens_a_case(settings):
    settings.MAHJONG_OUTLIER_RECENT_HANDS = 5
    settings.MAHJONG_OUTLIER_MIN_BASELINE = 10
    settings.MAHJONG_SIGNALS_EVERY = 3600
    cheat, other = make_player("cheat"), make_player("other")
    hands = [
        played(cheat, other, minutes=i, winner=i % 2) for i in range(15)
    ]  # oldest first
    for i, record in enumerate(hands):
        recent = i >= 10
        HandReview.objects.create(
            hand=record,
            seat0_decisions=20,
            seat0_agreed=19 if recent else 10,  # 95 % lately, 50 % before
            seat1_decisions=20,
            seat1_agreed=10,
        )
    now = T0 + timedelta(minutes=30)
    hits = agreement_outliers(now=now)
    assert [h["user"] for h in hits] == [cheat.pk]
    assert hits[0]["recent"] == [95, 100] and hits[0]["baseline"] == [100, 200]
    assert signals_scan(now=now) == 1
    case = Case.objects.get()
    assert (case.suspect, case.category, case.automatic) == (cheat, "cheating", True)
    atom = case.reports.get()
    assert atom.signal == "agreement" and atom.hands.count() == 5
