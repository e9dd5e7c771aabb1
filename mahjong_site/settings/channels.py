"""Channels layer: in-memory for the embedded default, Redis when REDIS_URL is set."""

from .env import REDIS_URL

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 times reads out after 5 s by default, the same as
                # channels-redis's blocking receive (BZPOPMIN 5 s): an idle
                # consumer then crashed with "Timeout reading from ...".
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                "prefix": "mahjong",
            },
        }
    }
else:
    # Single process only (runserver); several Daphne processes need Redis.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
