"""The Celery application. Start a worker with ``celery -A mahjong_site worker``."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_process_init

from mahjong_site.process import tune_gc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

app = Celery("mahjong_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@worker_process_init.connect
def _tune_gc(**_: Any) -> None:
    """Tune the collector once the worker is set up (:func:`tune_gc`): in the
    main process before it forks its pool (``worker_init``, after Celery's
    Django fix-up has set Django up), and in each pool process, which runs
    the tasks (``worker_process_init``; also sent by the solo pool)."""
    tune_gc()
