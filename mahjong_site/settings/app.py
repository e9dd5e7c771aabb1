"""App tunables for 二人麻将, in one place.

App code reads them at call time via ``django.conf.settings``.

Each value may be overridden by the environment variable of the same name.
"""

from .env import env

#: 游戏币 granted to every new profile (coins, an integer number of units).
MAHJONG_STARTING_COINS: int = env.int("MAHJONG_STARTING_COINS", default=10_000)

#: 实力积分 a new profile starts with (rating points; 0 is the lowest level of
#: every seeded scheme).
MAHJONG_STARTING_POINTS: int = env.int("MAHJONG_STARTING_POINTS", default=0)

#: Messages shown per page in the inbox (站内信).
MAHJONG_INBOX_PAGE_SIZE: int = env.int("MAHJONG_INBOX_PAGE_SIZE", default=20)

#: Rows shown per page on the leaderboard (排行榜).
MAHJONG_LEADERBOARD_PAGE_SIZE: int = env.int(
    "MAHJONG_LEADERBOARD_PAGE_SIZE", default=50
)
