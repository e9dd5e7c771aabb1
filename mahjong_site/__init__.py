"""Django project package for 二人麻将: settings, ASGI/WSGI entry points, Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
