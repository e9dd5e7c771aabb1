"""The nightly run while hands are settled (PostgreSQL): nothing lost, nothing doubled.

Two races, each with real transactions on separate connections:

1. a settlement that starts while the repair holds its drifted players'
   profile locks: it waits, then adds its hand to the repaired counters;
2. a settlement that holds the locks when the repair starts: the repair
   waits, then sees the hand;
3. players who did not drift are never locked by the run.

Afterwards every counter equals what the hand rows say (a second run
corrects nothing) and every balance is its ledger's sum.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest
from django.db import connection, transaction

from accounts.ledger import lock_profiles
from accounts.selectors import ledger_drift
from leaderboard import recalc
from leaderboard.models import PlayerStats
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WHEN = datetime(2026, 3, 2, 4, tzinfo=UTC)


def _in_thread(fn):
    errors: list[BaseException] = []

    def run():
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    t = threading.Thread(target=run)
    t.start()
    return t, errors


def _hands(user):
    return PlayerStats.objects.get(user=user, ruleset="").hands


def test_a_settlement_during_the_locked_repair_is_applied_after_it(monkeypatch):
    a, b = make_player("ra"), make_player("rb")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    PlayerStats.objects.filter(user=a, ruleset="").update(hands=50)  # drifted
    locked = threading.Event()
    real = recalc.repair_drifted

    released: list[float] = []

    def slow_repair():
        out = real()
        locked.set()
        time.sleep(1.5)  # the settlement below tries now, and must wait
        released.append(time.monotonic())  # the repair commits right after
        return out

    monkeypatch.setattr(recalc, "repair_drifted", slow_repair)
    done: dict[str, float] = {}
    reports = []
    runner, errors = _in_thread(
        lambda: reports.append(recalc.recalc_ranks(day=WHEN.date()))
    )
    assert locked.wait(30)

    def settle():
        hand(a, b, ended=WHEN, winner=1, fan=10)
        done["settled"] = time.monotonic()

    settler, settle_errors = _in_thread(settle)
    runner.join(60)
    settler.join(60)
    assert not errors and not settle_errors, (errors, settle_errors)
    assert reports[0].drifted_players == 1 and reports[0].stats_repaired == 1
    assert done["settled"] >= released[0]  # it waited for the repair's locks
    assert _hands(a) == _hands(b) == 2  # repaired to 1, then the new hand: 2
    monkeypatch.setattr(recalc, "repair_drifted", real)
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []


def test_the_repair_waits_for_a_settlement_that_holds_the_locks():
    a, b = make_player("sa"), make_player("sb")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    PlayerStats.objects.filter(user=a, ruleset="").update(hands=50)  # drifted
    holding = threading.Event()
    done: dict[str, float] = {}

    def settle():
        with transaction.atomic():
            lock_profiles(user_ids=[a.pk, b.pk])
            holding.set()
            time.sleep(1.5)  # the recalculation starts meanwhile
            hand(a, b, ended=WHEN, winner=None)
            done["committing"] = time.monotonic()

    settler, settle_errors = _in_thread(settle)
    assert holding.wait(30)
    report = recalc.recalc_ranks(day=WHEN.date())
    finished = time.monotonic()
    settler.join(60)
    assert not settle_errors
    assert finished >= done["committing"]  # the repair waited for the lock
    assert report.drifted_players == 1 and report.stats_repaired == 1
    # the repair ran after the settlement committed, and saw its hand
    assert _hands(a) == _hands(b) == 2
    assert PlayerStats.objects.get(user=b, ruleset="").draws == 1
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []


def test_players_who_did_not_drift_are_not_locked():
    """Play goes on during the run: a settlement holding its players' locks
    neither blocks the run nor is blocked, and both end right."""
    a, b = make_player("ta"), make_player("tb")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    holding, release = threading.Event(), threading.Event()

    def settle():
        with transaction.atomic():
            lock_profiles(user_ids=[a.pk, b.pk])
            holding.set()
            assert release.wait(60)  # held until the run has finished
            hand(a, b, ended=WHEN, winner=1, fan=16)

    settler, settle_errors = _in_thread(settle)
    assert holding.wait(30)
    try:
        report = recalc.recalc_ranks(day=WHEN.date())
    finally:
        release.set()
    settler.join(60)
    assert not settle_errors
    assert report.drifted_players == 0 and report.corrected == 0
    assert _hands(a) == _hands(b) == 2
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []
