"""A moderator's reversal of a settled hand's coins and points, and its undoing.

The hand stays in the log, the replay and the rating; its ledger entries
are reversed (balances move back), its :class:`~games.models.HandSeat` rows
are marked ``reversed`` and it leaves the players' counters
(``games.models.COUNTED``).
"""

from __future__ import annotations

from django.db import transaction

from accounts.ledger import ledger_restore_hand, ledger_reverse_hand, lock_profiles
from accounts.models import User
from leaderboard.services import stats_restore_hand, stats_reverse_hand

from ..models import HandSeat


def hand_reverse(*, hand_id: int, reason: str, by: User | None) -> int:
    """Undo a settled hand's coins and points (moderation), once.

    Posts ``reversal`` ledger entries for every coin and point entry of the
    hand (balances move back, ``accounts.ledger.ledger_reverse_hand``), marks
    its :class:`~games.models.HandSeat` rows ``reversed`` and takes the hand
    out of the players' counters (``games.models.COUNTED``: it counts
    nowhere but in the rating, which stays).
    Returns how many ledger entries were reversed (0 the second time).

    Raises:
        ValueError: a blank reason, or the hand has no seats (never settled).
    """
    return _hand_set_reversed(hand_id=hand_id, reason=reason, by=by, reversed_=True)


def hand_restore(*, hand_id: int, reason: str, by: User | None) -> int:
    """Undo :func:`hand_reverse` (a moderator upheld an appeal), once.

    Posts ``reversal`` entries of the reversal entries (the balances are
    again what the settlement booked, ``accounts.ledger.ledger_restore_hand``),
    clears the hand rows' ``reversed`` mark and puts the hand back into the
    players' counters.  Returns how many ledger entries were posted (0 when
    the hand was not reversed).

    Raises:
        ValueError: a blank reason, or the hand has no seats (never settled).
    """
    return _hand_set_reversed(hand_id=hand_id, reason=reason, by=by, reversed_=False)


def _hand_set_reversed(
    *, hand_id: int, reason: str, by: User | None, reversed_: bool
) -> int:
    """:func:`hand_reverse` (``reversed_``) or :func:`hand_restore`: the ledger
    entries, the hand rows' mark and the counters in one transaction, under
    the players' profile locks.  Returns how many ledger entries were posted."""
    with transaction.atomic():
        seats = list(HandSeat.objects.filter(hand_id=hand_id).order_by("seat"))
        if not seats:
            raise ValueError(f"hand {hand_id} was not settled")
        lock_profiles(user_ids=[s.user_id for s in seats])
        # under the locks: only the rows not yet in the wanted state
        seats = list(
            HandSeat.objects.filter(hand_id=hand_id, reversed=not reversed_).order_by(
                "seat"
            )
        )
        post = ledger_reverse_hand if reversed_ else ledger_restore_hand
        entries = post(hand_id=hand_id, reason=reason, by=by)
        if seats:
            HandSeat.objects.filter(pk__in=[s.pk for s in seats]).update(
                reversed=reversed_
            )
            (stats_reverse_hand if reversed_ else stats_restore_hand)(seats=seats)
    return len(entries)
