"""The whole-hand notation of the calculator and the example hands."""

from __future__ import annotations

import pytest

from games.rules.errors import InvalidHandError, NotationError, NotationProblem
from games.rules.hand_notation import format_hand, parse_hand
from games.rules.melds import MeldKind
from games.rules.tiles import parse_tiles


def test_concealed_tiles_keep_the_written_order_with_the_winning_tile_last():
    hand = parse_hand("1112345678999m5m")
    assert [str(t) for t in hand.concealed][-1] == "5m"
    assert hand.melds == () and hand.flowers == ()
    assert hand.tile_count == 14
    assert str(hand) == "1112345678999m5m"


def test_melds_kinds_claimed_tiles_and_flowers():
    hand = parse_hand("[123s][777z][1111m]*[99'99p]45m6m+1f5f")
    kinds = [m.kind for m in hand.melds]
    assert kinds == [
        MeldKind.CHI,
        MeldKind.PUNG,
        MeldKind.CONCEALED_KONG,
        MeldKind.KONG,
    ]
    chi, pung, ckong, kong = hand.melds
    assert str(chi.claimed) == "1s"  # unmarked chi: the lowest tile
    assert str(pung.claimed) == "7z"
    assert ckong.claimed is None
    assert str(kong.claimed) == "9p"
    assert [str(t) for t in hand.flowers] == ["1f", "5f"]
    assert hand.tile_count == 3 + 4 * 3


def test_a_marked_claimed_tile_round_trips():
    hand = parse_hand("[12'3s]11m")
    assert str(hand.melds[0].claimed) == "2s"
    assert str(hand) == "[12'3s]11m"
    assert parse_hand(str(hand)) == hand


def test_format_sorts_and_keeps_the_winning_tile_apart():
    tiles = parse_tiles("9m1m1m1m2m3m4m5m6m7m8m9m9m5m")
    assert format_hand([], tiles) == "1112345678999m5m"
    assert format_hand([], tiles[:13]) == "1112345678999m"


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("[12x3s]", 3),
        ("11m[", 3),
        ("11m]", 3),
        ("[0m]", 1),
        ("11m*", 3),
        ("11m'", 3),
        ("1m+1f+2f", 5),
        ("1q", 1),
        ("[[1m]]", 1),
        ("[]", 0),
        ("[1'2'3s]", 1),
        ("1m+1f[123m]", 5),
    ],
)
def test_malformed_notation_names_the_position(text, position):
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert err.value.position == position


@pytest.mark.parametrize(
    "text",
    ["[12m]", "[124m]", "[123z]", "[1234m]*", "[111m]*", "[1f2f3f]", "1f", "1m+2m"],
)
def test_brackets_that_are_not_melds_and_misplaced_flowers_are_invalid(text):
    with pytest.raises(InvalidHandError):
        parse_hand(text)


@pytest.mark.parametrize(
    ("text", "problem", "position"),
    [
        ("[123m", NotationProblem.UNCLOSED_BRACKET, 0),
        ("123m]", NotationProblem.STRAY_CLOSE, 4),
        ("[1[23]m]", NotationProblem.NESTED_BRACKETS, 2),
        ("[]123m", NotationProblem.EMPTY_MELD, 0),
        ("123m*", NotationProblem.MISPLACED_MARK, 4),
        ("12'3m", NotationProblem.MISPLACED_MARK, 2),
        ("123m+1f[123m]", NotationProblem.MELD_AFTER_FLOWERS, 7),
        ("123m+1f+2f", NotationProblem.SECOND_PLUS, 7),
        ("123x", NotationProblem.UNREADABLE, 3),
    ],
)
def test_notation_errors_name_their_problem(text, problem, position):
    """The calculator explains a fault from ``problem``, not the message."""
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert err.value.problem is problem
    assert err.value.position == position
