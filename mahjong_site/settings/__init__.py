"""Settings entry point (``DJANGO_SETTINGS_MODULE=mahjong_site.settings``).

The base module reads the environment once; each integration keeps its own small
module. Every value comes from the environment, so the same code runs the embedded
default (nothing set) and a real deployment (``DATABASE_URL``, ``REDIS_URL``,
``DJANGO_PRODUCTION=1``, ...). See README.md for the variables.
"""

from .allauth import *  # noqa: F403
from .app import *  # noqa: F403
from .base import *  # noqa: F403
from .celery import *  # noqa: F403
from .channels import *  # noqa: F403
