"""Drive whole hands through the services, as browsers would."""

from __future__ import annotations

import random
from typing import Any

from games.engine.actions import Action
from games.engine.bots.default import choose
from games.models import Table
from games.services import do_apply_action
from games.services.hands import load_hand


def payload_of(action: Action) -> dict[str, Any]:
    """The browser JSON for an engine action (``action`` + fields)."""
    data = action.to_json()
    data["action"] = data.pop("kind")
    data.pop("seat")
    return data


def next_move(table: Table, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """The seat that must act and the payload a simple player would send."""
    table.refresh_from_db()
    if table.hand is None or table.status != Table.Status.PLAYING:
        return None
    hand = load_hand(table.hand, seq=table.seq)
    for seat in (0, 1):
        if hand.state.pending[seat] and table.is_human(seat):
            if rng.random() < 0.15:
                legal = [a for a in hand.legal_actions(seat) if a.kind != "auto_play"]
                action = rng.choice(legal)
            else:
                action = choose(hand, seat)
            assert action is not None
            return seat, payload_of(action)
    return None


def play_out(table: Table, users: dict[int, Any], *, seed: int = 0, limit=2000):
    """Play the current hand to its end; return the number of actions sent."""
    rng = random.Random(seed)
    n = 0
    while n < limit:
        move = next_move(table, rng)
        if move is None:
            break
        seat, payload = move
        do_apply_action(table.pk, users[seat], payload)
        n += 1
    table.refresh_from_db()
    return n
