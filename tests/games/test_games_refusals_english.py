"""Table refusals speak the reader's language (issue 11 §6).

A tester found 17 of the 22 table refusal messages in Chinese in English:
f-strings (never in the catalogue) and msgids missing from django.po.  A
:class:`TableError` now carries a gettext msgid and its values, translated
when it is read (the consumer and the views read it in the player's
language), not when the service raised it.
"""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from games.models import Room, Table
from games.services import (
    TableError,
    create_friend_table,
    join_friend_table,
    leave_table,
    play_bot,
    quick_match,
)
from games.services.tables import do_table_request
from tests.games.conftest import make_player

CJK = re.compile(r"[\u3400-\u9fff]")


def _refusal(call) -> TableError:
    with pytest.raises(TableError) as info:
        call()
    return info.value


@pytest.mark.django_db
def test_a_refusal_is_translated_when_read_not_when_raised(room):
    poor = make_player("poor", coins=room.min_balance - 1)
    with translation.override("zh-hans"):
        exc = _refusal(lambda: quick_match(poor, room))
        assert str(exc) == "新手场需要至少 200 游戏币，你现在有 199"
    with translation.override("en"):
        assert str(exc) == "Beginners' room needs at least 200 coins; you have 199"


@pytest.mark.django_db
def test_every_table_refusal_reads_english_in_english(room, alice, bob):
    closed = Room.objects.get(name="高级场")
    Room.objects.filter(pk=closed.pk).update(active=False)
    closed.refresh_from_db()
    carol = make_player("carol")
    playing = quick_match(alice, room)
    playing = quick_match(bob, room)
    assert playing.status == Table.Status.PLAYING
    friend = create_friend_table(carol, room)
    dave = make_player("dave")
    join_friend_table(dave, friend.invite_token)
    erin = make_player("erin")
    refusals = {
        "closed room": lambda: quick_match(carol, closed),
        "bot level": lambda: play_bot(erin, room, "grandmaster"),
        "invite": lambda: join_friend_table(erin, "no-such-token"),
        "table full": lambda: join_friend_table(erin, friend.invite_token),
        "hand in play": lambda: create_friend_table(alice, room),
        "leave while playing": lambda: leave_table(alice, playing),
        "not seated": lambda: do_table_request(playing.pk, erin, "continue"),
        "not between hands": lambda: do_table_request(playing.pk, alice, "continue"),
        "bot now": lambda: do_table_request(playing.pk, alice, "accept_bot"),
        "unknown": lambda: do_table_request(friend.pk, carol, "fly"),
        "no table": lambda: do_table_request(10**9, alice, "continue"),
    }
    seen = {}
    for name, call in refusals.items():
        exc = _refusal(call)
        with translation.override("en"):
            english = str(exc)
        with translation.override("zh-hans"):
            chinese = str(exc)
        assert english and not CJK.search(english), (name, english)
        assert CJK.search(chinese), (name, chinese)
        seen[name] = english
    assert seen["closed room"].endswith(" room is closed for now")
    assert seen["bot level"] == "There is no bot level grandmaster"
    assert seen["leave while playing"] == "This hand is not over yet"
    assert seen["unknown"] == "Continue or regroup only after a hand ends"


@pytest.mark.django_db
def test_the_htmx_refusal_toast_is_english(client, room, alice, bob):
    quick_match(alice, room)
    table = quick_match(bob, room)
    client.force_login(alice)
    client.cookies["django_language"] = "en"
    # the request activates English in this thread: give the language back
    with translation.override(translation.get_language()):
        response = client.post(f"/table/{table.pk}/leave/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "This hand is not over yet" in body
    assert not CJK.search(body)


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_over_the_websocket_is_english():
    from asgiref.sync import sync_to_async

    from tests.games.test_games_consumer import _pair, _toast_text, drain, ws

    a, _b, table = await _pair()
    ca, ok, _ = await ws(a, table.pk, cookies="; django_language=en")
    assert ok
    await drain(ca)
    await ca.send_to(text_data=json.dumps({"action": "leave"}))
    assert _toast_text((await drain(ca))[-1]) == "This hand is not over yet"
    await ca.disconnect()
    stray = await sync_to_async(make_player)("stray")
    assert stray.pk


def test_engine_refusals_are_translated_by_their_type():
    """The engine (no Django) raises typed errors; the table maps each type to
    a translated sentence and never shows the engine's own detail."""
    from games.engine import errors
    from games.services.play import BAD_SEQ, RequestError, refusal_message

    kinds = [
        cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.ActionError)
    ]
    assert len(kinds) >= 7
    for cls in kinds:
        exc = cls("现在不能杠 5m")
        with translation.override("en"):
            english = refusal_message(exc)
        assert english and not CJK.search(english), (cls.__name__, english)
    with translation.override("en"):
        assert refusal_message(RequestError("序号 seq", BAD_SEQ)) == str(BAD_SEQ)
        assert not CJK.search(str(BAD_SEQ))
