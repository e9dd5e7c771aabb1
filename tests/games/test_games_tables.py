"""Sitting down and playing through the services (no websockets)."""

import pytest

from accounts.models import Profile
from games.models import HandEvent, HandRecord, HandSeat, Table
from games.services import (
    TableError,
    table_continue,
    table_create_friend,
    table_join_friend,
    table_leave,
    table_play_bot,
    table_quick_match,
    table_regroup,
)
from leaderboard.models import PlayerStats
from tests.games.conftest import make_player
from tests.games.driver import play_out

pytestmark = pytest.mark.django_db


def test_quick_match_pairs_two_waiting_players(alice, bob, room):
    first = table_quick_match(user=alice, room=room)
    assert first.status == Table.Status.WAITING
    assert first.seat0 == alice and first.seat1 is None
    second = table_quick_match(user=bob, room=room)
    assert second.pk == first.pk
    second.refresh_from_db()
    assert second.status == Table.Status.PLAYING
    assert (second.seat0_id, second.seat1_id) == (alice.pk, bob.pk)
    record = second.hand
    assert record.status == HandRecord.Status.LIVE
    assert record.seed == "" and len(record.commitment) == 64
    first_event = HandEvent.objects.get(hand=record, seq=1)
    assert first_event.kind == "hand_started"
    assert first_event.payload["commitment"] == record.commitment
    assert second.seq == HandEvent.objects.filter(hand=record).count()


def test_quick_match_refuses_a_player_below_the_room_minimum(room):
    poor = make_player("poor", coins=room.min_balance - 1)
    with pytest.raises(TableError, match="至少 200"):
        table_quick_match(user=poor, room=room)
    assert not Table.objects.filter(seat0=poor).exists()


def test_quick_match_never_pairs_a_player_with_himself(alice, room):
    a = table_quick_match(user=alice, room=room)
    again = table_quick_match(user=alice, room=room)
    assert again.status == Table.Status.WAITING
    a.refresh_from_db()
    # the old waiting table was left, a new one opened
    assert a.status == Table.Status.CLOSED and again.pk != a.pk


