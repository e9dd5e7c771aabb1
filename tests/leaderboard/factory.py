"""Hand-made histories for leaderboard tests: hands booked through the real books.

Each hand is a HandRecord booked by ``games.services.settlement.hand_book``
(the settlement's own ledger, HandSeat, counters and ratings), with a
result we choose, at a time we choose.
"""

from __future__ import annotations

import itertools
from datetime import datetime

from django.db import transaction

from accounts.models import User
from games.models import HandRecord, HandSeat, Room, Table
from games.services.settlement import HandResult, hand_book

_n = itertools.count(1)


def hand(
    a: User,
    b: User,
    *,
    ended: datetime,
    winner: int | None,
    fan: int = 8,
    multiplier: int = 1,
    stake: int = 10,
    self_drawn: bool = False,
    ruleset: str = "erren",
    practice: bool = False,
    fans: tuple[str, ...] = ("PURE_STRAIGHT",),
    rake_percent: int = 5,
) -> list[HandSeat]:
    """Book one hand between ``a`` (seat 0) and ``b`` (seat 1); return its rows.

    The loser pays ``fan × multiplier × stake`` coins, the site keeps
    ``rake_percent`` of it (rounded half up, as the engine does).  One
    transaction, as a settlement is.
    """
    with transaction.atomic():
        return _hand(
            a,
            b,
            ended=ended,
            winner=winner,
            fan=fan,
            multiplier=multiplier,
            stake=stake,
            self_drawn=self_drawn,
            ruleset=ruleset,
            practice=practice,
            fans=fans,
            rake_percent=rake_percent,
        )


def _hand(
    a: User,
    b: User,
    *,
    ended: datetime,
    winner: int | None,
    fan: int,
    multiplier: int,
    stake: int,
    self_drawn: bool,
    ruleset: str,
    practice: bool,
    fans: tuple[str, ...],
    rake_percent: int,
) -> list[HandSeat]:
    room = Room.objects.get_or_create(
        name=f"test-{ruleset}",
        defaults={"stake": stake, "min_balance": 0, "ruleset": ruleset},
    )[0]
    table = Table.objects.create(room=room, kind="quick", seat0=a, seat1=b)
    n = next(_n)
    record = HandRecord.objects.create(
        table=table,
        seat0=a,
        seat1=b,
        ruleset=ruleset,
        stake=stake,
        practice=practice,
        commitment=f"c{n}",
        secret_seed=f"s{n}",
        seed=f"s{n}",
        status=HandRecord.Status.ENDED,
        settled=True,
        started=ended,
        ended=ended,
    )
    coins = fan * multiplier * stake if winner is not None else 0
    return hand_book(
        record=record,
        users=[a.pk, b.pk],
        result=HandResult(
            winner=winner,
            self_drawn=self_drawn,
            fan=fan if winner is not None else 0,
            multiplier=multiplier,
            coins=coins,
            rake=(coins * rake_percent + 50) // 100,
            fans=fans if winner is not None else (),
        ),
    )
