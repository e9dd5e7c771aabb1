"""The nightly task on the real deployment: beat → Redis → a Celery worker → PostgreSQL.

A real ``celery beat -S django`` and a real worker (both on this test
database, on a queue of their own so no other worker takes the job) run
``leaderboard.recalc_ranks`` from a database schedule entry; the snapshot it
writes appears in the database.  The 03:00 entry itself is checked as beat's
DatabaseScheduler reads it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.db import connection

from leaderboard.models import BoardSnapshot
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    db = connection.settings_dict
    return {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
    }


def test_beat_and_a_worker_run_the_recalculation(tmp_path):
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    a, b = make_player("beat-a"), make_player("beat-b")
    hand(a, b, ended=datetime(2026, 3, 2, 4, tzinfo=UTC), winner=0, fan=8)
    queue = f"recalc-test-{uuid.uuid4().hex[:8]}"
    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.create(
        name="services-test recalc",
        task="leaderboard.recalc_ranks",
        interval=every_second,
        args='["2026-03-02"]',
        queue=queue,
        one_off=True,
    )
    env = _env()
    logs = {name: tmp_path / f"{name}.log" for name in ("worker", "beat")}
    procs = []
    try:
        with logs["worker"].open("w") as out:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "mahjong_site",
                        "worker",
                        "--pool=solo",
                        "-Q",
                        queue,
                        "-n",
                        f"{queue}@%h",
                        "--loglevel=INFO",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        with logs["beat"].open("w") as out:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "mahjong_site",
                        "beat",
                        "-S",
                        "django",
                        "--loglevel=INFO",
                        "--max-interval=1",
                        "-s",
                        str(tmp_path / "beat-schedule"),
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if BoardSnapshot.objects.filter(date="2026-03-02").exists():
                break
            time.sleep(0.5)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=20)
    text = {k: v.read_text() for k, v in logs.items()}
    assert "Sending due task services-test recalc" in text["beat"], text["beat"]
    assert "leaderboard.recalc_ranks" in text["worker"], text["worker"]
    ranks = dict(
        BoardSnapshot.objects.filter(
            date="2026-03-02", period="day", ruleset=""
        ).values_list("user__username", "points_rank")
    )
    assert ranks == {"beat-a": 1, "beat-b": 2}
    assert "succeeded" in text["worker"], text["worker"]


def test_beat_reads_the_nightly_entry_at_three():
    import importlib

    from celery import current_app
    from django.apps import apps
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    # the data migration's entry (transactional tests empty the tables first)
    importlib.import_module("leaderboard.migrations.0003_nightly_schedule").add(
        apps, None
    )

    # beat's own entry for the row (beat loads crontab rows near their hour)
    model = PeriodicTask.objects.get(name="leaderboard-recalc-ranks")
    entry = DatabaseScheduler.Entry(model, app=current_app)
    assert entry.task == "leaderboard.recalc_ranks"
    cron = entry.schedule
    assert cron.hour == {3} and cron.minute == {0}
    assert str(cron.tz) == "Asia/Shanghai"
