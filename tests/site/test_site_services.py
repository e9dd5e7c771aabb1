"""Against the real services (run by .ci/run with DATABASE_URL and REDIS_URL set).

Deselected in the embedded default by tests/conftest.py.
"""

import os
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from accounts.models import User
from mahjong_site.tasks import ping

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")
    user = User.objects.create_user("pg", "pg@example.com", "pw-pg-123456")
    assert user.profile.coins == settings.MAHJONG_STARTING_COINS


async def test_channel_layer_round_trip_over_redis():
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)  # the default layer
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "table.event", "token": token})
    assert await layer.receive(channel) == {"type": "table.event", "token": token}


def test_cache_is_shared_redis():
    key = f"services-test-{uuid.uuid4().hex}"
    cache.set(key, {"coins": 42}, timeout=30)
    assert cache.get(key) == {"coins": 42}
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


def test_celery_task_runs_on_a_real_worker():
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    token = uuid.uuid4().hex
    result = ping.delay(token)
    answer = result.get(timeout=60)
    assert answer["token"] == token
    # Executed by another process (the worker), result read from Redis.
    assert answer["pid"] != os.getpid()
    assert result.status == "SUCCESS"


@pytest.mark.django_db(transaction=True)
def test_celery_beat_sends_tasks_from_the_database_schedule(tmp_path):
    """Run the real ``celery beat -S django`` against this test database."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.create(
        name="services-test ping",
        task="mahjong_site.ping",
        interval=every_second,
        args='["from-beat"]',
    )
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
    }
    log = tmp_path / "beat.log"
    root = Path(__file__).resolve().parents[2]
    with log.open("w") as out:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "mahjong_site", "beat",
             "-S", "django", "--loglevel=INFO", "--max-interval=1",
             "-s", str(tmp_path / "beat-schedule")],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if "Sending due task services-test ping" in log.read_text():
                    break
                time.sleep(0.5)
        finally:
            beat.terminate()
            beat.wait(timeout=10)
    text = log.read_text()
    assert "DatabaseScheduler" in text, text
    assert "Sending due task services-test ping (mahjong_site.ping)" in text, text
