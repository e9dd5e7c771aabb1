"""Writes for live play (services); reads are in games.selectors.

Views, consumers, tasks and commands call these and nothing else writes
tables, hands or their logs.
"""

from .play import (
    TableError,
    check_action,
    do_apply_action,
    do_seat_away,
    do_timeout,
    note_connect,
    note_disconnect,
    refusal_message,
    start_hand,
)
from .settlement import annul_hand, settle_hand
from .tables import (
    continue_match,
    create_friend_table,
    do_settle_timeout,
    do_table_request,
    join_friend_table,
    leave_table,
    open_table_of,
    play_bot,
    quick_match,
    regroup,
)

__all__ = [
    "TableError",
    "annul_hand",
    "check_action",
    "continue_match",
    "create_friend_table",
    "do_apply_action",
    "do_seat_away",
    "do_settle_timeout",
    "do_table_request",
    "do_timeout",
    "join_friend_table",
    "leave_table",
    "note_connect",
    "note_disconnect",
    "open_table_of",
    "play_bot",
    "quick_match",
    "refusal_message",
    "regroup",
    "settle_hand",
    "start_hand",
]
