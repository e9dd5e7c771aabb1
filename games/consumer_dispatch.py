"""Channels' message dispatch without its per-message database hop.

Channels 4.2+ ``AsyncConsumer.dispatch`` awaits
``channels.db.aclose_old_connections()`` before every handler: a hand-off to
the process's one sync thread to close stale database connections there.  Every
database call of our table consumer goes through
``channels.db.database_sync_to_async`` (``games.consumers._pooled``), which
closes old connections around the call in the thread that runs it, so the hop
closes nothing the consumer uses; yet every message of every table (pings,
moves, group updates) waits its turn on that one thread.

Measured on this machine (``benchmarks/bench_ws.py --tables 200 --server
table --runs 1 --seconds 60 --think 3 --daphnes 2``, three runs each, load
0.7–2): with the hop p99 80.7 / 191.4 / 81.2 ms and 13.5 / 13.4 / 12.4 ms of
Daphne CPU per move, without it p99 60.7 / 60.3 / 78.0 ms and 12.1 / 11.9 /
12.4 ms (issue 15).

This is the one place the project depends on the body of Channels' dispatch:
``tests/games/test_games_consumer_dispatch.py`` fails when an upgrade changes
``AsyncConsumer.dispatch``, so this copy is re-read then.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DispatchWithoutConnectionHop:
    """Mixin for an ``AsyncConsumer`` whose database work all runs through
    ``database_sync_to_async``: dispatch as Channels 4.3 does, minus the
    ``aclose_old_connections()`` hop."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler named by ``message["type"]``.

        Raises:
            ValueError: no handler for the message's type (as Channels).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
