"""Against the real services (run by .ci/run with DATABASE_URL and REDIS_URL set).

Deselected in the embedded default by tests/conftest.py.
"""

import os
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
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
    assert isinstance(layer, RedisChannelLayer)
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
