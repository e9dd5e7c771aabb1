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

#: Hands shown per page in "我的对局" on the profile.
MAHJONG_MY_GAMES_PAGE_SIZE: int = env.int("MAHJONG_MY_GAMES_PAGE_SIZE", default=20)

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

#: Seconds a presence entry (games.presence: an open table websocket, the lobby
#: page) stays live after its last heartbeat; a closed tab, a sleeping device
#: or a dead process drops out of matchmaking and starts the disconnect grace
#: within this time (issue 11 §1: within ~15 s).
MAHJONG_PRESENCE_TTL: float = env.float("MAHJONG_PRESENCE_TTL", default=15.0)

#: Seconds between two heartbeats of an open table or lobby page (well below
#: MAHJONG_PRESENCE_TTL, so two lost heartbeats are tolerated).
MAHJONG_PRESENCE_BEAT: float = env.float("MAHJONG_PRESENCE_BEAT", default=5.0)

#: Heartbeats (``ping``) and ``sync`` requests one socket may send: a bucket
#: of MAHJONG_SYNC_BURST requests refilled at MAHJONG_SYNC_RATE per second
#: (issue 11 §5.8: 1,000 full frames in 8 s from one socket).
MAHJONG_SYNC_RATE: float = env.float("MAHJONG_SYNC_RATE", default=1.0)
MAHJONG_SYNC_BURST: int = env.int("MAHJONG_SYNC_BURST", default=5)

#: Seconds a 快速开始 player waits for a human before a bot is offered.
MAHJONG_BOT_OFFER_AFTER: float = env.float("MAHJONG_BOT_OFFER_AFTER", default=20.0)

#: Bot level of offered and 人机练习 bots unless the player picks one.
MAHJONG_DEFAULT_BOT_LEVEL: str = env.str("MAHJONG_DEFAULT_BOT_LEVEL", default="normal")

#: Settlement countdown (seconds) before idle players go back to the lobby;
#: 0 means the rule set's own timer (seed 000: 15 s).
MAHJONG_SETTLEMENT_SECONDS: float = env.float("MAHJONG_SETTLEMENT_SECONDS", default=0)

#: Seconds between rounds of automated play (托管 or 报听 against the bot, two
#: seats in 托管), so players see each move; 0 plays them out at once.
MAHJONG_AUTO_PACE: float = env.float("MAHJONG_AUTO_PACE", default=1.0)

#: Seconds added to a deadline before its timeout job runs (clock skew margin).
MAHJONG_DEADLINE_SLACK: float = env.float("MAHJONG_DEADLINE_SLACK", default=0.25)

#: Where the one clock's loop runs (games.services.clock: every due time of
#: the live tables — turn and claim timeouts, paced 托管, the disconnect
#: grace, the settlement countdown, the bot offer — is a row, and one loop
#: runs them): "thread", a daemon thread of the web process (the default with
#: SQLite, the embedded default: one process); "command", ``manage.py
#: run_clock`` in its own process(es) (the default with PostgreSQL: any number
#: may run, each row is run once), the web processes only write rows.
MAHJONG_CLOCK: str = env.str(
    "MAHJONG_CLOCK",
    default=(
        "thread"
        if env.str("DATABASE_URL", default="sqlite:").startswith("sqlite:")
        else "command"
    ),
    validate=lambda v: v in {"thread", "command"},
)

#: Seconds the clock's loop sleeps at most between two looks at the due rows
#: (rows written by another process are seen within this; its own process's
#: rows wake the thread at once): a timeout is applied at most this long (plus
#: MAHJONG_DEADLINE_SLACK) after its deadline.
MAHJONG_CLOCK_TICK: float = env.float("MAHJONG_CLOCK_TICK", default=0.25)

# --- Moderation (moderation/, issue 14) -------------------------------------------
#: Reports one player may file per 24 hours (a repeat of their own open report
#: counts too).
MAHJONG_REPORTS_PER_DAY: int = env.int("MAHJONG_REPORTS_PER_DAY", default=10)

#: Hours during which a new report against the same player joins their open
#: case even when its category differs (one case per suspect and category
#: otherwise, as lichess).
MAHJONG_REPORT_MERGE_HOURS: int = env.int("MAHJONG_REPORT_MERGE_HOURS", default=24)

