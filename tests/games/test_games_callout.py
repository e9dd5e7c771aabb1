"""The call-out of a frame: the latest 吃/碰/杠/和/自摸 since the last discard.

games.presenters.events.callout reads the hand's log; the browser shows each id
once (static/js/table.js, tested in tests/browser/test_browser_callout.py).
"""

from __future__ import annotations

from games.engine.actions import ConcealedKong, Discard, Pung, Win
from games.presenters.events import callout
from games.rules.tiles import Tile
from tests.engine.helpers import stacked

T = Tile.parse


def test_a_pung_is_called_out_until_the_next_discard():
    hand = stacked("mcr", "5m1234567z1239m9p9s", "123m123p789s55m7z9p")
    assert callout(hand, 7, 0) is None
    hand.apply(Discard(0, hand.seq, T("5m")), now=1002.0)
    assert callout(hand, 7, 0) is None  # a discard is no call
    hand.apply(Pung(1, hand.seq), now=1003.0)
    pung_seq = next(e.seq for e in hand.events if e.kind == "pung")
    assert callout(hand, 7, 1) == {"id": f"7:{pung_seq}", "kind": "pung", "who": "me"}
    assert callout(hand, 7, 0) == {
        "id": f"7:{pung_seq}",
        "kind": "pung",
        "who": "opponent",
    }
    hand.apply(Discard(1, hand.seq, T("7z")), now=1004.0)
    assert callout(hand, 7, 0) is None


def test_a_concealed_kong_is_called_out_without_its_tile():
    hand = stacked("mcr", "1111m23456789p1z2z", "234m123p789s567s5m")
    hand.apply(ConcealedKong(0, hand.seq, T("1m")), now=1002.0)
    out = callout(hand, 3, 1)
    assert out is not None and out["kind"] == "kong" and out["who"] == "opponent"
    assert set(out) == {"id", "kind", "who"}


def test_wins_are_hu_or_zimo():
    # 花龙 + 单钓: the non-dealer wins on the dealer's 5m
    hand = stacked("mcr", "5m1234567z1239m9p9s", "123m456p789s234s5m")
    hand.apply(Discard(0, hand.seq, T("5m")), now=1002.0)
    hand.apply(Win(1, hand.seq), now=1003.0)
    assert callout(hand, 9, 0)["kind"] == "hu"
    assert callout(hand, 9, 1)["who"] == "me"
    # the dealer's own winning tile: 自摸
    dealer = stacked("mcr", "123m456p789s234s55m", "1234567z1239m9p9s")
    dealer.apply(Win(0, dealer.seq), now=1002.0)
    ended = dealer.events[-1]
    assert ended.kind == "hand_ended"
    assert callout(dealer, 9, 0) == {
        "id": f"9:{ended.seq}",
        "kind": "zimo",
        "who": "me",
    }
