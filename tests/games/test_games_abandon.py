"""What counts as abandoning a hand (HandSeat.ending, the play ban's count).

The play ban (moderation.services.sanctions, README "Play bans for
abandoning") counts the hands a player did not play to the end: ``auto``
(托管 after a disconnect) and ``left``.  Seed 000 (四、异常处理) says a
disconnect is handled by 托管, and the site's rule is that the disconnect's
托管 comes after a whole ``MAHJONG_DISCONNECT_GRACE`` away
(games.services.seats): the grace is the line between a reload or a network
blip and leaving.  So a hand counts as abandoned by 托管 only when the seat
was away for the whole grace when it ended (and 托管 was playing for it); a
seat that was away for less — the hand ended during a reload — played it.
Polish (item 4): a player with 托管 switched on who reloaded just as the
hand ended got ``auto`` from two seconds away.
"""

from __future__ import annotations

import random
import time

import pytest

from games import presence
from games.engine.bots.default import choose
from games.models import HandSeat, Table
from games.protocol import parse_move
from games.services import (
    seat_away,
    seat_connect,
    seat_disconnect,
    table_act,
    table_continue,
    table_quick_match,
)
from games.services.hands import load_hand
from games.services.veil import active_veil
from tests.games.driver import apply_move, payload_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, room):
    table_quick_match(user=alice, room=room)
    t = table_quick_match(user=bob, room=room)
    t.refresh_from_db()
    assert not t.is_bot
    return t


def _to_last_move(table: Table, users: dict[int, object]) -> dict:
    """Play until bob's next move ends the hand with alice asked nothing and
    no claim veil (games.services.veil) numbering his view apart; return that
    move's payload (not sent: :func:`_send`)."""
    rng = random.Random(7)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.SETTLING:  # ended otherwise: 继续
            for user in users.values():
                table_continue(user=user, table_id=table.pk)
            continue
        hand = load_hand(table.hand, seq=table.seq)
        assert any(hand.state.pending), (
            f"nobody to move: status {table.status}, ended {hand.ended},"
            f" deadline {hand.state.deadline},"
            f" last {[e.kind for e in hand.events][-5:]}"
        )
        seat = next(s for s in (0, 1) if hand.state.pending[s])
        action = choose(hand, seat)
        if rng.random() < 0.1:
            legal = [a for a in hand.legal_actions(seat) if a.kind != "auto_play"]
            action = rng.choice(legal)
        trial = load_hand(table.hand, seq=table.seq)
        trial.apply(action, now=time.time())
        if (
            trial.ended
            and seat == 1
            and not hand.state.pending[0]
            and active_veil(table, 1, hand, time.time()) is None
        ):
            return payload_of(action)
        apply_move(table, users[seat], seat, payload_of(action))
    raise AssertionError("no hand ending on bob's move")


def _send(table: Table, bob, payload: dict) -> None:
    """Bob's last move, numbered with the hand's seq now (alice's 托管 may
    have added events since it was chosen)."""
    table.refresh_from_db()
    apply_move(table, bob, 1, {**payload, "seq": table.seq})


def _page(table, seat, socket_id, now, *, open_: bool) -> None:
    if open_:
        presence.socket_beat(table_id=table.pk, seat=seat, socket_id=socket_id, now=now)
        seat_connect(table_id=table.pk, seat=seat, now=now)
    else:
        presence.socket_gone(table_id=table.pk, seat=seat, socket_id=socket_id)
        seat_disconnect(table_id=table.pk, seat=seat, now=now)


def _endings(table) -> list[str]:
    seats = HandSeat.objects.filter(hand_id=table.hand_id).order_by("seat")
    return list(seats.values_list("ending", flat=True))


def _tuoguan_on(table, alice) -> None:
    """Alice switches 托管 on from her screen (the number she was shown: a
    claim veil may number her view behind the hand's)."""
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    veil = active_veil(table, 0, hand, time.time())
    seq = int(veil["shown"]) if veil else table.seq
    table_act(
        user=alice,
        table_id=table.pk,
        move=parse_move({"action": "auto_play", "seq": seq, "on": True}),
    )
    table.refresh_from_db()
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is True


@pytest.mark.parametrize("chosen", [False, True], ids=["plain", "tuoguan-chosen"])
def test_a_reload_as_the_hand_ends_is_not_abandoning(table, alice, bob, chosen):
    """Alice reloads (her socket closes, the new one opens 3 s later, well
    within the 20 s grace) and bob's move ends the hand in between.  With
    托管 of her own choice on, this counted as abandoning (``auto``)."""
    users = {0: alice, 1: bob}
    last = _to_last_move(table, users)
    if chosen:
        _tuoguan_on(table, alice)
    now = time.time()
    _page(table, 0, "a", now - 2, open_=True)
    _page(table, 0, "a", now - 1, open_=False)  # the reload: away 1 s
    table.refresh_from_db()
    assert table.away_since[0] is not None
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is chosen
    _send(table, bob, last)
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    _page(table, 0, "a2", time.time() + 2, open_=True)  # back within the grace
    assert _endings(table) == [HandSeat.Ending.PLAYED, HandSeat.Ending.PLAYED]


def test_away_for_the_whole_grace_when_the_hand_ends_is_abandoning(
    table, alice, bob, settings
):
    """The real thing: alice's page closed, the grace ran out (托管 took
    over, seed 000: 断线 → 托管) and the hand ended without her: ``auto``."""
    users = {0: alice, 1: bob}
    last = _to_last_move(table, users)
    grace = settings.MAHJONG_DISCONNECT_GRACE
    now = time.time()
    _page(table, 0, "a", now - grace - 5, open_=True)
    _page(table, 0, "a", now - grace - 2, open_=False)
    assert seat_away(table_id=table.pk, seat=0, hand_id=table.hand_id, now=now)
    table.refresh_from_db()
    assert load_hand(table.hand, seq=table.seq).state.auto[0] is True
    _send(table, bob, last)
    assert _endings(table) == [HandSeat.Ending.AUTO, HandSeat.Ending.PLAYED]


def test_chosen_tuoguan_and_gone_for_the_whole_grace_is_abandoning(
    table, alice, bob, settings
):
    """托管 switched on, then the page closed for good: when the hand ends a
    whole grace later it was abandoned, as without the choice."""
    users = {0: alice, 1: bob}
    last = _to_last_move(table, users)
    _tuoguan_on(table, alice)
    grace = settings.MAHJONG_DISCONNECT_GRACE
    now = time.time()
    _page(table, 0, "a", now - grace - 5, open_=True)
    _page(table, 0, "a", now - grace - 2, open_=False)
    _send(table, bob, last)
    assert _endings(table) == [HandSeat.Ending.AUTO, HandSeat.Ending.PLAYED]
