"""The ledger: every coin and point movement is an entry; balances are its sum."""

import pytest
from django.db import IntegrityError
from django.urls import reverse

from accounts.ledger import COINS, POINTS, Movement, ledger_correct, ledger_post
from accounts.models import LedgerEntry, Profile
from accounts.selectors import ledger_drift
from games.models import HandRecord, HandSeat
from games.services import table_continue, table_quick_match
from games.services.reversal import hand_reverse
from leaderboard.models import PlayerStats
from tests.games.conftest import make_player
from tests.games.driver import play_out

pytestmark = pytest.mark.django_db


def _won_hand(alice, bob, room) -> HandRecord:
    """Play hands between alice and bob until one is won; return it."""
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    for seed in range(40):
        play_out(table, {0: alice, 1: bob}, seed=seed)
        record = HandRecord.objects.get(pk=table.hand_id)
        if record.settlement["winner"] is not None:
            return record
        table_continue(user=alice, table_id=table.pk)
        table = table_continue(user=bob, table_id=table.pk)
        table.refresh_from_db()
    raise AssertionError("no hand was won in 40 tries")


def test_a_won_hand_books_the_loss_the_win_and_the_rake(alice, bob, room):
    record = _won_hand(alice, bob, room)
    st = record.settlement
    w, lo = st["winner"], 1 - st["winner"]
    users = [record.seat0_id, record.seat1_id]
    entries = LedgerEntry.objects.filter(hand=record)
    got = sorted((e.user_id, e.currency, e.kind, e.amount) for e in entries)
    want = sorted(
        [
            (users[lo], "coins", "hand", -st["coins"]),
            (users[w], "coins", "hand", st["coins"]),
            (users[w], "coins", "rake", -st["rake"]),
            (users[w], "points", "hand", st["fan"] * st["multiplier"]),
        ]
    )
    assert got == [x for x in want if x[3]]
    assert st["skill"][w] == st["fan"] * st["multiplier"] and st["skill"][lo] == 0
    # balances are the ledger's sums, for everyone
    assert ledger_drift() == []
    winner = Profile.objects.get(user_id=users[w])
    assert winner.coins == 10_000 + st["deltas"][w] + sum(
        LedgerEntry.objects.filter(user_id=users[w], currency="coins")
        .exclude(hand__isnull=False)
        .exclude(kind="grant")
        .values_list("amount", flat=True)
    )
    # each seat has its row, with what its balances moved
    seats = {s.seat: s for s in HandSeat.objects.filter(hand=record)}
    assert seats[w].won and seats[w].coins == st["deltas"][w]
    assert seats[lo].result == "loss" and seats[lo].coins == -st["coins"]
    assert seats[lo].dealt_in == (not record.result.get("self_drawn"))
    assert seats[w].points == st["skill"][w]
    assert seats[w].fan == st["fan"] and seats[w].fans
    assert seats[w].rating_after > seats[w].rating_before
    assert seats[lo].rating_after < seats[lo].rating_before


def test_a_hand_entry_is_booked_once(alice, bob, room):
    record = _won_hand(alice, bob, room)
    entry = LedgerEntry.objects.filter(hand=record, kind="hand", currency="coins")[0]
    with pytest.raises(IntegrityError):
        ledger_post(
            movements=[Movement(entry.user_id, COINS, entry.amount, "hand", record.pk)]
        )


def test_entries_are_append_only(alice):
    entry = alice.ledger.first()
    entry.amount = 1
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


def test_a_moderator_reversal_undoes_the_hand_once(alice, bob, room, admin_user):
    record = _won_hand(alice, bob, room)
    st = record.settlement
    before = {p.user_id: (p.coins, p.rating_points) for p in Profile.objects.all()}
    n = hand_reverse(hand_id=record.pk, reason="cheating", by=admin_user)
    assert n == len([x for x in (st["coins"], st["coins"], st["rake"]) if x]) + 1
    assert hand_reverse(hand_id=record.pk, reason="again", by=admin_user) == 0
    users = [record.seat0_id, record.seat1_id]
    for seat, user_id in enumerate(users):
        coins, points = before[user_id]
        p = Profile.objects.get(user_id=user_id)
        assert p.coins == coins - st["deltas"][seat]
        assert p.rating_points == points - st["skill"][seat]
        stats = PlayerStats.objects.get(user_id=user_id, ruleset="")
        # a reversed hand counts nowhere but in the rating (games.models.COUNTED);
        # drawn hands dealt before it (random walls) still count, with 0 coins
        earlier = HandRecord.objects.filter(table=record.table_id).exclude(pk=record.pk)
        assert (stats.coins, stats.points, stats.hands, stats.wins) == (
            0,
            0,
            earlier.count(),
            0,
        )
    assert set(
        HandSeat.objects.filter(hand=record).values_list("reversed", flat=True)
    ) == {True}
    reversal = LedgerEntry.objects.filter(kind="reversal").first()
    assert reversal.created_by == admin_user and reversal.reason == "cheating"
    assert reversal.reverses.amount == -reversal.amount
    assert ledger_drift() == []


def test_drift_is_found_when_a_balance_is_edited_outside_the_ledger(alice):
    assert ledger_drift() == []
    Profile.objects.filter(user=alice).update(coins=5)
    (drift,) = ledger_drift()
    assert (drift.user_id, drift.currency, drift.stored, drift.ledger) == (
        alice.pk,
        "coins",
        5,
        10_000,
    )


def test_a_correction_needs_a_reason(alice, admin_user):
    with pytest.raises(ValueError, match="reason"):
        ledger_correct(user=alice, currency=POINTS, amount=5, reason=" ", by=admin_user)
    entry = ledger_correct(
        user=alice, currency=POINTS, amount=5, reason="compensation", by=admin_user
    )
    assert (entry.balance_after, entry.created_by) == (5, admin_user)
    alice.profile.refresh_from_db()
    assert alice.profile.rating_points == 5


def test_staff_correct_a_balance_in_admin_with_a_ledger_entry(admin_client, alice):
    # the profile's balances are read-only in admin
    page = admin_client.get(
        reverse("admin:accounts_profile_change", args=[alice.profile.pk])
    )
    assert page.status_code == 200
    assert 'name="coins"' not in page.content.decode()
    url = reverse("admin:accounts_ledgerentry_add")
    refused = admin_client.post(
        url, {"user": alice.pk, "currency": "coins", "amount": 50, "reason": ""}
    )
    assert refused.status_code == 200 and not alice.ledger.filter(kind="correction")
    done = admin_client.post(
        url, {"user": alice.pk, "currency": "coins", "amount": -50, "reason": "refund"}
    )
    assert done.status_code == 302
    entry = alice.ledger.get(kind="correction")
    assert (entry.amount, entry.balance_after, entry.reason) == (-50, 9_950, "refund")
    alice.profile.refresh_from_db()
    assert alice.profile.coins == 9_950
    # entries cannot be changed or deleted there
    change = admin_client.post(
        reverse("admin:accounts_ledgerentry_change", args=[entry.pk]),
        {"amount": 1},
    )
    assert change.status_code == 403 or alice.ledger.get(pk=entry.pk).amount == -50
    delete = admin_client.post(
        reverse("admin:accounts_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}
    )
    assert delete.status_code == 403
    assert alice.ledger.filter(pk=entry.pk).exists()


def test_make_player_and_seed_balances_go_through_the_ledger():
    make_player("rich", coins=123_456)
    assert ledger_drift() == []
