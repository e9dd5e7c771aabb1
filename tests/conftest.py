"""Suite-wide pytest configuration.

Tests marked ``services`` need the real PostgreSQL + Redis (+ a Celery worker); they
are deselected unless both ``DATABASE_URL`` and ``REDIS_URL`` are set, as ``.ci/run``
does in its second pass. Rules and engine tests need no database and are untouched.
"""

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from celery import current_app
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

ROOT = Path(__file__).resolve().parent.parent
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL")


def services_configured() -> bool:
    """True when the settings point at real PostgreSQL and Redis."""
    return all(os.environ.get(name) for name in SERVICE_VARS)


def pytest_report_header(config: pytest.Config) -> str:
    if services_configured():
        return "services: PostgreSQL + Redis configured; 'services' tests run"
    return "services: embedded default; 'services' tests deselected"


def pytest_configure(config: pytest.Config) -> None:
    _compile_messages_if_stale()
    _flush_past_append_only_triggers()


def _flush_past_append_only_triggers() -> None:
    """Let the flush of transactional tests empty the append-only tables.

    On SQLite Django flushes with ``DELETE FROM``, which the ledger's and the
    audit log's triggers refuse (``mahjong_site.append_only``); the flush
    runs inside :func:`~mahjong_site.append_only.flushing`.
    """
    import time

    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations

    from mahjong_site.append_only import flushing

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        # A module's live cluster (tests/games/live.py: Daphne and clock
        # processes polling the same PostgreSQL database) may hold a row lock
        # the TRUNCATE waits for while waiting for a table the TRUNCATE
        # holds; PostgreSQL then aborts one side ("deadlock detected", CI).
        # The flush is one transaction: try it again once the other side is done.
        for attempt in range(5):
            try:
                with flushing(self.connection):
                    original(self, sql_list)
                return
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    if services_configured():
        return
    kept = [item for item in items if item.get_closest_marker("services") is None]
    dropped = [item for item in items if item.get_closest_marker("services")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(autouse=True)
def _close_sync_thread_connections() -> Iterator[None]:
    """Close the database connections a test left in asgiref's shared sync thread.

    Outside ``async_to_sync`` (an async test run by pytest-asyncio), every
    ``sync_to_async``/``database_sync_to_async`` call with ``thread_sensitive=True``
    runs on ``SyncToAsync.single_thread_executor``: one thread for the whole
    process. Django's connections are per thread, so a connection the test opened
    there outlived the test (SQLite's in-memory test database even ignores
    ``close()``). A later test without database access that drives a consumer then
    failed: Channels calls ``close_old_connections()`` on that thread, which asks
    the stale connection for its autocommit state, and pytest-django refuses
    ("Database access not allowed").
    """
    yield
    SyncToAsync.single_thread_executor.submit(_close_thread_connections).result(
        timeout=60
    )


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Give every test the default language (Chinese).

    A request with the English cookie activates English for the thread that
    served it, and Django leaves it active after the response in the test
    client; a later test in the same thread then read English text.
    """
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_frame_copies() -> Iterator[None]:
    """Each test reads profiles and the level scheme afresh.

    Frames keep per-process copies of both (games.presenters.players; the
    levels refreshed every minute).  A transactional test empties the level
    tables, so a copy refreshed in the middle of one changed the frames it
    compared (CI: the whole frame after ``sync`` lost the opponent's 雀蛋
    badge that the partial frames had shown).
    """
    from games.presenters import clear_profile_cache

    clear_profile_cache()
    yield
    clear_profile_cache()


@pytest.fixture(autouse=True)
def _no_clock_thread(settings: Any) -> Iterator[None]:
    """No test process keeps time by itself: the tables' due rows are run by
    the tests (``games.services.clock.run_due(now=...)``) unless a test sets
    ``MAHJONG_CLOCK = "thread"``; a clock thread it started is stopped."""
    settings.MAHJONG_CLOCK = "command"
    yield
    from games.services.clock import stop_loop

    stop_loop()


@pytest.fixture(autouse=True)
def _fresh_presence() -> Iterator[None]:
    """Forget presence (games.presence) between tests in the embedded default.

    Its in-memory cache outlives a test, and SQLite reuses table ids after a
    rollback.  A Redis cache is left alone (``clear()`` would flush the whole
    database the channel layer uses too); PostgreSQL never reuses ids.
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    yield
    cache = caches["presence"]
    if isinstance(cache, LocMemCache):
        cache.clear()


@pytest.fixture(autouse=True)
def _keep_the_current_celery_app() -> Iterator[None]:
    """Give the process back its Celery app if a test made another one current.

    ``Celery(...)`` makes the new app the current one unless it is created with
    ``set_as_current=False``; ``@shared_task`` tasks then publish through it. A
    services test that builds an app for a throwaway broker (another Redis
    database) left it current, and a later ``ping.delay()`` went to that broker,
    where no worker listened: ``test_celery_task_runs_on_a_real_worker`` timed out.
    """
    app = current_app._get_current_object()
    yield
    if current_app._get_current_object() is not app:
        app.set_current()


@pytest.fixture(autouse=True)
def _same_walls_every_run(request: pytest.FixtureRequest) -> Iterator[None]:
    """Deal the same walls and give the bots the same generators on every run.

    The site draws hand seeds and bot generators from :mod:`secrets`
    (``games.services.deal``, ``games.services.auto``).  A test that plays
    whole hands then met a different wall on every run, and a rare one (a
    hand won in a few moves, a discard that took the last tile) failed CI
    once in many runs and never again locally.  Here each test draws them from
    a generator seeded by its own id: still a fresh seed per hand, but the same
    ones on every run, so a failure reproduces with the test's name alone.
    Tests that stack a particular wall patch these again themselves; the
    subprocesses of the services tests (Daphne, the clock) keep real secrets.
    """
    import hashlib
    import random
    from types import SimpleNamespace

    from games.services import auto, deal

    rng = random.Random(hashlib.sha256(request.node.nodeid.encode()).digest())
    fixed = SimpleNamespace(
        token_hex=lambda n=32: rng.randbytes(n).hex(), randbits=rng.getrandbits
    )
    saved = deal.secrets, auto.secrets
    deal.secrets = auto.secrets = fixed  # type: ignore[assignment]
    yield
    deal.secrets, auto.secrets = saved


def _close_thread_connections() -> None:
    """Close this thread's open connections, SQLite in-memory ones included.

    The in-memory test database lives on while the main thread's connection is
    open, so closing a worker thread's connection to it loses nothing.
    """
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            BaseDatabaseWrapper.close(conn)


def _compile_messages_if_stale() -> None:
    """Compile locale/*.po to .mo when missing or older (so bare ``pytest`` works)."""
    msgfmt = shutil.which("msgfmt")
    for po in (ROOT / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        if msgfmt is None:
            raise pytest.UsageError(
                f"{mo} is missing or stale and msgfmt is not installed; "
                "install gettext (apt-get install -y gettext) or run scripts/test"
            )
        subprocess.run([msgfmt, "--check-format", "-o", str(mo), str(po)], check=True)
