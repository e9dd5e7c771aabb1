"""No frame sent to a seat depends on the opponent's concealed tiles or the wall.

For every event batch of whole hands (several seeds and rule sets, two
human-driven seats and bot tables), each seat's frame is rendered twice: from
the real hand, and from a copy in which the opponent's concealed tiles and the
wall's playing tiles have been shuffled among themselves.  Everything the
seat may see is the same in both, so the two frames must be identical
byte for byte; any hidden tile that reaches the HTML (a tile, a count of
waits left, a hint) makes them differ.  A partial frame (the fragments that
changed since the seat's previous frame, games.presenters.render.Frame.changes)
is compared the same way, and so is a frame that shares its basis
(games.presenters.context.FrameBasis) with the opponent's frame of the real
hand, rendered first, as a move's two frames do (games.consumers).
"""

import copy
import random

import pytest

from games.models import Room, Table
from games.presenters import render_frame
from games.presenters.context import FrameBasis
from games.presenters.render import seat_frame
from games.protocol import parse_move
from games.rules.tiles import NUM_KINDS
from games.services import (
    table_act,
    table_continue,
    table_play_bot,
    table_quick_match,
)
from games.services.hands import load_hand
from tests.games.conftest import make_player
from tests.games.driver import apply_move, next_move

pytestmark = pytest.mark.django_db


def scrambled(hand, seat, rng):
    """A copy of ``hand`` with the tiles hidden from ``seat`` reshuffled."""
    h = copy.deepcopy(hand)
    s = h.state
    opp = 1 - seat
    if h.ended or s.open_hand[opp]:
        return None
    positions = [i for i in range(s.head, s.tail) if s.wall[i] < NUM_KINDS]
    hidden = [t for t in range(NUM_KINDS) for _ in range(s.concealed[opp][t])]
    pool = hidden + [s.wall[i] for i in positions]
    rng.shuffle(pool)
    counts = [0] * NUM_KINDS
    for t in pool[: len(hidden)]:
        counts[t] += 1
    s.concealed[opp] = counts
    for i, t in zip(positions, pool[len(hidden) :], strict=True):
        s.wall[i] = t
    if s.drawn[opp] is not None:
        s.drawn[opp] = pool[0] if pool else None
    return h


def check_frames(table, rng, now, seats=(0, 1), sent=None):
    """Check each seat's whole and partial frame; ``sent`` (seat → the
    previous frame's fragments) is updated."""
    sent = {} if sent is None else sent
    table.refresh_from_db()
    hand = load_hand(table.hand, seq=table.seq)
    checked = 0
    for seat in seats:
        frame = seat_frame(table, seat, now=now, hand=hand)
        real = frame.html()
        before = sent.get(seat, {})
        partial = frame.changes(before)
        sent[seat] = frame.parts
        assert hand.state.seed not in real or hand.ended
        assert table.hand.secret_seed not in real or hand.ended
        for attempt in range(2):
            other = scrambled(hand, seat, rng)
            if other is None:
                continue
            fake_frame = seat_frame(table, seat, now=now, hand=other)
            fake = fake_frame.html()
            assert fake == real, f"seat {seat} frame depends on hidden tiles"
            assert fake_frame.changes(before) == partial, (
                f"seat {seat} partial frame depends on hidden tiles"
            )
            if attempt == 0:
                # a move's two frames share a basis (games.consumers): the
                # opponent's, from the real hand, first; nothing of it may
                # reach this seat's frame
                basis = FrameBasis(table, now=now)
                seat_frame(table, 1 - seat, hand=hand, basis=basis)
                shared = seat_frame(table, seat, hand=other, basis=basis).html()
                assert shared == real, f"seat {seat} frame depends on the basis"
            checked += 1
    return checked


def play_checked(table, users, seed, seats=(0, 1)):
    rng = random.Random(seed)
    sent = {}
    checked = check_frames(table, rng, 0.0, seats, sent)
    for _ in range(2000):
        move = next_move(table, rng)
        if move is None:
            break
        seat, payload = move
        apply_move(table, users[seat], seat, payload)
        checked += check_frames(table, rng, 0.0, seats, sent)
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    return checked


@pytest.mark.parametrize(
    ("ruleset", "seed"),
    [
        ("erren", 1),
        ("erren", 2),
        ("liangren", 3),
        ("jj", 4),
        ("youxi", 5),
        ("erren64", 6),
    ],
)
def test_no_frame_depends_on_hidden_tiles_two_players(ruleset, seed):
    room = Room.objects.create(
        name=f"r-{ruleset}-{seed}", stake=1, min_balance=0, ruleset=ruleset
    )
    a, b = make_player(f"a{seed}"), make_player(f"b{seed}")
    table_quick_match(user=a, room=room)
    table = table_quick_match(user=b, room=room)
    assert play_checked(table, {0: a, 1: b}, seed) > 20


@pytest.mark.parametrize(("ruleset", "level"), [("erren", "hard"), ("mcr", "easy")])
def test_no_frame_depends_on_hidden_tiles_against_the_bot(ruleset, level):
    room = Room.objects.create(
        name=f"bot-{ruleset}", stake=1, min_balance=0, ruleset=ruleset
    )
    a = make_player(f"h{ruleset}")
    table = table_play_bot(user=a, room=room, level=level)
    checked = 0
    for hand_no in range(3):  # three hands: 继续 with the bot in between
        checked += play_checked(table, {0: a}, 9 + hand_no, seats=(0,))
        table = table_continue(user=a, table_id=table.pk)
    assert checked > 10


def test_scrambling_does_change_what_the_opponent_would_see(room):
    """The check has teeth: the opponent's own frame does change."""
    a, b = make_player("ta"), make_player("tb")
    table_quick_match(user=a, room=room)
    table = table_quick_match(user=b, room=room)
    rng = random.Random(0)
    users = {0: a, 1: b}
    for _ in range(4):  # past the pre-deal choices: tiles are dealt
        seat, payload = next_move(table, rng)
        if payload["action"] != "pre_deal":
            break
        table_act(user=users[seat], table_id=table.pk, move=parse_move(payload))
    hand = load_hand(table.hand, seq=table.seq)
    assert sum(hand.state.concealed[1]) >= 13
    other = scrambled(hand, 0, rng)  # hides seat 1's tiles from seat 0
    assert render_frame(table, 1, now=0.0, hand=other) != render_frame(
        table, 1, now=0.0, hand=hand
    )
