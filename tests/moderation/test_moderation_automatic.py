"""The clock-driven parts: escalation after 24 hours, automatic signals, play bans."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings

from accounts.models import Message
from games.models import HandSeat
from moderation.models import AuditEntry, Case, Report, Sanction
from moderation.services.cases import case_escalate_overdue
from moderation.services.reports import report_file
from moderation.services.sanctions import playban_check
from moderation.services.signals import signals_scan, win_trading_pairs
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand
from tests.moderation.helpers import T0, moderator, played

pytestmark = pytest.mark.django_db


def test_an_undecided_case_is_escalated_after_24_hours_once(alice, bob):
    mods = [moderator("m1"), moderator("m2")]
    record = played(alice, bob)
    report_file(reporter=alice, category="abuse", hand=record, now=T0)
    case = Case.objects.get()
    assert case_escalate_overdue(now=T0 + timedelta(hours=23, minutes=59)) == 0
    assert case_escalate_overdue(now=T0 + timedelta(hours=24, minutes=1)) == 1
    case.refresh_from_db()
    assert case.escalated and case.escalated_at == T0 + timedelta(hours=24, minutes=1)
    for m in mods:
        message = Message.objects.get(recipient=m)
        assert f"#{case.pk}" in message.subject
    assert not Message.objects.filter(recipient=alice).exists()
    # once only; the audit says the system did it
    assert case_escalate_overdue(now=T0 + timedelta(hours=30)) == 0
    entry = AuditEntry.objects.get(action="escalate")
    assert entry.actor is None and entry.after["escalated"] is True


def test_escalated_cases_are_listed_first_in_the_queue(client, alice, bob):
    carol = make_player("carol")
    low = report_file(
        reporter=alice, category="other", hand=played(alice, bob), now=T0
    ).case
    high = report_file(
        reporter=carol, category="cheating", hand=played(carol, alice, minutes=1),
        now=T0 + timedelta(hours=20),
    ).case  # fmt: skip
    Case.objects.filter(pk=high.pk).update(priority=90)
    Case.objects.filter(pk=low.pk).update(priority=5)
    moderator("m1")
    case_escalate_overdue(now=T0 + timedelta(hours=25))
    client.force_login(moderator("m2"))
    from django.urls import reverse

    page = client.get(reverse("admin:moderation_case_changelist")).content.decode()
    first, second = (
        page.index(f"/admin/moderation/case/{low.pk}/change/"),
        page.index(f"/admin/moderation/case/{high.pk}/change/"),
    )
    assert first < second  # escalated (low priority) before fresh (high)


def test_the_beat_entry_checks_every_15_minutes():
    entry = django_settings.CELERY_BEAT_SCHEDULE["moderation-escalate-overdue"]
    assert entry["task"] == "moderation.escalate_overdue"
    assert entry["schedule"] == 900
    from moderation import tasks

    assert tasks.escalate_overdue.name == "moderation.escalate_overdue"


def test_win_trading_is_found_on_a_scripted_history(settings):
    settings.MAHJONG_WINTRADE_MIN_HANDS = 12
    settings.MAHJONG_WINTRADE_MIN_COINS = 800  # 12 wins × 76 − 80 = 832 net
    feeder, farmer, honest = (make_player(n) for n in ("feeder", "farmer", "honest"))
    # farmer wins 12 of 13 against feeder; honest pairs trade evenly
    for i in range(13):
        hand(feeder, farmer, ended=T0 + timedelta(minutes=i),
             winner=1 if i else 0)  # fmt: skip
    for i in range(14):
        hand(honest, farmer, ended=T0 + timedelta(minutes=30 + i),
             winner=i % 2)  # fmt: skip
    now = T0 + timedelta(days=1)
    pairs = win_trading_pairs(now=now)
    assert [(p["user"], p["other"]) for p in pairs] == [(farmer.pk, feeder.pk)]
    assert pairs[0]["wins"] == 12 and pairs[0]["losses"] == 1
    assert signals_scan(now=now) == 1
    case = Case.objects.get()
    assert (case.suspect, case.category, case.automatic) == (farmer, "collusion", True)
    atom = Report.objects.get()
    assert atom.reporter is None and atom.signal == "win_trading"
    assert atom.hands.count() == 13
    assert signals_scan(now=now + timedelta(hours=1)) == 0  # not twice


def test_repeated_abandonment_gives_growing_play_bans(settings, alice, bob):
    settings.MAHJONG_PLAYBAN_WINDOW = 5
    settings.MAHJONG_PLAYBAN_ABANDONS = 2
    settings.MAHJONG_PLAYBAN_STEPS = [600, 3600]

    def abandon(minutes):
        seats = hand(alice, bob, ended=T0 + timedelta(minutes=minutes), winner=1)
        HandSeat.objects.filter(pk=seats[0].pk).update(ending="auto")

    abandon(0)
    assert playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=1)) is None
    abandon(2)
    first = playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=3))
    assert first.kind == "playban"
    assert first.ends - first.starts == timedelta(seconds=600)
    assert first.reason_code == "abandons" and first.reason_params["n"] == 2
    assert Message.objects.filter(recipient=alice, subject="暂时禁止入座").exists()
    # the count restarts after a ban; the next one is longer
    abandon(20)
    assert playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=21)) is None
    abandon(22)
    second = playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=23))
    assert second.ends - second.starts == timedelta(seconds=3600)
    abandon(90)
    abandon(92)
    third = playban_check(user_id=alice.pk, now=T0 + timedelta(minutes=130))
    assert third.ends - third.starts == timedelta(seconds=3600)  # capped
    assert Sanction.objects.filter(user=alice, kind="playban").count() == 3
    assert not Sanction.objects.filter(user=bob).exists()
