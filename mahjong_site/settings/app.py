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

#: Hands a player needs in a period to be on the win-rate board (胜率榜).
MAHJONG_BOARD_MIN_HANDS: int = env.int("MAHJONG_BOARD_MIN_HANDS", default=10)

#: Days of nightly board snapshots kept (older dates are deleted by the run).
MAHJONG_SNAPSHOT_DAYS: int = env.int("MAHJONG_SNAPSHOT_DAYS", default=60)

# --- Live tables (games.services) ------------------------------------------------
#: Seconds a disconnected seat keeps control before 托管 takes over (seed 000 异常处理).
MAHJONG_DISCONNECT_GRACE: float = env.float("MAHJONG_DISCONNECT_GRACE", default=20.0)

#: Seconds a 快速开始 player waits for a human before a bot is offered.
MAHJONG_BOT_OFFER_AFTER: float = env.float("MAHJONG_BOT_OFFER_AFTER", default=20.0)

#: Bot level of offered and 人机练习 bots unless the player picks one.
MAHJONG_DEFAULT_BOT_LEVEL: str = env.str("MAHJONG_DEFAULT_BOT_LEVEL", default="normal")

#: Random pause (seconds, uniform in [min, max]) before the discarder sees the
#: opponent draw when the opponent had no claim, so the pause does not tell
#: whether a claim was possible.
MAHJONG_CLAIM_JITTER_MIN: float = env.float("MAHJONG_CLAIM_JITTER_MIN", default=0.4)
MAHJONG_CLAIM_JITTER_MAX: float = env.float("MAHJONG_CLAIM_JITTER_MAX", default=1.6)

#: Settlement countdown (seconds) before idle players go back to the lobby;
#: 0 means the rule set's own timer (seed 000: 15 s).
MAHJONG_SETTLEMENT_SECONDS: float = env.float("MAHJONG_SETTLEMENT_SECONDS", default=0)

#: Seconds between rounds of automated play (托管 or 报听 against the bot, two
#: seats in 托管), so players see each move; 0 plays them out at once.
MAHJONG_AUTO_PACE: float = env.float("MAHJONG_AUTO_PACE", default=1.0)

#: Seconds added to a deadline before its timeout job runs (clock skew margin).
MAHJONG_DEADLINE_SLACK: float = env.float("MAHJONG_DEADLINE_SLACK", default=0.25)

#: How delayed jobs (deadlines, settlement countdown, disconnect grace) run:
#: "auto" ("sweep" with a Celery broker; a timer thread in the web process
#: when Celery is eager, i.e. the embedded default), "sweep" (deadline
#: timeouts are found by ``games.sweep_deadlines``, which Celery beat runs
#: every MAHJONG_SWEEP_EVERY seconds; the other jobs are Celery countdown
#: jobs), "celery" (every job, deadlines too, a Celery countdown job),
#: "thread" or "none" (nothing scheduled; tests call the tasks themselves).
MAHJONG_SCHEDULER: str = env.str(
    "MAHJONG_SCHEDULER",
    default="auto",
    validate=lambda v: v in {"auto", "sweep", "celery", "thread", "none"},
)

#: Seconds between two deadline sweeps (Celery beat, MAHJONG_SCHEDULER=sweep):
#: a timeout is applied at most this long (plus MAHJONG_DEADLINE_SLACK) after
#: its deadline.
MAHJONG_SWEEP_EVERY: float = env.float("MAHJONG_SWEEP_EVERY", default=1.0)
