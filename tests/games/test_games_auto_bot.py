"""The table's bot and 托管 choose from the hand's state (``Bot.choose_in``,
issue 15), not from a rendered view; the choice is the view path's
(tests/engine/test_bots_observation.py holds the two equal)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from games.engine.hand import Hand
from games.services.auto import run_auto


def _no_view(self: Hand, seat: int) -> dict[str, Any]:
    raise AssertionError("the bot rendered a view")


@pytest.mark.parametrize("human", [False, True])
def test_bot_and_tuoguan_moves_render_no_view(settings, monkeypatch, human) -> None:
    settings.MAHJONG_AUTO_PACE = 0
    hand = Hand.new("erren", now=0.0, seed="auto-bot", prompt_locked=True)
    for seat in (0, 1):
        hand.state.auto[seat] = human  # 托管 for the people, else two bots
    table = SimpleNamespace(
        is_human=lambda seat: human,
        bot_level="normal",
        closed_reason="",
        closed_seat=None,
    )
    monkeypatch.setattr(Hand, "view", _no_view)
    events = run_auto(table=table, hand=hand, now=0.0)
    assert hand.ended
    assert any(e.kind == "discard" for e in events)
