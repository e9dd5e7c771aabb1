"""Settings switch: the embedded default, services chosen by env, production mode.

Each case runs in a fresh interpreter with a controlled environment, because the
settings are read once at start-up.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, django
django.setup()
from django.conf import settings
from mahjong_site.tasks import ping
db = settings.DATABASES["default"]
eager = None
if settings.CELERY_TASK_ALWAYS_EAGER:
    eager = ping.delay("probe").get(timeout=5)
print(json.dumps({
    "db_engine": db["ENGINE"], "db_name": str(db["NAME"]),
    "db_host": db.get("HOST", ""),
    "channel_backend": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "channel_hosts": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "channel_prefix": (settings.CHANNEL_LAYERS["default"].get("CONFIG") or {}).get(
        "prefix"
    ),
    "celery_eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "celery_broker": settings.CELERY_BROKER_URL,
    "celery_backend": settings.CELERY_RESULT_BACKEND,
    "cache_backend": settings.CACHES["default"]["BACKEND"],
    "email_backend": settings.EMAIL_BACKEND,
    "debug": settings.DEBUG,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "trusted_proxies": settings.TRUSTED_PROXIES,
    "session_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_secure": settings.CSRF_COOKIE_SECURE,
    "hsts": settings.SECURE_HSTS_SECONDS,
    "eager_result_pid": eager and eager["pid"],
    "pid": os.getpid(),
}))
"""


def _clean_env(**overrides: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("DJANGO_", "DATABASE_", "REDIS_", "CELERY_", "MAHJONG_", "CHANNEL_")
        )
    }
    env["DJANGO_SETTINGS_MODULE"] = "mahjong_site.settings"
    env.update(overrides)
    return env


def _probe(**env: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_embedded_default_with_nothing_set():
    probe = _probe()
    assert probe["db_engine"] == "django.db.backends.sqlite3"
    assert probe["db_name"] == str(ROOT / "db.sqlite3")
    assert probe["channel_backend"] == "channels.layers.InMemoryChannelLayer"
    assert probe["celery_eager"] is True
    # Eager: the task ran inside this very process.
    assert probe["eager_result_pid"] == probe["pid"]
    assert probe["cache_backend"] == "django.core.cache.backends.locmem.LocMemCache"
    assert probe["email_backend"] == "django.core.mail.backends.console.EmailBackend"
    # The site as players see it (our 404/500 pages, no URL list): DEBUG off.
    assert probe["debug"] is False
    assert probe["ssl_redirect"] is False
    assert probe["trusted_proxies"] == []  # X-Forwarded-For ignored


def test_django_debug_turns_debug_on_only_when_asked():
    assert _probe(DJANGO_DEBUG="1")["debug"] is True
    assert _probe(DJANGO_DEBUG="0")["debug"] is False


def test_database_and_redis_urls_select_postgresql_and_redis():
    probe = _probe(
        DATABASE_URL="postgres://mahjong@db.internal:5433/mahjong",
        REDIS_URL="redis://cache.internal:6380/2",
    )
    assert probe["db_engine"] == "django.db.backends.postgresql"
    assert (probe["db_name"], probe["db_host"]) == ("mahjong", "db.internal")
    assert probe["channel_backend"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    # socket_timeout above channels-redis's 5 s blocking receive (redis-py 8)
    assert probe["channel_hosts"] == [
        {"address": "redis://cache.internal:6380/2", "socket_timeout": 30}
    ]
    assert probe["celery_eager"] is False
    assert probe["celery_broker"] == "redis://cache.internal:6380/2"
    assert probe["celery_backend"] == "redis://cache.internal:6380/2"
    assert probe["cache_backend"] == "django.core.cache.backends.redis.RedisCache"


def test_production_switch_turns_on_the_security_settings():
    probe = _probe(
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="mahjong.example.com",
    )
    assert probe["debug"] is False
    assert probe["ssl_redirect"] is True
    assert probe["session_secure"] is True
    assert probe["csrf_secure"] is True
    assert probe["hsts"] >= 31_536_000
    # the README's proxy on the same host: its X-Forwarded-For is believed
    assert probe["trusted_proxies"] == ["127.0.0.1", "::1"]


def test_check_deploy_is_clean_in_production():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="mahjong.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_warns_in_the_embedded_default():
    # The same check does fire without the production switch (so the clean run
    # above means something).
    result = _manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout  # no HTTPS redirect
    assert "security.W018" not in result.stderr + result.stdout  # DEBUG off
    debug = _manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="1")
    assert "security.W018" in debug.stderr + debug.stdout  # DEBUG on when asked


def test_production_without_a_secret_key_fails_clearly():
    result = _manage("check", DJANGO_PRODUCTION="1")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_games_celery_tasks_are_background_work_only():
    """The live tables' due times are the clock's rows (manage.py run_clock),
    not Celery jobs: games has one task, the review, whose result nobody reads."""
    from games import tasks
    from mahjong_site.celery import app

    app.loader.import_default_modules()
    names = sorted(n for n in app.tasks if n.startswith("games."))
    assert names == ["games.review_hand"]
    assert tasks.review_hand.ignore_result is True


def test_channel_layer_choice_between_the_two_redis_layers():
    url = "redis://127.0.0.1:6379/9"
    pubsub = _probe(REDIS_URL=url)
    core = _probe(REDIS_URL=url, CHANNEL_LAYER="core")
    assert core["channel_backend"] == "channels_redis.core.RedisChannelLayer"
    assert pubsub["channel_backend"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert pubsub["channel_hosts"] == core["channel_hosts"]
    assert pubsub["channel_prefix"] == core["channel_prefix"] == "mahjong"
    prefixed = _probe(REDIS_URL=url, CHANNEL_LAYER_PREFIX="site2")
    assert prefixed["channel_prefix"] == "site2"
    bad = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=_clean_env(REDIS_URL=url, CHANNEL_LAYER="carrier-pigeon"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "CHANNEL_LAYER" in bad.stderr
