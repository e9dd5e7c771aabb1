"""The nightly run while hands are settled (PostgreSQL): nothing lost, nothing doubled.

Two races, each with real transactions on separate connections:

1. a settlement that starts while the repair holds its drifted players'
   profile locks: it waits, then adds its hand to the repaired counters;
2. a settlement that holds the locks when the repair starts: the repair
   waits, then sees the hand;
3. players who did not drift are never locked by the run;
4. with no race, the check and the repair share one snapshot and the
   check's totals (the second race falls back to the two-step run);
5. a first run into empty counters and snapshots (indexes built after the
   insert) leaves the same rows, indexes and constraints, and a settlement
   that comes meanwhile waits and is counted once.

Afterwards every counter equals what the hand rows say (a second run
corrects nothing) and every balance is its ledger's sum.
"""

from __future__ import annotations

import contextlib
import threading
import time
from datetime import UTC, datetime

import pytest
from django.db import connection, transaction

from accounts.ledger import lock_profiles
from accounts.models import Profile
from accounts.selectors import ledger_drift
from games.models import HandSeat
from leaderboard import recalc
from leaderboard.models import BoardSnapshot, PlayerStats
from leaderboard.recalc import check, repair, snapshots
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

    def slow_repair(**kwargs):
        out = real(**kwargs)
        locked.set()
        time.sleep(1.5)  # the settlement below tries now, and must wait
        released.append(time.monotonic())  # the repair commits right after
        return out

    monkeypatch.setattr(repair, "repair_drifted", slow_repair)
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
    monkeypatch.setattr(repair, "repair_drifted", real)
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


def test_the_one_snapshot_repair_fixes_what_the_two_step_one_does(monkeypatch):
    """Outside a transaction the check and the repair share one REPEATABLE
    READ snapshot and the check's totals (no second pass): it repairs
    counters, a missing row, a balance and a hand row's points exactly."""
    a, b, c = make_player("ua"), make_player("ub"), make_player("uc")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    hand(a, c, ended=WHEN, winner=1, fan=200, multiplier=2, self_drawn=True)
    hand(b, c, ended=WHEN, winner=None, ruleset="mcr")

    def counters():
        return {
            (s.user_id, s.ruleset): (s.hands, s.wins, s.draws, s.points, s.coins)
            for s in PlayerStats.objects.all()
        }

    good, balances = counters(), dict(Profile.objects.values_list("user_id", "coins"))
    PlayerStats.objects.filter(user=a, ruleset="").update(hands=99, wins=0)
    PlayerStats.objects.filter(user=b, ruleset="mcr").delete()
    Profile.objects.filter(user=b).update(coins=1)
    won = HandSeat.objects.get(user=c, won=True)
    HandSeat.objects.filter(pk=won.pk).update(points=3)

    def no_second_pass(*args, **kwargs):
        raise AssertionError("the two-step check ran")

    monkeypatch.setattr(check, "_check", no_second_pass)
    report = recalc.recalc_ranks(day=WHEN.date())
    assert report.drifted_players == 3
    assert (report.stats_repaired, report.stats_inserted) == (1, 1)
    assert (report.balances_repaired, report.hand_rows_repaired) == (1, 1)
    assert report.points_recalculated == 0
    assert counters() == good
    assert dict(Profile.objects.values_list("user_id", "coins")) == balances
    assert HandSeat.objects.get(pk=won.pk).points == 400
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []


def test_the_one_snapshot_repair_books_a_changed_points_rule(monkeypatch):
    a, b = make_player("va"), make_player("vb")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    base = recalc.check.hand_points_sql
    for step in (recalc.check, recalc.repair):  # the rule's two readers
        monkeypatch.setattr(step, "hand_points_sql", lambda: base() * 2)
    report = recalc.recalc_ranks(day=WHEN.date())
    assert (report.points_recalculated, report.hand_rows_repaired) == (1, 1)
    assert Profile.objects.get(user=a).rating_points == 16
    assert PlayerStats.objects.get(user=a, ruleset="").points == 16
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []


def _schema(table: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s"
            " ORDER BY 1",
            [table],
        )
        indexes = cur.fetchall()
        cur.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = %s::regclass ORDER BY 1",
            [table],
        )
        return indexes, cur.fetchall()


