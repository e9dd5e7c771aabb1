"""A suspended player's websockets: closed at once, refused on reconnect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from moderation.models import Sanction
from moderation.services.sanctions import sanction_enforce
from tests.games.test_games_consumer import _pair, drain, ws

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def _suspend_and_enforce(user):
    now = timezone.now()
    sanction = Sanction.objects.create(
        user=user, kind="suspend", reason="外挂", ends=now + timedelta(days=1)
    )
    # the kick is sent on commit: outside a transaction, at once
    return sanction_enforce(sanction_id=sanction.pk)


async def test_enforcement_closes_the_player_s_sockets_and_refuses_new_ones():
    a, b, table = await _pair()
    ca, ok_a, _ = await ws(a, table.pk)
    cb, ok_b, _ = await ws(b, table.pk)
    assert ok_a and ok_b
    await drain(ca)
    await drain(cb)
    assert await _suspend_and_enforce(b) is True
    messages = []
    while True:
        out = await cb.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
        messages.append(out.get("text", ""))
    assert out["code"] == 4423
    assert any("暂停" in m and "外挂" in m for m in messages)
    # the opponent stays connected and sees the table go on (托管 for b)
    frames = await drain(ca, wait=0.6)
    assert frames and not any("websocket.close" in f for f in frames)
    # reconnecting is refused with the reason
    again, _, _ = await ws(b, table.pk)
    first = await again.receive_output(timeout=5)
    assert "暂停" in first.get("text", "")
    assert await again.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4423,
    }
    await ca.disconnect()
