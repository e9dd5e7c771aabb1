"""Dealing a hand at a table: seeds, the hand's record, the first moves."""

from __future__ import annotations

import secrets
import time

from django.conf import settings
from django.utils.translation import gettext_lazy

from accounts.models import Profile
from games.engine.hand import Hand
from games.rules.tiles import Tile

from ..models import HandRecord, Table
from ..presence import seat_present
from .auto import run_auto
from .clock import clock_set
from .errors import TableError
from .progress import store_progress
from .seats import away_since


def table_deal(
    *, table: Table, now: float | None = None, coins: dict[int, int] | None = None
) -> HandRecord:
    """Deal a new hand at ``table`` (locked by the caller) and store its log.

    Seeds come from :mod:`secrets`; the log's first event carries only the
    SHA-256 commitment, the seed is revealed when the hand ends.  Balances for
    the coin cap are the players' 游戏币 now (a bot table uses the human's
    for both; it is practice and moves nothing).  A seat whose player is not
    (yet) at the table gets a ``seat_away`` row (games.services.seats).
    ``coins``: the seated players' balances by user id, when the caller has
    just read them under the table's lock (继续 does); else they are read.

    Raises:
        TableError: a seat is empty.
    """
    now = time.time() if now is None else now
    match = table.match
    if match is None or table.seat0_id is None:
        raise TableError(gettext_lazy("牌桌还没有坐满"))
    if table.seat1_id is None and not table.is_bot:
        raise TableError(gettext_lazy("牌桌还没有坐满"))
    if coins is None:
        coins = dict(
            Profile.objects.filter(
                user_id__in=[u for u in (table.seat0_id, table.seat1_id) if u]
            ).values_list("user_id", "coins")
        )
    c0 = max(0, coins.get(table.seat0_id, 0))
    c1 = c0 if table.is_bot else max(0, coins.get(table.seat1_id or 0, 0))
    seed = secrets.token_hex(16)
    hand = Hand.new(
        table.room.ruleset,
        now=now,
        seed=seed,
        dealer=match.dealer,
        round_wind=Tile.parse(match.round_wind),
        stake=table.room.stake,
        balances=(c0, c1),
        prompt_locked=True,  # 报听's forced discards are paced (run_auto)
        turn_from_discard=True,  # the claim veil's deadlines (games.services.veil)
    )
    record = HandRecord.objects.create(
        table=table,
        match=match,
        number=match.hands_played + 1,
        seat0_id=table.seat0_id,
        seat1_id=table.seat1_id,
        ruleset=hand.ruleset.name,
        stake=table.room.stake,
        practice=table.is_bot,
        commitment=hand.state.commitment,
        secret_seed=seed,
    )
    table.hand = record
    table.status = Table.Status.PLAYING
    table.continue_votes = []
    table.settle_deadline = None
    table.veil = None
    events = list(hand.events)
    events += run_auto(table=table, hand=hand, now=now)
    store_progress(
        table=table, record=record, hand=hand, events=events, now=now, new_hand=True
    )
    away = away_since(table=table)
    for seat in (0, 1):
        if not table.is_human(seat):
            continue
        gone = away[seat]
        if gone is not None:
            # left before this hand: 托管 a whole grace after leaving
            at = gone + settings.MAHJONG_DISCONNECT_GRACE
        elif seat_present(table_id=table.pk, seat=seat, now=now):
            continue
        else:
            # not at the table yet (a 快速开始 pairing redirects the player
            # here right now): look again after one heartbeat
            at = now + settings.MAHJONG_PRESENCE_BEAT
        clock_set(
            table_id=table.pk,
            kind="seat_away",
            at=max(now, at),
            hand_id=record.pk,
            seat=seat,
        )
    return record
