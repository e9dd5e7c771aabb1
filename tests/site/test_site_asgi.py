"""The ASGI application: HTTP through Django, websockets routed through Channels."""

import pytest
from channels.layers import get_channel_layer
from channels.routing import ProtocolTypeRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator

from mahjong_site.asgi import application


def test_application_routes_http_and_websocket():
    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


@pytest.mark.django_db(transaction=True)
async def test_http_request_through_asgi():
    communicator = HttpCommunicator(
        application, "GET", "/healthz", headers=[(b"host", b"testserver")]
    )
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 200
    assert b'"ok": true' in response["body"]


async def test_channel_layer_round_trip_and_group():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "table.event", "seq": 7, "tile": "5m"})
    assert await layer.receive(channel) == {
        "type": "table.event",
        "seq": 7,
        "tile": "5m",
    }
    await layer.group_add("table-test", channel)
    await layer.group_send("table-test", {"type": "table.event", "seq": 8})
    assert (await layer.receive(channel))["seq"] == 8
    await layer.group_discard("table-test", channel)


async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application,
        "/ws/table/1/",
        headers=[(b"host", b"127.0.0.1:8000"), (b"origin", b"https://evil.example")],
    )
    connected, _code = await communicator.connect(timeout=5)
    assert connected is False
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_websocket_to_an_unknown_path_is_refused_cleanly(caplog):
    """Tester's fault: /ws/nope/ with a good Origin and a session raised
    ``ValueError: No route found`` (HTTP 500 and a traceback in the log).  A
    catch-all route refuses the handshake instead, nothing logged as an error."""
    from asgiref.sync import sync_to_async
    from django.test import Client

    from tests.games.conftest import make_player

    def _session() -> str:
        client = Client()
        client.force_login(make_player("wanderer"))
        return client.cookies["sessionid"].value

    key = await sync_to_async(_session)()
    for path in ("/ws/nope/", "/ws/table/abc/", "/elsewhere"):
        communicator = WebsocketCommunicator(
            application,
            path,
            headers=[
                (b"host", b"127.0.0.1:8000"),
                (b"origin", b"http://127.0.0.1:8000"),
                (b"cookie", f"sessionid={key}".encode()),
            ],
        )
        connected, _code = await communicator.connect(timeout=5)
        assert connected is False, path
        await communicator.disconnect()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
