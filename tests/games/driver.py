"""Drive whole hands through the services, as browsers would."""

from __future__ import annotations

import random
import time
from typing import Any

from games.engine.actions import Action
from games.engine.bots.default import choose
from games.models import Table
from games.protocol import parse_move
from games.services import table_act
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


def unveiled_at(table: Table, seat: int) -> float:
    """Now, or the end of a 加杠's ROB veil that hides the table from ``seat``.

    The veil (issue 11 §5.2) shows the kong's maker the table as it was until
    a fixed time, whatever the opponent did; a browser acts on the frame that
    arrives then, so the driver acts at that moment too (else its move,
    numbered from the real hand, is ahead of what the seat was shown).
    """
    now = time.time()
    veil = table.veil or {}
    if veil.get("kind") == "rob" and veil.get("seat") == seat and veil.get("until"):
        now = max(now, float(veil["until"]))
    return now


def apply_move(table: Table, user: Any, seat: int, payload: dict[str, Any]) -> Any:
    """Send ``payload`` for ``seat`` as its browser would: at once, or when a
    加杠's ROB veil that hides the table from the seat lifts (``unveiled_at``).
    ``table`` must be fresh (``next_move`` refreshes it).  Returns what
    ``table_act`` returns."""
    return table_act(
        user=user,
        table_id=table.pk,
        move=parse_move(payload),
        now=unveiled_at(table, seat),
    )


def play_out(table: Table, users: dict[int, Any], *, seed: int = 0, limit=2000):
    """Play the current hand to its end; return the number of actions sent."""
    rng = random.Random(seed)
    n = 0
    while n < limit:
        move = next_move(table, rng)
        if move is None:
            break
        seat, payload = move
        apply_move(table, users[seat], seat, payload)
        n += 1
    table.refresh_from_db()
    return n


def live_hand(user: Any, room: Any, *, tries: int = 20) -> tuple[Table, Any]:
    """A bot table whose hand is still being played after a few moves of
    ``user`` (random deals can end a hand at once); returns (table, hand)."""
    from games.models import HandRecord
    from games.services import table_play_bot

    for _ in range(tries):
        table = table_play_bot(user=user, room=room, level="easy")
        play_out(table, {0: user}, seed=5, limit=4)
        table.refresh_from_db()
        if table.hand is not None and table.hand.status == HandRecord.Status.LIVE:
            return table, table.hand
    raise AssertionError(f"every hand ended within 4 moves in {tries} tries")


def stored_hand(
    user: Any, room: Any, *, seed: str, shuffle: int, watch: Any = None
) -> Any:
    """A finished practice hand stored as the site stores one, played by two
    engine bots with the wall of shuffle ``shuffle`` (1: as hands stored
    before the documented shuffle).  ``watch(hand)``, if given, is called
    after every move (the hand as the live table then shows it).  Returns
    its ``HandRecord``."""
    from datetime import UTC, datetime

    from games.engine.bots import make_bot
    from games.engine.hand import Hand
    from games.models import HandEvent, HandRecord, Table
    from games.services.hands import event_to_row

    hand = Hand.new(room.ruleset, now=1.0e9, seed=seed, shuffle=shuffle)
    bots = [make_bot("normal", random.Random(1)), make_bot("easy", random.Random(2))]
    clock = 1.0e9
    while not hand.ended:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        clock += 2.0
        hand.apply(bots[seat].choose(hand.view(seat), hand.legal_actions(seat)), clock)
        if watch is not None:
            watch(hand)
    table = Table.objects.create(
        room=room, kind="bot", seat0=user, bot_level="easy", status="closed"
    )
    result = dict(hand.state.result or {})
    result["hands"] = [[str(t) for t in hand.tiles_of(i)] for i in (0, 1)]
    record = HandRecord.objects.create(
        table=table,
        seat0=user,
        ruleset=room.ruleset,
        stake=room.stake,
        practice=True,
        commitment=hand.state.commitment,
        seed=seed,
        secret_seed=seed,
        status=HandRecord.Status.ENDED,
        settled=True,
        result=result,
        settlement=hand.settlement.to_json() if hand.settlement else None,
        ended=datetime.fromtimestamp(clock, tz=UTC),
    )
    HandEvent.objects.bulk_create(event_to_row(record, e) for e in hand.events)
    return record
