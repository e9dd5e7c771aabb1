"""The Celery application. Start a worker with ``celery -A mahjong_site worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

app = Celery("mahjong_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
