"""The one environment reader shared by every settings module."""

from pathlib import Path

from environs import Env

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = Env()
# A local ``.env`` file is optional and never committed; real environment wins.
env.read_env(BASE_DIR / ".env", recurse=False)

#: Redis URL for channels, Celery and the cache; empty means the embedded default.
REDIS_URL: str = env.str("REDIS_URL", default="")
#: The production switch: DEBUG off, secure cookies, HSTS, HTTPS redirect.
PRODUCTION: bool = env.bool("DJANGO_PRODUCTION", default=False)
