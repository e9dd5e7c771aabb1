"""The browser's move messages are read in the interface layer (games.protocol)
into typed moves; the services take only those (issue 15)."""

from __future__ import annotations

import pytest

from games.engine.errors import InvalidActionError
from games.protocol import (
    BAD_SEQ,
    BAD_TILE,
    UNKNOWN_ACTION,
    RequestError,
    parse_move,
)
from games.rules.tiles import Tile
from games.services.moves import Move


def test_aliases_and_form_strings_become_typed_moves():
    assert parse_move({"action": "hu", "seq": "7"}) == Move(kind="win", seq=7)
    assert parse_move({"action": "ting", "seq": 3, "tile": "5m"}) == Move(
        kind="ready", seq=3, tile=Tile.parse("5m")
    )
    assert parse_move({"action": "tuoguan", "seq": 1}) == Move(
        kind="auto_play", seq=1, on=None
    )
    assert parse_move({"action": "auto", "seq": 1, "on": "false"}).on is False
    assert parse_move({"action": "chi", "seq": 2, "tiles": "345m"}).tiles == tuple(
        Tile.parse(t) for t in ("3m", "4m", "5m")
    )
    assert parse_move({"action": "open", "seq": 0}) == Move(
        kind="pre_deal", seq=0, open_hand=True, double=False
    )
    double = parse_move({"action": "double", "seq": 0, "open_hand": "1"})
    assert (double.kind, double.double, double.open_hand) == ("double", True, True)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"action": "pass"}, BAD_SEQ),
        ({"action": "pass", "seq": True}, BAD_SEQ),
        ({"action": "pass", "seq": 1e999}, BAD_SEQ),
        ({"action": "discard", "seq": 1, "tile": "9x"}, BAD_TILE),
        ({"action": "discard", "seq": 1, "tile": 5}, BAD_TILE),
        ({"action": "chi", "seq": 1, "tiles": "34"}, BAD_TILE),
        ({"action": "fly", "seq": 1}, UNKNOWN_ACTION),
        ({"action": "timeout", "seq": 1}, UNKNOWN_ACTION),
    ],
)
def test_malformed_requests_carry_the_players_message(payload, message):
    with pytest.raises(RequestError) as info:
        parse_move(payload)
    assert info.value.player_message is message


@pytest.mark.parametrize(
    "payload",
    [[1, 2], {"seq": 1}, {"action": ""}, {"action": "auto", "seq": 1, "on": "yes"}],
)
def test_other_malformed_requests_are_invalid(payload):
    with pytest.raises(InvalidActionError):
        parse_move(payload)


def test_a_move_knows_only_the_kinds_a_seat_may_ask_for():
    with pytest.raises(InvalidActionError):
        Move(kind="timeout", seq=1)  # type: ignore[arg-type]
