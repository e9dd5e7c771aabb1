"""A table can never freeze for good (issue 11 §5.1).

The attack run froze a table: the 闲家 was dealt a waiting hand, the dealer's
first discard was its winning tile, and a tile-less ``ready`` in that claim
window (with the claim seq, or a stale one from the dealer's turn) was taken
as 天听, after which every evaluation of that seat raised.  The first tests
replay exactly that at a live table.  The others hold the robustness the
issue asks for whatever the cause: a hand the server cannot evaluate is
annulled (系统断线, stakes returned) and logged — by the clock
(without stopping the other tables), by the frame (no 500, no closed
socket, no lobby sending players back), and by ``resume_tables``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.urls import reverse

from games.engine.errors import StaleActionError
from games.engine.hand import Hand
from games.engine.wall import stacked_wall
from games.models import HandEvent, HandRecord, HandSeat, Table
from games.presenters import render_frame, seat_context
from games.protocol import parse_move
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import parse_tiles
from games.services import table_act, table_quick_match
from games.services.clock import run_due
from games.services.hands import load_hand
from games.services.resume import resume_tables
from tests.games.conftest import make_player

pytestmark = pytest.mark.django_db

# the non-dealer waits on 白 (5z) alone: 123 789 东东东 西西西 白
OTHER = "123m789m111z333z5z"
# a dealer hand that is not complete and holds the 白 to deal in with
DEALER = "445566m22z44z66z7z5z"


@pytest.fixture
def stacked(monkeypatch):
    """Deal every new hand (and its replays) from the §5.1 wall."""
    real = Hand.new.__func__  # type: ignore[attr-defined]

    def new(cls, ruleset, **kwargs):
        if kwargs.get("wall") is None:
            rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
            kwargs["wall"] = stacked_wall(
                rs,
                dealer=[t.index for t in parse_tiles(DEALER)],
                other=[t.index for t in parse_tiles(OTHER)],
            )
        return real(cls, ruleset, **kwargs)

    monkeypatch.setattr(Hand, "new", classmethod(new))


def _hand(table: Table) -> Hand:
    table.refresh_from_db()
    return load_hand(table.hand, seq=table.seq)


def _to_first_claim_window(room, alice, bob) -> tuple[Table, dict[int, Any], int]:
    """Deal the §5.1 hand, answer the pre-deal, make the dealer discard 白.

    Returns the table, the users by seat and the seq of the dealer's turn.
    """
    assert room.ruleset == "erren"
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    users = {0: table.seat0, 1: table.seat1}
    hand = _hand(table)
    for seat in (0, 1):
        table_act(
            user=users[seat],
            table_id=table.pk,
            move=parse_move({"action": "pre_deal", "seq": hand.seq}),
        )
    hand = _hand(table)
    dealer = hand.state.dealer
    turn_seq = hand.seq
    table_act(
        user=users[dealer],
        table_id=table.pk,
        move=parse_move({"action": "discard", "tile": "5z", "seq": turn_seq}),
    )
    hand = _hand(table)
    assert hand.state.phase.value == "claim" and hand.state.pending[1 - dealer]
    return table, users, turn_seq


def _all_views_work(table: Table, client, users) -> None:
    table.refresh_from_db()
    hand = _hand(table)
    for seat in (0, 1):
        hand.view(seat)
        hand.legal_actions(seat)
        hand.default_action(seat)
        assert "data-seq=" in render_frame(table, seat)
        client.force_login(users[seat])
        page = client.get(reverse("games:table", args=[table.pk]))
        assert page.status_code == 200


@pytest.mark.parametrize("stale", [False, True])
def test_ready_without_a_tile_in_the_first_claim_window_is_harmless(
    stacked, room, alice, bob, client, stale
):
    table, users, turn_seq = _to_first_claim_window(room, alice, bob)
    hand = _hand(table)
    other = 1 - hand.state.dealer
    seq = turn_seq if stale else hand.seq
    try:
        table_act(
            user=users[other],
            table_id=table.pk,
            move=parse_move({"action": "ready", "seq": seq}),
        )
    except StaleActionError:
        assert stale  # refused: harmless (issue 11 §5.8 refuses stale ones)
    hand = _hand(table)
    if hand.state.ready[other]:
        # accepted: a plain 报听 (commit 2aabe0f), never 天听
        ready = HandEvent.objects.get(hand=table.hand, kind="ready")
        assert ready.payload == {"tile": None, "heavenly": False}
    _all_views_work(table, client, users)
    # the claim window is still the seat's: the win goes through
    table_act(
        user=users[other],
        table_id=table.pk,
        move=parse_move({"action": "hu", "seq": hand.seq}),
    )
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    result = table.hand.result
    assert result["winner"] == other
    fans = {f["id"] for f in result["fans"] if f["counted"]}
    assert "HUMAN_HAND" in fans and "HEAVENLY_READY" not in fans


def test_ready_then_timeout_finishes_the_hand_with_the_win(stacked, room, alice, bob):
    table, users, _ = _to_first_claim_window(room, alice, bob)
    hand = _hand(table)
    other = 1 - hand.state.dealer
    table_act(
        user=users[other],
        table_id=table.pk,
        move=parse_move({"action": "ready", "seq": hand.seq}),
    )
    hand = _hand(table)
    deadline = hand.state.deadline
    assert deadline is not None
    assert run_due(now=deadline + 5) == 1
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    assert table.hand.result["winner"] == other  # 报听 wins on timeout (seed 000)


# -- whatever the cause: annulled, logged, never left playing -----------------


@pytest.fixture
def breaks(monkeypatch):
    """``breaks(record, "view")`` makes that engine method raise for the hand
    of ``record`` only (matched by its seed), as §5.1's state did."""

    def arm(record: HandRecord, method: str) -> None:
        real = getattr(Hand, method)

        def broken(self, *args, **kwargs):
            if self.state.seed == record.secret_seed:
                raise ValueError("天听 cannot win on the first turn")
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Hand, method, broken)

    return arm


