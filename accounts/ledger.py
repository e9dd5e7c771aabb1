"""The ledger (账目): the one writer of 游戏币 and 实力积分 balances.

Every movement of coins or points is a :class:`~accounts.models.LedgerEntry`
(append-only), and the profile's balance changes by the same amount in the
same transaction, with the profile row locked: ``select_for_update`` on the
users in ascending id order, so two writers (two tables settling, a
moderator's reversal, the nightly recalculation) never deadlock and never
lose an update.  So ``Profile.coins`` / ``Profile.rating_points`` always equal
the sum of the user's entries (``accounts.selectors.ledger_drift`` checks;
the nightly run repairs a drifted balance from the entries).

Kinds (``LedgerEntry.Kind``): ``opening`` (balances that existed before the
ledger), ``grant`` (the starting grant of a new player), ``hand`` (a hand's
settlement), ``rake`` (the site's 5 % of a win, seed 002, as its own entry on
the winner), ``reversal`` (undoes one entry: moderation, annulment),
``correction`` (staff, with a reason), ``recalc`` (the nightly job re-applied
the points rule, :mod:`accounts.points`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import LedgerEntry, Profile, User

COINS = LedgerEntry.Currency.COINS
POINTS = LedgerEntry.Currency.POINTS
_FIELD: dict[str, str] = {COINS: "coins", POINTS: "rating_points"}


@dataclass(frozen=True, slots=True)
class Movement:
    """One movement to post: ``amount`` (signed, whole units) of ``currency``.

    ``kind`` is a ``LedgerEntry.Kind`` value; ``hand_id`` names the hand of a
    ``hand`` / ``rake`` / ``recalc`` entry; ``reverses_id`` the entry a
    ``reversal`` undoes.
    """

    user_id: int
    currency: str
    amount: int
    kind: str
    hand_id: int | None = None
    reason: str = ""
    reverses_id: int | None = None


def lock_profiles(
    *, user_ids: Iterable[int], usernames: Iterable[str] = ()
) -> dict[int, Profile]:
    """Lock the profiles of ``user_ids`` (ascending id order); return them by user id.

    ``usernames`` adds the profiles of those accounts, looked up by username
    in the same statement (the settlement names a bot's account so, sparing
    a separate read of the user row); a username with no account adds nothing.

    Call inside a transaction; the rows stay locked until it ends.  Every
    writer of balances or per-player statistics takes these locks first
    (the settlement, the ledger, the nightly recalculation), which is what
    keeps them from losing each other's updates.
    """
    ids = sorted(set(user_ids))
    names = sorted(set(usernames))
    if not ids and not names:
        return {}
    which = Q(user_id__in=ids)
    if names:
        which |= Q(user_id__in=User.objects.filter(username__in=names).values("pk"))
    rows = Profile.objects.select_for_update().filter(which).order_by("user_id")
    return {p.user_id: p for p in rows}


def ledger_post(
    *,
    movements: Sequence[Movement],
    created_by: User | None = None,
    now: datetime | None = None,
    locked: dict[int, Profile] | None = None,
) -> list[LedgerEntry]:
    """Write ``movements`` and move the balances by the same amounts, atomically.

    ``locked`` are profiles the caller already locked with
    :func:`lock_profiles` in the current transaction (the settlement does);
    otherwise they are locked here, and the posting is part of the caller's
    transaction (no savepoint of its own: an error fails the caller's whole
    transaction, as a failed settlement must).  Zero amounts are skipped.  A balance may
    go below zero only through a reversal or a correction (the settlement
    never asks for it: coins are capped at the poorer balance, seed 002).

    Returns the entries written, in order.

    Raises:
        ValueError: an unknown currency or kind, a missing profile, or a hand
            entry without a hand.
        django.db.IntegrityError: a hand's entry of that kind was posted
            already (constraint ``ledger_hand_entry_once``).
    """
    moving = [m for m in movements if m.amount]
    if not moving:
        return []
    now = now or timezone.now()
    kinds = set(LedgerEntry.Kind.values)
    with transaction.atomic(savepoint=locked is None):
        profiles = dict(locked or {})
        missing = {m.user_id for m in moving} - profiles.keys()
        if missing:
            profiles.update(lock_profiles(user_ids=missing))
        entries = []
        touched: dict[int, Profile] = {}
        for m in moving:
            if m.currency not in _FIELD:
                raise ValueError(f"unknown currency {m.currency!r}")
            if m.kind not in kinds:
                raise ValueError(f"unknown ledger kind {m.kind!r}")
            if m.kind in ("hand", "rake", "recalc") and m.hand_id is None:
                raise ValueError(f"a {m.kind} entry needs its hand")
            profile = profiles.get(m.user_id)
            if profile is None:
                raise ValueError(f"user {m.user_id} has no profile")
            field = _FIELD[m.currency]
            balance = getattr(profile, field) + m.amount
            setattr(profile, field, balance)
            touched[m.user_id] = profile
            entries.append(
                LedgerEntry(
                    user_id=m.user_id,
                    currency=m.currency,
                    kind=m.kind,
                    amount=m.amount,
                    balance_after=balance,
                    hand_id=m.hand_id,
                    reverses_id=m.reverses_id,
                    reason=m.reason[:255],
                    created_by=created_by,
                    created=now,
                )
            )
        LedgerEntry.objects.bulk_create(entries)
        # one UPDATE for every touched balance (CASE on the primary key)
        Profile.objects.bulk_update(touched.values(), ["coins", "rating_points"])
    return entries


def ledger_grant(
    *, user: User, coins: int, points: int, kind: str = LedgerEntry.Kind.GRANT
) -> list[LedgerEntry]:
    """Post a player's starting grant (``kind="grant"``) or opening balances."""
    return ledger_post(
        movements=[
            Movement(user.pk, COINS, coins, kind),
            Movement(user.pk, POINTS, points, kind),
        ]
    )