def test_bot_table_plays_a_whole_hand_without_moving_coins(alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    assert table.status == Table.Status.PLAYING and table.seat1_id is None
    n = play_out(table, {0: alice}, seed=3)
    assert n > 0
    record = HandRecord.objects.get(pk=table.hand_id)
    assert record.status == HandRecord.Status.ENDED and record.settled
    assert record.practice and record.seed
    assert table.status == Table.Status.SETTLING
    profile = Profile.objects.get(user=alice)
    # practice: no coins or points move, but the hand is a row per player
    # (the bot's account too) and counts in the statistics
    assert profile.coins == 10_000 and profile.rating_points == 0
    seats = HandSeat.objects.filter(hand=record).order_by("seat")
    assert [s.user.username for s in seats] == [alice.username, "bot-easy"]
    assert all(s.practice and s.coins == 0 and s.points == 0 for s in seats)
    assert PlayerStats.objects.get(user=alice, ruleset="").hands == 1
    # the log replays to the same end
    from games.services.hands import rebuild_hand

    assert rebuild_hand(record).ended


def _paired(alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    table.refresh_from_db()
    return table


def test_two_players_finish_a_hand_and_settle_exactly_once(alice, bob, room):
    table = _paired(alice, bob, room)
    play_out(table, {0: alice, 1: bob}, seed=11)
    record = HandRecord.objects.get(pk=table.hand_id)
    st = record.settlement
    p0, p1 = (Profile.objects.get(user=u) for u in (alice, bob))
    assert (p0.coins - 10_000, p1.coins - 10_000) == tuple(st["deltas"])
    assert (p0.rating_points, p1.rating_points) == tuple(st["skill"])
    s0, s1 = (PlayerStats.objects.get(user=u, ruleset="") for u in (alice, bob))
    assert s0.hands == s1.hands == 1
    winner = st["winner"]
    assert s0.wins + s1.wins == (0 if winner is None else 1)
    if winner is not None:
        # conservation: winner's gain + rake = loser's loss
        from games.rules.rulesets import get

        pct = get(record.ruleset).rake_percent
        assert st["deltas"][0] + st["deltas"][1] + st["rake"] == 0
        assert st["rake"] == (st["coins"] * pct + 50) // 100
        assert st["deltas"][1 - winner] == -st["coins"]
    # a second settlement of the same hand changes nothing
    from games.services.hands import rebuild_hand
    from games.services.settlement import hand_settle

    hand = rebuild_hand(record)
    assert hand_settle(table=table, record=record, hand=hand, now=0.0) is False
    s0.refresh_from_db()
    assert s0.hands == 1
    assert HandSeat.objects.filter(hand=record).count() == 2
    match = table.match
    match.refresh_from_db()
    assert match.hands_played == 1
    assert sum(match.wins) == (0 if winner is None else 1)


def _play_until_win(alice, bob, room, seeds=range(40)):
    """Play hands (继续) until one is won; return the table and record."""
    table = _paired(alice, bob, room)
    for seed in seeds:
        play_out(table, {0: alice, 1: bob}, seed=seed)
        record = HandRecord.objects.get(pk=table.hand_id)
        if record.settlement["winner"] is not None:
            return table, record
        table_continue(user=alice, table_id=table.pk)
        table_continue(user=bob, table_id=table.pk)
        table.refresh_from_db()
    raise AssertionError("no win in 40 hands")


def test_coin_cap_limits_the_loss_to_the_poorer_balance(room):
    rich = make_player("rich", coins=1_000_000)
    poor = make_player("poorish", coins=room.min_balance)
    table, record = _play_until_win(rich, poor, room)
    st = record.settlement
    hand_balances = record.events.get(seq=1).payload["balances"]
    assert st["coins"] <= min(hand_balances)
    raw = next(line for line in st["lines"] if line["key"] == "coins_raw")["value"]
    assert st["coins"] == min(raw, min(hand_balances))
    assert Profile.objects.get(user=poor).coins >= 0


def test_rake_is_kept_by_the_site_in_a_room_with_rake(db):
    from games.models import Room

    room = Room.objects.create(name="两人场", stake=10, min_balance=100, ruleset="mcr")
    a, b = make_player("ra"), make_player("rb")
    table, record = _play_until_win(a, b, room)
    st = record.settlement
    assert st["coins"] > 0
    assert st["rake"] == (st["coins"] * 5 + 50) // 100  # seed 002: 5 %
    total = sum(Profile.objects.get(user=u).coins for u in (a, b))
    assert total == 20_000 - st["rake"]


def test_continue_deals_the_next_hand_with_the_winner_as_dealer(alice, bob, room):
    table, record = _play_until_win(alice, bob, room)
    winner = record.settlement["winner"]
    t = table_continue(user=alice, table_id=table.pk)
    assert t.status == Table.Status.SETTLING and t.continue_votes == [0]
    t = table_continue(user=bob, table_id=table.pk)
    assert t.status == Table.Status.PLAYING and t.hand_id != record.pk
    nxt = HandRecord.objects.get(pk=t.hand_id)
    assert nxt.number == record.number + 1
    assert nxt.events.get(seq=1).payload["dealer"] == winner


def test_regroup_closes_the_table_and_looks_for_a_new_opponent(alice, bob, room):
    table = _paired(alice, bob, room)
    play_out(table, {0: alice, 1: bob}, seed=5)
    new = table_regroup(user=alice, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert new.pk != table.pk and new.status == Table.Status.WAITING
    # bob regroups too and is paired with alice again at her new table
    again = table_regroup(user=bob, table_id=table.pk)
    assert again.pk == new.pk and again.status == Table.Status.PLAYING


def test_regroup_from_a_practice_table_stays_in_practice(alice, room):
    """Issue 11 §4: 分组 at a bot table never queues the player for coins."""

    table = table_play_bot(user=alice, room=room, level="hard")
    play_out(table, {0: alice}, seed=3)
    table.refresh_from_db()
    assert table.status == Table.Status.SETTLING
    new = table_regroup(user=alice, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert (table.closed_reason, table.closed_seat) == ("regroup", 0)
    assert new.pk != table.pk and new.kind == Table.Kind.BOT
    assert new.bot_level == "hard" and new.status == Table.Status.PLAYING
    assert not Table.objects.filter(kind=Table.Kind.QUICK).exists()


def test_regroup_after_the_countdown_at_a_practice_table_stays_in_practice(alice, room):
    from games.services import table_settle_timeout

    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=4)
    table.refresh_from_db()
    assert table_settle_timeout(table_id=table.pk, hand_id=table.hand_id) is True
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == (Table.Status.CLOSED, "timeout")
    new = table_regroup(user=alice, table_id=table.pk)
    assert new.kind == Table.Kind.BOT and new.status == Table.Status.PLAYING
    assert not Table.objects.filter(kind=Table.Kind.QUICK).exists()


def test_leaving_records_who_closed_the_table(alice, bob, room):
    table = _paired(alice, bob, room)
    play_out(table, {0: alice, 1: bob}, seed=2)
    table_leave(user=bob, table_id=table.pk)
    table.refresh_from_db()
    assert (table.status, table.closed_reason, table.closed_seat) == (
        Table.Status.CLOSED,
        "left",
        1,
    )


def test_continue_and_regroup_refused_during_a_hand(alice, bob, room):
    table = _paired(alice, bob, room)
    with pytest.raises(TableError, match="结束后"):
        table_continue(user=alice, table_id=table.pk)


def test_settlement_countdown_returns_idle_players_to_the_lobby(alice, bob, room):
    from games.services import table_settle_timeout

    table = _paired(alice, bob, room)
    play_out(table, {0: alice, 1: bob}, seed=2)
    table_continue(user=alice, table_id=table.pk)
    assert table_settle_timeout(table_id=table.pk, hand_id=table.hand_id) is True
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_reason == "timeout"
    assert table_settle_timeout(table_id=table.pk, hand_id=table.hand_id) is False
    # the 继续 voter is told, not queued (issue 11 §4)
    assert not Table.objects.exclude(pk=table.pk).filter(seat0=alice).exists()


def test_friend_table_with_invite_link(alice, bob, room):
    table = table_create_friend(user=alice, room=room)
    assert table.kind == Table.Kind.FRIEND and len(table.invite_token) >= 16
    with pytest.raises(TableError, match="邀请链接无效"):
        table_join_friend(user=bob, token="nope")
    joined = table_join_friend(user=bob, token=table.invite_token)
    assert joined.pk == table.pk and joined.status == Table.Status.PLAYING
    carol = make_player("carol")
    with pytest.raises(TableError, match="满了"):
        table_join_friend(user=carol, token=table.invite_token)
    # the host following the link again just gets the table back
    assert table_join_friend(user=alice, token=table.invite_token).pk == table.pk