def test_a_first_run_into_empty_counters_builds_the_indexes_after(monkeypatch):
    """Empty counters and many rows to insert (here: any): the insert runs
    without the table's indexes, which are built after it, same names and
    definitions; the rows are what the usual path writes; a settlement that
    comes meanwhile waits for the run and is then counted once."""
    a, b, c = make_player("wa"), make_player("wb"), make_player("wc")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    hand(a, c, ended=WHEN, winner=1, fan=24, multiplier=2, self_drawn=True)
    hand(b, c, ended=WHEN, winner=None, ruleset="mcr")
    table = PlayerStats._meta.db_table
    schema = _schema(table)
    assert len(schema[0]) >= 7  # primary key, unique, five boards
    snapshots = _schema(BoardSnapshot._meta.db_table)
    first = recalc.recalc_ranks(day=WHEN.date())  # the snapshots' first fill
    assert first.snapshot_written == first.snapshot_rows > 0
    assert _schema(BoardSnapshot._meta.db_table) == snapshots
    # the usual path finds every snapshot row as it would write it
    again = recalc.recalc_ranks(day=WHEN.date())
    assert (again.snapshot_written, again.snapshot_removed) == (0, 0)
    good = sorted(PlayerStats.objects.values_list("user_id", "ruleset", "hands"))
    PlayerStats.objects.all().delete()
    monkeypatch.setattr(repair, "_BULK_ROWS", 1)
    loaded = threading.Event()
    build = repair.indexes_built_after

    @contextlib.contextmanager
    def slow(cur, name):
        with build(cur, name):
            yield
            loaded.set()
            time.sleep(0.5)  # the settlement below is waiting now

    monkeypatch.setattr(repair, "indexes_built_after", slow)

    def settle():
        assert loaded.wait(30)
        hand(a, b, ended=WHEN, winner=1, fan=8)

    t, errors = _in_thread(settle)
    report = recalc.recalc_ranks(day=WHEN.date())
    t.join(60)
    assert not errors
    assert report.stats_inserted == len(good) and report.stats_repaired == 0
    assert _schema(table) == schema
    assert _hands(a) == 3 and _hands(b) == 3
    assert recalc.recalc_ranks(day=WHEN.date()).corrected == 0
    assert ledger_drift() == []


def _snapshot_rows():
    return sorted(
        tuple(row.values())
        for row in BoardSnapshot.objects.order_by().values(
            *[f.attname for f in BoardSnapshot._meta.concrete_fields if f.name != "id"]
        )
    )


def test_snapshots_stored_in_parallel_are_the_serial_ones_and_two_runs_do_not_double(
    monkeypatch,
):
    """The snapshot step on PostgreSQL stores the scopes two connections at
    a time (recalc.snapshots._store_snapshots_in_parallel): the rows are those of the
    one-connection path, and two runs at once (each scope ordered by an
    advisory lock) write each row once — the second finds them stored."""
    a, b, c = make_player("pa"), make_player("pb"), make_player("pc")
    hand(a, b, ended=WHEN, winner=0, fan=8)
    hand(a, c, ended=WHEN, winner=1, fan=24, self_drawn=True)
    hand(b, c, ended=WHEN, winner=None, ruleset="mcr")
    monkeypatch.setattr(snapshots, "_SNAPSHOT_WORKERS", 2)
    first = recalc.recalc_ranks(day=WHEN.date())
    parallel = _snapshot_rows()
    assert first.snapshot_written == first.snapshot_rows == len(parallel) > 0
    BoardSnapshot.objects.all().delete()
    monkeypatch.setattr(snapshots, "_SNAPSHOT_WORKERS", 1)
    recalc.recalc_ranks(day=WHEN.date())
    assert _snapshot_rows() == parallel
    BoardSnapshot.objects.all().delete()
    monkeypatch.setattr(snapshots, "_SNAPSHOT_WORKERS", 2)
    reports = []
    threads = [
        _in_thread(lambda: reports.append(recalc.recalc_ranks(day=WHEN.date())))
        for _ in range(2)
    ]
    for t, errors in threads:
        t.join(60)
        assert not errors
    assert _snapshot_rows() == parallel
    assert sum(r.snapshot_written for r in reports) == len(parallel)
