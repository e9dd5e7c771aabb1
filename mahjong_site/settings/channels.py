"""Channels layer: in-memory for the embedded default, Redis when REDIS_URL is set."""

from .env import REDIS_URL

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "mahjong"},
        }
    }
else:
    # Single process only (runserver); several Daphne processes need Redis.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