def _two_tables(room):
    a, b, c, d = (make_player(n) for n in ("pa", "pb", "pc", "pd"))
    table_quick_match(user=a, room=room)
    one = table_quick_match(user=b, room=room)
    table_quick_match(user=c, room=room)
    two = table_quick_match(user=d, room=room)
    for t in (one, two):
        t.refresh_from_db()
        assert t.status == Table.Status.PLAYING and t.deadline is not None
    return one, two, (a, b, c, d)


def _coins(users) -> list[int]:
    out = []
    for u in users:
        u.profile.refresh_from_db()
        out.append(u.profile.coins)
    return out


def _assert_annulled(table: Table, users, coins_before, why="unplayable") -> None:
    table.refresh_from_db()
    record = table.hand
    assert record.status == HandRecord.Status.ANNULLED and record.settled
    assert record.settlement["deltas"] == [0, 0]
    assert record.result["detail"].startswith(why)
    assert table.status == Table.Status.SETTLING  # never left playing
    assert _coins(users) == coins_before  # stakes returned: nothing moved
    assert set(
        HandSeat.objects.filter(hand=record).values_list("result", flat=True)
    ) == {"annulled"}


def test_clock_annuls_a_table_it_cannot_evaluate_and_times_out_the_others(
    room, breaks, caplog
):
    one, two, users = _two_tables(room)
    coins = _coins(users)
    breaks(one.hand, "default_action")
    # (before the annulled table's settlement countdown, 15 s, runs out)
    later = max(one.deadline, two.deadline).timestamp() + 1
    with caplog.at_level(logging.ERROR, logger="games.services.unplayable"):
        acted = run_due(now=later)
    assert acted == 1  # the healthy table timed out
    two.refresh_from_db()
    assert HandEvent.objects.filter(hand=two.hand, kind="timeout").exists()
    _assert_annulled(one, users[:2], coins[:2])
    assert any("cannot evaluate" in r.getMessage() for r in caplog.records)
    # the next pass no longer acts on it
    one.refresh_from_db()
    assert one.deadline is None
    assert run_due(now=later + 60) >= 0


def test_a_frame_that_cannot_be_built_annuls_the_hand_and_frees_the_lobby(
    room, breaks, client
):
    one, _two, users = _two_tables(room)
    coins = _coins(users)
    breaks(one.hand, "view")
    a = users[0]
    client.force_login(a)
    page = client.get(reverse("games:table", args=[one.pk]))
    assert page.status_code == 200  # not a 500
    _assert_annulled(one, users[:2], coins[:2])
    ctx = seat_context(one, 0)
    assert ctx["settlement"]["annulled"] is True
    # the lobby no longer sends the player back to that table
    again = table_quick_match(user=a, room=room)
    assert again.pk != one.pk


def test_resume_tables_annuls_a_hand_that_replays_but_cannot_be_read(room, breaks):
    one, two, users = _two_tables(room)
    coins = _coins(users)
    breaks(one.hand, "legal_actions")
    report = resume_tables()
    assert report.annulled == [one.pk]
    assert report.resumed == [two.pk]
    _assert_annulled(one, users[:2], coins[:2], why="天听")
