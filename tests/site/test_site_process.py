"""Every server process tunes the garbage collector once at start-up."""

import gc
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from celery import Celery
from celery.signals import worker_init, worker_process_init
from django.core.management import call_command

from mahjong_site.process import GC_THRESHOLD, tune_gc

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_THRESHOLD = (700, 10, 10)


@pytest.fixture
def untuned_gc() -> Iterator[None]:
    """Start from CPython's defaults; put the collector back as it was."""
    threshold = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    gc.set_threshold(*DEFAULT_THRESHOLD)
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    if frozen:
        gc.freeze()


def _assert_tuned() -> None:
    assert gc.get_threshold() == GC_THRESHOLD
    assert gc.get_freeze_count() > 0


def test_tune_gc_freezes_and_raises_the_thresholds(untuned_gc):
    tune_gc()
    _assert_tuned()


def test_asgi_application_module_tunes_gc():
    """In a fresh interpreter, as Daphne imports it."""
    probe = (
        "import gc, mahjong_site.asgi;"
        "print(*gc.get_threshold(), gc.get_freeze_count() > 0)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mahjong_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert out == [*map(str, GC_THRESHOLD), "True"]


def test_celery_pool_process_tunes_gc(untuned_gc):
    worker_process_init.send(sender=None)
    _assert_tuned()


def test_celery_worker_main_process_tunes_gc(untuned_gc):
    # A worker of another app: Celery's Django fix-up of ours leaves it alone.
    class Worker:
        app = Celery("elsewhere", set_as_current=False)

    worker_init.send(sender=Worker())
    _assert_tuned()


def test_run_clock_tunes_gc(untuned_gc, monkeypatch):
    from games.management.commands import run_clock

    seen: list[tuple[tuple[int, int, int], int]] = []

    def record(*, stop):
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    monkeypatch.setattr(run_clock.presence, "warm", lambda: None)
    monkeypatch.setattr(run_clock, "run_forever", record)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        call_command("run_clock", stdout=StringIO())
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    [(threshold, frozen)] = seen
    assert threshold == GC_THRESHOLD
    assert frozen > 0
