"""games.consumer_dispatch: the table consumer's dispatch without Channels'
per-message connection hop, pinned to the Channels dispatch it copies."""

from __future__ import annotations

import hashlib
import inspect

import pytest
from channels.consumer import AsyncConsumer

from games import consumers
from games.consumer_dispatch import DispatchWithoutConnectionHop
from games.consumers import TableConsumer

# sha256 of AsyncConsumer.dispatch's source in channels 4.3.2, which
# DispatchWithoutConnectionHop copies minus ``await aclose_old_connections()``.
# When an upgrade changes it, read the new body, carry any change into
# games/consumer_dispatch.py (or drop the mixin if the hop is gone), then pin
# the new hash.
CHANNELS_DISPATCH_SHA256 = (
    "39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520"
)


def test_channels_dispatch_is_the_one_copied():
    source = inspect.getsource(AsyncConsumer.dispatch)
    assert "await aclose_old_connections()" in source
    assert hashlib.sha256(source.encode()).hexdigest() == CHANNELS_DISPATCH_SHA256


def test_the_table_consumer_dispatches_without_the_hop():
    assert TableConsumer.dispatch is DispatchWithoutConnectionHop.dispatch
    assert "aclose_old_connections" not in inspect.getsource(
        DispatchWithoutConnectionHop
    ).replace("``aclose_old_connections()``", "")


def test_every_database_call_of_the_consumer_closes_old_connections_itself():
    """The hop may go only because each call does it: _pooled wraps in
    channels.db.database_sync_to_async, whose thread handler closes old
    connections before and after the call."""
    from channels.db import DatabaseSyncToAsync

    assert isinstance(consumers._pooled(lambda: None), DatabaseSyncToAsync)
    source = inspect.getsource(consumers)
    # no other way to the database from the consumer module
    assert "sync_to_async(func, thread_sensitive=False)" in source  # _cached only
    assert source.count("database_sync_to_async(") == 1
    assert source.count("sync_to_async(") == 2


class _Probe(DispatchWithoutConnectionHop):
    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []

    async def table_update(self, message: dict[str, str]) -> None:
        self.seen.append(message)


async def test_dispatch_calls_the_named_handler_and_refuses_an_unknown_type():
    probe = _Probe()
    await probe.dispatch({"type": "table.update", "seq": "3"})
    assert probe.seen == [{"type": "table.update", "seq": "3"}]
    with pytest.raises(ValueError, match="No handler for message type table.gone"):
        await probe.dispatch({"type": "table.gone"})
    assert len(probe.seen) == 1
