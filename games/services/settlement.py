"""Settlement of an ended hand, exactly once; annulment.

A moderator's reversal of a settled hand is games.services.reversal.

The engine's :func:`games.engine.settle.settle` computes the coins (fan ×
房间基数 × 倍数, capped at the poorer balance — seed 002) and the rake
(``rake_percent``, seed 002: 5 %); 实力积分 follow the one rule of
:mod:`accounts.points`.  Here the result is written, in the caller's
transaction, guarded by ``HandRecord.settled`` (an UPDATE … WHERE settled =
false that only one transaction can win):

1. both players' profiles are locked (``accounts.ledger.lock_profiles``,
   ascending user id) — the lock every writer of balances and statistics
   takes first;
2. the coins and points go to the ledger (``accounts.ledger.ledger_post``:
   the loser's ``hand`` entry, the winner's ``hand`` entry and the site's
   ``rake`` entry on the winner), which moves the balances;
3. a :class:`~games.models.HandSeat` row per player is written, and the
   players' counters and skill ratings are updated
   (``leaderboard.services.stats_record_hand``);
4. the match record moves on.

Bot tables (人机练习) are practice: the settlement is shown and recorded and
the hand is rated (the bot has an account per level, ``bot-<level>``), but
no coins or points move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from accounts.ledger import COINS, POINTS, Movement, ledger_post, lock_profiles
from accounts.models import LedgerEntry, Profile
from accounts.points import hand_points
from accounts.services import bot_account, bot_username
from games.engine.hand import Hand, next_deal
from games.rules.tiles import Tile
from leaderboard.services import stats_record_hand

from ..models import HandRecord, HandSeat, Table
from .clock import clock_set
from .grace import grace_over
from .review import review_schedule
from .rows import row_update, values_update


def _begin_settling(table: Table, record: HandRecord, now: float) -> None:
    from games.rules.rulesets import get as get_ruleset

    seconds = (
        settings.MAHJONG_SETTLEMENT_SECONDS
        or get_ruleset(record.ruleset).timers.settlement
    )
    table.deadline = None
    table.settle_deadline = datetime.fromtimestamp(now + seconds, tz=UTC)
    if table.closed_reason == "removed":
        # a player was suspended or banned during the hand: no 继续 with them
        # (games.services.seats.seat_force_auto); the opponent reads why
        table.status = Table.Status.CLOSED
        table.continue_votes = []
        if table.match is not None and table.match.ended is None:
            table.match.ended = datetime.fromtimestamp(now, tz=UTC)
            table.match.save(update_fields=["ended"])
        return
    table.status = Table.Status.SETTLING
    table.continue_votes = [] if not table.is_bot else [1]
    clock_set(table_id=table.pk, kind="settle", at=now + seconds, hand_id=record.pk)


def seat_users(*, table: Table, record: HandRecord) -> list[int]:
    """The user id on each seat of ``record``: the bot's account for a bot seat.

    Raises:
        ValueError: a human seat is empty.
    """
    users = [record.seat0_id, record.seat1_id]
    for seat in (0, 1):
        if users[seat] is None:
            if table.is_human(seat):
                raise ValueError(f"hand {record.pk} has nobody on seat {seat}")
            users[seat] = bot_account(level=table.bot_level or "normal").pk
    return [int(u) for u in users if u is not None]


def _lock_seats(
    *, table: Table, record: HandRecord
) -> tuple[list[int], dict[int, Profile]]:
    """Lock both seats' profiles; return the user id on each seat and the
    locked profiles by user id.

    A bot seat's account (``accounts.services.bot_account``, ``bot-<level>``)
    is found by its username in the locking statement itself, so a bot
    table's settlement reads no user row; only when that account does not
    exist yet is it created and the profiles locked again.

    Raises:
        ValueError: a human seat is empty.
    """
    humans = [record.seat0_id, record.seat1_id]
    bot_seats = [seat for seat in (0, 1) if humans[seat] is None]
    for seat in bot_seats:
        if table.is_human(seat):
            raise ValueError(f"hand {record.pk} has nobody on seat {seat}")
    ids = [int(u) for u in humans if u is not None]
    if not bot_seats:
        return ids, lock_profiles(user_ids=ids)
    level = table.bot_level or "normal"
    locked = lock_profiles(user_ids=ids, usernames=[bot_username(level=level)])
    found = [u for u in locked if u not in ids]
    if len(found) != 1:
        found = [bot_account(level=level).pk]
        locked = lock_profiles(user_ids=[*ids, *found])
    users = list(humans)
    for seat in bot_seats:
        users[seat] = found[0]
    return [int(u) for u in users if u is not None], locked


def _endings(table: Table, hand: Hand, left: Sequence[int], now: float) -> list[str]:
    """How each seat ended the hand at ``now`` (epoch s): left, 托管 after a
    disconnect, or played.

    托管 after a disconnect (what the play ban counts) is a seat 托管 plays
    for that has been away for the whole ``MAHJONG_DISCONNECT_GRACE`` — the
    line the site draws between a reload or a network blip and leaving (seed
    000 四、异常处理: 断线 → 托管, which comes after the grace,
    games.services.grace) — or whose player moderation removed.  A seat away
    for less when the hand ends (a reload as it ends, with 托管 of the
    player's own choice on) played it.
    """
    away = list(table.away_since or []) + [None, None]
    auto = list(hand.state.auto)
    out: list[str] = []
    for seat in (0, 1):
        since = away[seat]
        removed = table.closed_reason == "removed" and table.closed_seat == seat
        gone = since is not None and (removed or grace_over(since=since, now=now))
        if seat in left:
            out.append(HandSeat.Ending.LEFT)
        elif table.is_human(seat) and gone and auto[seat]:
            out.append(HandSeat.Ending.AUTO)
        else:
            out.append(HandSeat.Ending.PLAYED)
    return out


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a settled hand decided, as the books need it.

    ``winner`` is None for 流局; ``fan`` / ``multiplier`` are the
    settlement's 总番数 and 倍数; ``coins`` what the loser pays and ``rake``
    the site's share of it (the winner gets ``coins - rake``, seed 002);
    ``fans`` the winner's counted fan ids; ``dealer`` the dealer's seat.
    """

    winner: int | None
    self_drawn: bool = False
    fan: int = 0
    multiplier: int = 1
    coins: int = 0
    rake: int = 0
    fans: tuple[str, ...] = ()
    dealer: int = 0


def hand_book(
    *,
    record: HandRecord,
    users: Sequence[int],
    result: HandResult,
    endings: Sequence[str] = (HandSeat.Ending.PLAYED, HandSeat.Ending.PLAYED),
    locked: dict[int, Profile] | None = None,
) -> list[HandSeat]:
    """Book a settled hand: ledger entries, HandSeat rows, counters, ratings.

    ``record`` is the ended hand (its ``ended``, ``ruleset``, ``stake`` and
    ``practice`` are read), ``users`` the user id on each seat.  Locks both
    profiles first (ascending id).  Practice hands post nothing to the
    ledger.  Points follow :func:`accounts.points.hand_points`.  Call inside
    a transaction; :func:`hand_settle` calls it exactly once per hand, with
    both profiles already ``locked`` (by user id) in that transaction.
    Returns the two rows, seat 0 first.
    """
    assert record.ended is not None
    if locked is None or not set(users) <= locked.keys():
        locked = lock_profiles(user_ids=users)
    w = result.winner
    points = [
        hand_points(
            won=w == seat,
            fan=result.fan,
            multiplier=result.multiplier,
            practice=record.practice,
        )
        for seat in (0, 1)
    ]
    coins = [0, 0]
    if w is not None and not record.practice:
        coins[w], coins[1 - w] = result.coins - result.rake, -result.coins
        lo = 1 - w
        hand_kind, rake_kind = LedgerEntry.Kind.HAND, LedgerEntry.Kind.RAKE
        ledger_post(
            movements=[
                Movement(users[lo], COINS, -result.coins, hand_kind, record.pk),
                Movement(users[w], COINS, result.coins, hand_kind, record.pk),
                Movement(users[w], COINS, -result.rake, rake_kind, record.pk),
                Movement(users[w], POINTS, points[w], hand_kind, record.pk),
                Movement(users[lo], POINTS, points[lo], hand_kind, record.pk),
            ],
            locked=locked,
            now=record.ended,
        )
    seats = []
    for seat in (0, 1):
        won = w == seat
        seats.append(
            HandSeat(
                hand=record,
                seat=seat,
                user_id=users[seat],
                opponent_id=users[1 - seat],
                ruleset=record.ruleset,
                stake=record.stake,
                practice=record.practice,
                ended=record.ended,
                result=(
                    HandSeat.Result.DRAW
                    if w is None
                    else HandSeat.Result.WIN
                    if won
                    else HandSeat.Result.LOSS
                ),
                won=won,
                self_drawn=won and result.self_drawn,
                dealt_in=w is not None and not won and not result.self_drawn,
                dealer=result.dealer == seat,
                fan=result.fan if w is not None else 0,
                multiplier=result.multiplier if w is not None else 1,
                fans=list(result.fans) if won else [],
                coins=coins[seat],
                points=points[seat],
                ending=endings[seat],
            )
        )
    stats_record_hand(seats=seats)
    HandSeat.objects.bulk_create(seats)
    return seats


def _after_abandon(
    table: Table, record: HandRecord, users: Sequence[int], endings: Sequence[str]
) -> None:
    """On commit, check for a play ban each person who did not finish the hand
    (moderation, issue 14: repeated abandonment)."""
    from django.db import transaction

    if record.practice:
        return
    for seat in (0, 1):
        if endings[seat] != HandSeat.Ending.PLAYED and table.is_human(seat):
            user_id = users[seat]

            def check(user_id: int = user_id) -> None:
                from moderation.tasks import playban_after_hand

                playban_after_hand.delay(user_id)

            transaction.on_commit(check)


def hand_settle(
    *,
    table: Table,
    record: HandRecord,
    hand: Hand,
    now: float,
    left: Sequence[int] = (),
) -> bool:
    """Write ``hand``'s settlement: ledger, balances, HandSeat rows, stats, match.

    Exactly once.  Call inside the transaction that holds ``table``'s lock.
    ``left`` lists seats whose player left during the hand (their rows say
    so).  Returns False (and changes nothing) if the hand was settled already.

    Raises:
        ValueError: the hand has not ended.
    """
    if not hand.ended or hand.settlement is None:
        raise ValueError("only an ended hand can be settled")
    st = hand.settlement
    result: dict[str, Any] = dict(hand.state.result or {})
    result["hands"] = [[str(t) for t in hand.tiles_of(i)] for i in (0, 1)]
    settlement = st.to_json()
    # the points applied (accounts.points: the one rule), as the panel shows them
    settlement["skill"] = [
        hand_points(
            won=st.winner == seat,
            fan=st.fan,
            multiplier=st.multiplier,
            practice=record.practice,
        )
        for seat in (0, 1)
    ]
    ended = datetime.fromtimestamp(now, tz=UTC)
    # the guard and the record's new state in one UPDATE: only one
    # transaction can turn ``settled`` from false to true
    won = values_update(
        HandRecord,
        pk=record.pk,
        values={
            "settled": True,
            "status": HandRecord.Status.ENDED,
            "seed": hand.state.seed,
            "result": result,
            "settlement": settlement,
            "ended": ended,
        },
        where={"settled": False},
    )
    if not won:
        return False
    record.settled = True
    record.status = HandRecord.Status.ENDED
    record.seed = hand.state.seed
    record.result = result
    record.settlement = settlement
    record.ended = ended

    endings = _endings(table, hand, left, now)
    users, locked = _lock_seats(table=table, record=record)
    hand_book(
        record=record,
        users=users,
        locked=locked,
        result=HandResult(
            winner=st.winner,
            self_drawn=bool(result.get("self_drawn")),
            fan=st.fan,
            multiplier=st.multiplier,
            coins=st.coins,
            rake=st.rake,
            fans=tuple(
                str(f.get("id"))
                for f in result.get("fans", [])
                if f.get("counted", True) and f.get("id")
            ),
            dealer=hand.state.dealer,
        ),
        endings=endings,
    )
    review_schedule(hand_id=record.pk)
    _after_abandon(table, record, users, endings)

    match = table.match
    if match is not None:
        wins = list(match.wins or [0, 0])
        coins = list(match.coins or [0, 0])
        if st.winner is not None:
            wins[st.winner] += 1
        if not record.practice:
            coins = [coins[i] + st.deltas[i] for i in (0, 1)]
        dealer, wind = next_deal(
            dealer=match.dealer,
            round_wind=Tile.parse(match.round_wind),
            winner=st.winner,
            round_starter=match.round_starter,
        )
        match.wins, match.coins = wins, coins
        match.hands_played += 1
        match.dealer, match.round_wind = dealer, str(wind)
        row_update(match, ["wins", "coins", "hands_played", "dealer", "round_wind"])
    _begin_settling(table, record, now)
    return True


def hand_annul(*, table: Table, record: HandRecord, now: float, reason: str) -> None:
    """End a hand that cannot be resumed as 系统断线: 和局 (seed 000 异常处理).

    Nothing was paid during the hand (coins move only at settlement), so the
    stakes are returned by settling nothing; the seed is revealed.  Call
    inside a transaction holding the table lock.
    """
    won = HandRecord.objects.filter(pk=record.pk, settled=False).update(settled=True)
    if not won:
        return
    record.settled = True
    record.status = HandRecord.Status.ANNULLED
    record.seed = record.secret_seed
    record.result = {
        "reason": "system_disconnect",
        "winner": None,
        "annulled": True,
        "note": "系统断线：和局，不计输赢",
        "detail": reason,
    }
    record.settlement = {
        "winner": None,
        "loser": None,
        "fan": 0,
        "multiplier": 1,
        "coins": 0,
        "rake": 0,
        "deltas": [0, 0],
        "skill": [0, 0],
        "lines": [
            {
                "key": "annulled",
                "zh": "系统断线：和局",
                "en": "System failure: drawn, stakes returned",
                "value": 0,
                "note": reason,
            }
        ],
    }
    record.ended = datetime.fromtimestamp(now, tz=UTC)
    record.save(
        update_fields=["status", "seed", "result", "settlement", "ended", "settled"]
    )
    users = seat_users(table=table, record=record)
    HandSeat.objects.bulk_create(
        HandSeat(
            hand=record,
            seat=seat,
            user_id=users[seat],
            opponent_id=users[1 - seat],
            ruleset=record.ruleset,
            stake=record.stake,
            practice=record.practice,
            ended=record.ended,
            result=HandSeat.Result.ANNULLED,
        )
        for seat in (0, 1)
    )
    review_schedule(hand_id=record.pk)
    # Nothing was paid during the hand; should a later version take stakes
    # up front, they go back here: ledger_reverse_hand(hand_id=record.pk, ...)
    table.veil = None
    _begin_settling(table, record, now)
    table.save()
