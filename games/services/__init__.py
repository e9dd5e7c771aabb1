"""Writes for live play (services); reads are in games.selectors.

Views, consumers, tasks and commands call these and nothing else writes
tables, hands or their logs.  One concept per module, each service named
``<entity>_<verb>`` and taking keywords only:

- tables: sitting down (快速开始, 人机练习, 好友房), 继续 / 分组, leaving;
- deal: dealing a hand; act: a seated player's move (a typed
  :class:`~games.services.moves.Move`, read from the browser by
  games.protocol); timers: a timed-out prompt, paced automated play;
  seats: connect, disconnect, the grace (its rule: grace), 托管;
- auto: the bot's and 托管's choices; progress: storing what a move did;
- settlement (hand_settle, hand_annul, hand_book), reversal (hand_reverse,
  hand_restore), unplayable, resume, review: after and around hands;
- locking (the table row lock), errors (:class:`TableError`).
"""

from .act import table_act
from .deal import table_deal
from .errors import TableError
from .moves import Move
from .seats import seat_away, seat_connect, seat_disconnect, seat_force_auto
from .settlement import hand_annul, hand_settle
from .tables import (
    table_accept_bot,
    table_continue,
    table_create_friend,
    table_join_friend,
    table_leave,
    table_open_of,
    table_play_bot,
    table_quick_match,
    table_regroup,
    table_settle_timeout,
)
from .timers import table_auto_step, table_timeout

__all__ = [
    "Move",
    "TableError",
    "hand_annul",
    "hand_settle",
    "seat_away",
    "seat_connect",
    "seat_disconnect",
    "seat_force_auto",
    "table_accept_bot",
    "table_act",
    "table_auto_step",
    "table_continue",
    "table_create_friend",
    "table_deal",
    "table_join_friend",
    "table_leave",
    "table_open_of",
    "table_play_bot",
    "table_quick_match",
    "table_regroup",
    "table_settle_timeout",
    "table_timeout",
]