#: Recent hands against the reporter attached to a report from a player page.
MAHJONG_REPORT_PLAYER_HANDS: int = env.int("MAHJONG_REPORT_PLAYER_HANDS", default=20)

#: Hours within which a case must be decided before it is escalated (seed 000:
#: "相关部门24小时内处理").
MAHJONG_CASE_ESCALATE_HOURS: float = env.float(
    "MAHJONG_CASE_ESCALATE_HOURS", default=24.0
)

#: Seconds between two escalation checks (Celery beat; the issue asks for 15 min).
MAHJONG_ESCALATE_EVERY: float = env.float("MAHJONG_ESCALATE_EVERY", default=900.0)

#: Seconds between two scans for automatic signals (win trading, timing).
MAHJONG_SIGNALS_EVERY: float = env.float("MAHJONG_SIGNALS_EVERY", default=3600.0)

#: Minutes an inquiry keeps a case locked to its moderator.
MAHJONG_INQUIRY_MINUTES: int = env.int("MAHJONG_INQUIRY_MINUTES", default=120)

#: Hands of a player's history used as their own baseline in the evidence.
MAHJONG_EVIDENCE_BASELINE_HANDS: int = env.int(
    "MAHJONG_EVIDENCE_BASELINE_HANDS", default=100
)

#: Recent hands of other players sampled for the site's decision-time baseline.
MAHJONG_EVIDENCE_SITE_HANDS: int = env.int("MAHJONG_EVIDENCE_SITE_HANDS", default=200)

#: Win trading (automatic signal): over the last MAHJONG_WINTRADE_DAYS days, at
#: least MAHJONG_WINTRADE_MIN_HANDS settled hands between the same two players,
#: one of them won at least MAHJONG_WINTRADE_MIN_SHARE of the decided ones and
#: received at least MAHJONG_WINTRADE_MIN_COINS 游戏币 net from the other.
MAHJONG_WINTRADE_DAYS: int = env.int("MAHJONG_WINTRADE_DAYS", default=30)
MAHJONG_WINTRADE_MIN_HANDS: int = env.int("MAHJONG_WINTRADE_MIN_HANDS", default=20)
MAHJONG_WINTRADE_MIN_SHARE: float = env.float(
    "MAHJONG_WINTRADE_MIN_SHARE", default=0.85
)
MAHJONG_WINTRADE_MIN_COINS: int = env.int("MAHJONG_WINTRADE_MIN_COINS", default=1000)

#: Decision-time / bot-agreement signals: the last MAHJONG_OUTLIER_RECENT_HANDS
#: hands against the player's earlier ones (at least MAHJONG_OUTLIER_MIN_BASELINE
#: hands); a case opens when the robust z-score reaches MAHJONG_OUTLIER_Z.
MAHJONG_OUTLIER_RECENT_HANDS: int = env.int("MAHJONG_OUTLIER_RECENT_HANDS", default=10)
MAHJONG_OUTLIER_MIN_BASELINE: int = env.int("MAHJONG_OUTLIER_MIN_BASELINE", default=30)
MAHJONG_OUTLIER_Z: float = env.float("MAHJONG_OUTLIER_Z", default=6.0)

#: Play bans for abandoning (lichess): among a player's last
#: MAHJONG_PLAYBAN_WINDOW non-practice hands since their last play ban, at least
#: MAHJONG_PLAYBAN_ABANDONS ended by 托管 after a disconnect or by leaving give a
#: play ban; its length is the n-th step of MAHJONG_PLAYBAN_STEPS (seconds,
#: comma-separated; the last step is the cap), n counting the player's play bans
#: of the last MAHJONG_PLAYBAN_MEMORY_DAYS days.
MAHJONG_PLAYBAN_WINDOW: int = env.int("MAHJONG_PLAYBAN_WINDOW", default=10)
MAHJONG_PLAYBAN_ABANDONS: int = env.int("MAHJONG_PLAYBAN_ABANDONS", default=3)
MAHJONG_PLAYBAN_STEPS: list[int] = env.list(
    "MAHJONG_PLAYBAN_STEPS", default=[600, 3600, 86400, 259200], subcast=int
)
MAHJONG_PLAYBAN_MEMORY_DAYS: int = env.int("MAHJONG_PLAYBAN_MEMORY_DAYS", default=30)
