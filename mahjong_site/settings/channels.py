"""Channels layer: in-memory for the embedded default, Redis when REDIS_URL is set."""

from .env import REDIS_URL, env

# CHANNEL_LAYER=pubsub selects channels-redis's Redis Pub/Sub layer (beta
# upstream) instead of the list-based core layer.
_LAYER_BACKENDS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
CHANNEL_LAYER: str = env.str(
    "CHANNEL_LAYER", default="core", validate=lambda v: v in _LAYER_BACKENDS
)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _LAYER_BACKENDS[CHANNEL_LAYER],
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
