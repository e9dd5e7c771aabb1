"""Celery: eager in the embedded default; Redis broker and results with REDIS_URL.

Read by ``mahjong_site/celery.py`` through ``config_from_object(namespace="CELERY")``.
"""

from .app import MAHJONG_ESCALATE_EVERY, MAHJONG_SIGNALS_EVERY
from .env import REDIS_URL, env

CELERY_BROKER_URL: str = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND: str = REDIS_URL or "cache+memory://"
# Without a broker the tasks run in the calling process, at once.
CELERY_TASK_ALWAYS_EAGER: bool = env.bool(
    "CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL
)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Entries beat copies into its database schedule at start (django-celery-beat).
# The live tables' due times are not here: ``manage.py run_clock`` runs them
# (games.services.clock).
CELERY_BEAT_SCHEDULE = {
    # Moderation (issue 14): cases undecided after 24 hours are escalated
    # (checked every 15 minutes); automatic signals open cases (hourly).
    "moderation-escalate-overdue": {
        "task": "moderation.escalate_overdue",
        "schedule": MAHJONG_ESCALATE_EVERY,
        "options": {"expires": MAHJONG_ESCALATE_EVERY},
    },
    "moderation-scan-signals": {
        "task": "moderation.scan_signals",
        "schedule": MAHJONG_SIGNALS_EVERY,
        "options": {"expires": MAHJONG_SIGNALS_EVERY},
    },
}
# Apps' tasks.py are autodiscovered; the project package is not an app.
CELERY_IMPORTS = ["mahjong_site.tasks"]
# Celery's Django fix-up closes the database connection before and after every
# task unless this is set; a worker then spent about a third of its CPU
# reconnecting (benchmarks/bench_ws.py, py-spy).  Reused for 100 tasks, then
# closed and opened again.
CELERY_DB_REUSE_MAX = 100
