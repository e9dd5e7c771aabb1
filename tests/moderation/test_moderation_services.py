"""The whole flow on the real deployment: report → triage on a Celery worker
(Redis broker) → a decision → the inbox messages, sent by the worker.

A real worker serves this test database on a queue of its own (the
moderation tasks are routed there for the test), so no other worker takes
the jobs.  Run by .ci/run's second pass (DATABASE_URL and REDIS_URL set).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.db import connection
from django.utils import timezone

from accounts.models import Message
from moderation.models import Case, Sanction
from moderation.services.decisions import case_decide
from moderation.services.reports import report_file
from moderation.tasks import escalate_overdue
from tests.games.conftest import make_player
from tests.moderation.helpers import moderator, played

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
    }


@pytest.fixture
def worker(tmp_path):
    """A Celery worker on this test database, taking the moderation tasks."""
    queue = f"moderation-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    old_routes = current_app.conf.task_routes
    current_app.conf.update(task_routes={"moderation.*": {"queue": queue}})
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "mahjong_site", "worker",
             "--pool=solo", "-Q", queue, "-n", f"{queue}@%h", "--loglevel=INFO"],
            cwd=ROOT, env=_env(), stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        yield queue, log
    finally:
        current_app.conf.update(task_routes=old_routes)
        proc.terminate()
        proc.wait(timeout=20)


def _wait(check, log: Path, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.3)
    raise AssertionError(log.read_text())


def test_report_triage_decision_and_inbox_through_a_real_worker(worker):
    queue, log = worker
    assert current_app.conf.task_always_eager is False
    alice, bob = make_player("svc-alice"), make_player("svc-bob")
    mod = moderator("svc-mod")
    record = played(alice, bob, winner=1)
    atom = report_file(reporter=alice, category="cheating", text="太准了", hand=record)

    # triage ran in the worker process: evidence and priority are stored
    case = _wait(
        lambda: Case.objects.filter(pk=atom.case_id, evidence__isnull=False).first(),
        log,
    )
    assert case.evidence["hands"] == [record.pk]
    assert case.priority > 0 and len(case.priority_parts) == 6

    case_decide(
        case_id=case.pk, moderator=mod, outcome="suspend", reason="外挂", days=2
    )
    to_alice = _wait(lambda: Message.objects.filter(recipient=alice).first(), log)
    to_bob = _wait(lambda: Message.objects.filter(recipient=bob).first(), log)
    assert "已对该玩家采取措施" in to_alice.body
    assert "外挂" in to_bob.body and to_bob.reply_url
    assert Sanction.objects.get(user=bob).kind == "suspend"
    text = log.read_text()
    for task in ("moderation.triage_case", "moderation.notify_decision",
                 "moderation.enforce_sanction"):  # fmt: skip
        assert f"Task {task}" in text, text

    # the beat task, run by the worker with an injected clock
    other = report_file(
        reporter=alice, category="abuse", hand=played(alice, bob, minutes=3)
    ).case
    later = (timezone.now() + timedelta(hours=25)).isoformat()
    result = escalate_overdue.apply_async(args=[later], queue=queue)
    assert result.get(timeout=60) == 1
    other.refresh_from_db()
    assert other.escalated
    assert Message.objects.filter(recipient=mod, subject__contains=f"#{other.pk}")