def ledger_correct(
    *, user: User, currency: str, amount: int, reason: str, by: User | None
) -> LedgerEntry:
    """Staff correction of one balance by ``amount`` with a stated ``reason``.

    The only way staff change a balance (the admin no longer edits them).

    Raises:
        ValueError: a blank reason, a zero amount or an unknown currency.
    """
    if not reason.strip():
        raise ValueError("a correction needs a reason")
    if not amount:
        raise ValueError("a correction needs a non-zero amount")
    (entry,) = ledger_post(
        movements=[
            Movement(
                user.pk, currency, amount, LedgerEntry.Kind.CORRECTION, reason=reason
            )
        ],
        created_by=by,
    )
    return entry


def ledger_reverse(
    *, entries: Iterable[LedgerEntry], reason: str, by: User | None = None
) -> list[LedgerEntry]:
    """Undo ``entries``: one ``reversal`` entry of the opposite amount each.

    Entries already reversed, and reversals themselves, are skipped, so
    reversing twice changes nothing the second time (the one-to-one
    ``reverses`` field also guards it in the database).

    Raises:
        ValueError: a blank reason.
    """
    if not reason.strip():
        raise ValueError("a reversal needs a reason")
    with transaction.atomic():
        todo = [
            e
            for e in LedgerEntry.objects.filter(
                pk__in=[e.pk for e in entries], reversed_by__isnull=True
            )
            .exclude(kind=LedgerEntry.Kind.REVERSAL)
            .order_by("id")
        ]
        locked = lock_profiles(user_ids=[e.user_id for e in todo])
        # under the locks: a concurrent reversal of the same entries has
        # committed or waits; look again
        todo = [
            e
            for e in LedgerEntry.objects.filter(
                pk__in=[e.pk for e in todo], reversed_by__isnull=True
            ).order_by("id")
        ]
        return ledger_post(
            movements=[_undoing(e, reason) for e in todo],
            created_by=by,
            locked=locked,
        )


def _undoing(entry: LedgerEntry, reason: str) -> Movement:
    """The ``reversal`` movement that undoes ``entry`` (its amount negated)."""
    return Movement(
        entry.user_id,
        entry.currency,
        -entry.amount,
        LedgerEntry.Kind.REVERSAL,
        hand_id=entry.hand_id,
        reason=reason,
        reverses_id=entry.pk,
    )


def ledger_reverse_hand(
    *,
    hand_id: int,
    reason: str,
    by: User | None = None,
    currencies: Sequence[str] = (COINS, POINTS),
    user_ids: Sequence[int] | None = None,
) -> list[LedgerEntry]:
    """Undo a hand's settlement in the ledger (moderation; stakes returned).

    Reverses the hand's ``hand``, ``rake`` and ``recalc`` entries of
    ``currencies`` (both by default), for ``user_ids`` (both seats by
    default).  Idempotent.  The hand's per-player statistics are marked by
    ``games.services.reversal.hand_reverse``, which calls this.
    """
    entries = LedgerEntry.objects.filter(
        hand_id=hand_id,
        kind__in=[
            LedgerEntry.Kind.HAND,
            LedgerEntry.Kind.RAKE,
            LedgerEntry.Kind.RECALC,
        ],
        currency__in=list(currencies),
    )
    if user_ids is not None:
        entries = entries.filter(user_id__in=list(user_ids))
    return ledger_reverse(entries=list(entries), reason=reason, by=by)


def ledger_restore_hand(
    *, hand_id: int, reason: str, by: User | None = None
) -> list[LedgerEntry]:
    """Put back what a moderator's reversal of a hand undid (an appeal upheld).

    Each ``reversal`` entry that undid one of the hand's ``hand``, ``rake``
    or ``recalc`` entries, and is not undone itself, gets a ``reversal``
    entry of the opposite amount (``reverses`` names it), so the balances
    are what the settlement booked.  Idempotent: restoring twice changes
    nothing the second time.

    Raises:
        ValueError: a blank reason.
    """
    if not reason.strip():
        raise ValueError("a restoration needs a reason")
    kinds = [LedgerEntry.Kind.HAND, LedgerEntry.Kind.RAKE, LedgerEntry.Kind.RECALC]

    def undone() -> list[LedgerEntry]:
        return list(
            LedgerEntry.objects.filter(
                hand_id=hand_id,
                kind=LedgerEntry.Kind.REVERSAL,
                reverses__kind__in=kinds,
                reversed_by__isnull=True,
            ).order_by("id")
        )

    with transaction.atomic():
        locked = lock_profiles(user_ids=[e.user_id for e in undone()])
        return ledger_post(
            movements=[_undoing(e, reason) for e in undone()],  # again, locked
            created_by=by,
            locked=locked,
        )
