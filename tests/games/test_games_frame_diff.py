"""Partial frames assemble into the whole frame (Zulip's ``verify_action``).

A socket that already holds a frame is sent only the fragments that changed
(games.presenters.render.Frame.changes, as games.consumers sends them).  For
every action of self-played hands of all six rule sets, both seats' browsers
are simulated: each starts from a whole frame and applies every partial frame
as htmx's out-of-band swaps would (tests/games/oob.py); after each action the
page must show exactly what a freshly rendered whole frame shows at that seq.
Every element of a partial frame is also a piece of the whole frame of the
same state, verbatim, so it cannot show what the whole frame would not (the
no-leak tests check the whole frames).
"""

from __future__ import annotations

import random
import time

import pytest
from django.template import engines

from games.models import Room, Table
from games.presenters.render import FRAME_PARTS, FRAME_TEMPLATE, Frame, seat_frame
from games.rules.rulesets import NAMES
from games.services import (
    table_continue,
    table_play_bot,
    table_quick_match,
)
from games.services.hands import load_hand
from mahjong_site.language import pinned_language
from tests.games.conftest import make_player
from tests.games.driver import apply_move, next_move
from tests.games.oob import Page, fragments

pytestmark = pytest.mark.django_db

RULESETS = NAMES  # all six
HANDS = 5  # per rule set


class Browser:
    """One seat's socket as the consumer feeds it, and the page it builds."""

    def __init__(self, table: Table, seat: int, now: float) -> None:
        self.seat = seat
        frame = seat_frame(table, seat, now=now)
        self.page = Page(frame.html())
        self.sent = frame.parts
        self.shells = frame.shells
        self.whole_bytes = self.sent_bytes = 0
        self.messages = 0

    def update(self, table: Table, now: float) -> None:
        """The consumer's group update after a move, then the check."""
        frame = seat_frame(table, self.seat, now=now)
        whole = frame.html()
        # as the opponent's frame travels in a move's group message
        carried = Frame.from_wire(frame.wire())
        assert carried.parts == frame.parts and carried.shells == frame.shells
        assert set(frame.shells) <= {"center", "hand"}
        message = carried.changes(self.sent, sent_shells=self.shells)
        # the shells kept from rendering are the ones cut from the parts
        assert message == Frame(frame.seq, dict(frame.parts)).changes(self.sent)
        self.sent, self.shells = frame.parts, frame.shells
        self.whole_bytes += len(whole.encode())
        if message is not None:
            self.messages += 1
            self.sent_bytes += len(message.encode())
            for f in fragments(message):
                assert f.source in whole, f"{f.id} is not a piece of the whole frame"
            assert f'data-seq="{frame.seq}"' in message
            self.page.swap(message)
        assert self.page.view() == Page(whole).view(), (
            f"seat {self.seat} at seq {frame.seq}: the assembled page differs"
        )


def play_verified(table, users, rng, browsers):
    """Play the current hand to its end, checking both pages after each move.

    Returns (actions, events of the hand).
    """
    actions = 0
    for _ in range(2000):
        move = next_move(table, rng)
        if move is None:
            break
        seat, payload = move
        apply_move(table, users[seat], seat, payload)
        actions += 1
        table.refresh_from_db()
        for b in browsers:
            # the real clock, as the consumer renders (the claim veil is timed)
            b.update(table, time.time())
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    return actions, load_hand(table.hand, seq=table.seq).seq


@pytest.mark.parametrize("ruleset", RULESETS)
def test_partial_frames_assemble_into_the_whole_frame(ruleset):
    room = Room.objects.create(
        name=f"d-{ruleset}", stake=1, min_balance=0, ruleset=ruleset
    )
    a, b = make_player(f"da-{ruleset}"), make_player(f"db-{ruleset}")
    table_quick_match(user=a, room=room)
    table = table_quick_match(user=b, room=room)
    users = {0: a, 1: b}
    rng = random.Random(sum(map(ord, ruleset)))
    browsers = [Browser(table, s, time.time()) for s in (0, 1)]
    hands = actions = events = 0
    for _ in range(HANDS):  # hands of one match: 继续 between them
        n, e = play_verified(table, users, rng, browsers)
        hands, actions, events = hands + 1, actions + n, events + e
        for seat in (0, 1):
            table = table_continue(user=users[seat], table_id=table.pk)
            for br in browsers:
                br.update(table, time.time())
    assert hands == HANDS and actions > 10 * HANDS and events > actions
    for br in browsers:
        # what the diff saves: a partial frame is smaller than the whole one
        assert br.sent_bytes < br.whole_bytes


def test_partial_frames_against_the_bot():
    room = Room.objects.create(name="d-bot", stake=1, min_balance=0, ruleset="erren")
    a = make_player("d-bot-h")
    table = table_play_bot(user=a, room=room, level="hard")
    rng = random.Random(5)
    browser = Browser(table, 0, time.time())
    for _ in range(3):
        play_verified(table, {0: a}, rng, [browser])
        table = table_continue(user=a, table_id=table.pk)
        browser.update(table, time.time())
    assert browser.messages > 10


def test_a_frame_of_no_news_is_not_sent_and_a_given_one_always_is(room, alice, bob):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    first = seat_frame(table, 0, now=1000.0)
    later = seat_frame(table, 0, now=1005.0)
    assert later.html() != first.html()  # the render time only
    assert later.changes(first.parts) is None
    forced = later.changes(first.parts, always=True)
    assert [f.id for f in fragments(forced)] == ["mj-status", "toast"]
    assert later.changes({}) == later.html()


def test_the_whole_frame_is_the_frame_template(room, alice, bob):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    from games.presenters import seat_context

    ctx = seat_context(table, 1, now=1000.0)
    with pinned_language():
        html = engines["jinja2"].get_template(FRAME_TEMPLATE).template.render(ctx)
    frame = seat_frame(table, 1, now=1000.0)
    assert frame.html() == html
    assert [f.id for f in fragments(html)] == [
        "mj-status",
        "mj-opponent",
        "mj-center",
        "mj-me",
        "mj-actions",
        "mj-hand-area",
        "mj-settlement",
        "toast",
        "mj-roomline",
        "mj-commit",
    ]
    assert len(FRAME_PARTS) == 10
