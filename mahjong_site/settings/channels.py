"""Channels layer: in-memory for the embedded default, Redis when REDIS_URL is set."""

from .env import REDIS_URL, env

# CHANNEL_LAYER picks the channels-redis layer: "pubsub" (default; Redis
# Pub/Sub, called beta upstream) or "core" (lists, sorted sets and Lua).  In
# benchmarks/bench_ws.py (100 tables, 2 Daphne processes) Pub/Sub halved the
# p50 latency and cut p99 from ~250 to ~150 ms with ~13 % less server CPU: no
# blocking pop per process, no Lua script per group send.  A frame lost while
# a process is cut off from Redis is not replayed by either layer the way a
# browser needs; the browser's reconnect gets the whole current frame.
_LAYER_BACKENDS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
CHANNEL_LAYER: str = env.str(
    "CHANNEL_LAYER", default="pubsub", validate=lambda v: v in _LAYER_BACKENDS
)

# Prefix of the layer's Redis keys and Pub/Sub channels.  Pub/Sub channels are
# shared by every database number of one Redis server, so two sites (or two
# test runs) on one server need different prefixes.
CHANNEL_LAYER_PREFIX: str = env.str("CHANNEL_LAYER_PREFIX", default="mahjong")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _LAYER_BACKENDS[CHANNEL_LAYER],
            "CONFIG": {
                # redis-py 8 times reads out after 5 s by default, the same as
                # channels-redis's blocking receive (BZPOPMIN 5 s): an idle
                # consumer then crashed with "Timeout reading from ...".
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                "prefix": CHANNEL_LAYER_PREFIX,
            },
        }
    }
else:
    # Single process only (runserver); several Daphne processes need Redis.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
