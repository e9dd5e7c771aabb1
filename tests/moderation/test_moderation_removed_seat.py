"""A player suspended or banned during a hand: 托管 finishes it without ever
winning for them, the opponent is told, and the table closes at the end (no
继续 with them).  Tester's fault (issue 14): the opponent was offered 继续 and
the banned player's 托管 could win coins for them after the ban."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.actions import AutoPlay, Win
from games.engine.bots import make_bot
from games.engine.hand import Hand
from games.models import HandRecord, HandSeat
from games.presenters import render_frame
from games.services import table_quick_match
from games.services.auto import removed_move
from moderation.models import Sanction
from moderation.services.sanctions import sanction_enforce
from tests.games.driver import play_out

pytestmark = pytest.mark.django_db


def test_the_removed_seat_s_auto_play_never_wins():
    """Seat 1 is played by a bot (so it gets winning hands) except where 托管
    would win (seed 000 异常处理): there the removed seat's move is taken,
    and it never wins."""
    offered = 0
    for n in range(30):
        hand = Hand.new("erren", now=1.0e9, seed=f"removed-{n}")
        hand.apply(AutoPlay(1, hand.seq, True), now=1.0e9)
        bot = make_bot("normal", random.Random(n))
        strong = make_bot("hard", random.Random(n))
        clock = 1.0e9
        while not hand.ended:
            seat = next(i for i in (0, 1) if hand.state.pending[i])
            clock += 1.0
            if seat == 1:
                default = hand.default_action(1)
                assert default is not None
                if isinstance(default, Win):
                    offered += 1
                    action = removed_move(hand=hand, seat=1, default=default)
                    assert action.kind in ("discard", "pass")
                else:
                    action = strong.choose(hand.view(1), hand.legal_actions(1))
                    if isinstance(action, Win):  # the bot's own choice
                        action = removed_move(hand=hand, seat=1, default=action)
            else:
                action = bot.choose(hand.view(0), hand.legal_actions(0))
            hand.apply(action, now=clock)
        assert (hand.state.result or {}).get("winner") != 1
    assert offered > 0


def test_a_ban_during_the_hand_finishes_it_closes_the_table_and_says_why(
    alice, bob, room
):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    assert table.status == "playing"
    now = timezone.now()
    sanction = Sanction.objects.create(
        user=bob, kind="ban", reason="外挂", starts=now, ends=None
    )
    assert sanction_enforce(sanction_id=sanction.pk) is True
    table.refresh_from_db()
    bob_seat, alice_seat = table.seat_of(bob.pk), table.seat_of(alice.pk)
    if table.status == "playing":
        assert (table.closed_reason, table.closed_seat) == ("removed", bob_seat)
        frame = render_frame(table, alice_seat, user=alice)
        assert 'data-testid="opponent-removed"' in frame
        assert "托管不会替对手和牌" in frame
        play_out(table, {alice_seat: alice})
    table.refresh_from_db()
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == "ended"
    assert not HandSeat.objects.get(hand=record, user=bob).won
    # the table is closed: no 继续 with the banned player, the opponent reads why
    assert table.status == "closed"
    frame = render_frame(table, alice_seat, user=alice)
    assert 'data-testid="continue"' not in frame
    assert "不能和对方继续" in frame and 'data-testid="regroup"' in frame


def test_a_suspension_before_the_hand_is_the_same_as_before(alice, bob, room):
    """A settling table still closes at once (``removed``), as it did."""
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    alice_seat = table.seat_of(alice.pk)
    play_out(table, {alice_seat: alice, 1 - alice_seat: bob})
    table.refresh_from_db()
    assert table.status == "settling"
    now = timezone.now()
    sanction = Sanction.objects.create(
        user=bob, kind="suspend", reason="x", starts=now, ends=now + timedelta(days=1)
    )
    sanction_enforce(sanction_id=sanction.pk)
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == ("closed", "removed")
    frame = render_frame(table, alice_seat, user=alice)
    assert "不能和对方继续" in frame and 'data-testid="continue"' not in frame
