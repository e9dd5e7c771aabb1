"""Settlement of an ended hand, exactly once; annulment of a lost hand.

The engine's :func:`games.engine.settle.settle` computes the coins (fan ×
房间基数 × 倍数, capped at the poorer balance — seed 002), the rake
(``rake_percent``, seed 002: 5 %) and 实力积分.  Here the result is written:
balances, points, hands played/won and the match record change in the
caller's transaction, guarded by ``HandRecord.settled`` (an UPDATE … WHERE
settled = false that only one transaction can win).

Bot tables (人机练习) are practice: the settlement is shown and recorded but
moves no coins, points or hand counts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db.models import F

from accounts.models import Profile
from games.engine.hand import Hand, next_deal
from games.rules.tiles import Tile

from ..models import HandRecord, Table
from .notify import schedule


def _begin_settling(table: Table, record: HandRecord, now: float) -> None:
    from games.rules.rulesets import get as get_ruleset

    seconds = (
        settings.MAHJONG_SETTLEMENT_SECONDS
        or get_ruleset(record.ruleset).timers.settlement
    )
    table.status = Table.Status.SETTLING
    table.deadline = None
    table.continue_votes = [] if not table.is_bot else [1]
    table.settle_deadline = datetime.fromtimestamp(now + seconds, tz=UTC)
    schedule("settle_timeout", [table.pk, record.pk], at=now + seconds)


def settle_hand(*, table: Table, record: HandRecord, hand: Hand, now: float) -> bool:
    """Write ``hand``'s settlement into balances and the match, exactly once.

    Call inside the transaction that holds ``table``'s lock.  Returns False
    (and changes nothing) if the hand was settled already.

    Raises:
        ValueError: the hand has not ended.
    """
    if not hand.ended or hand.settlement is None:
        raise ValueError("only an ended hand can be settled")
    won = HandRecord.objects.filter(pk=record.pk, settled=False).update(settled=True)
    if not won:
        return False
    st = hand.settlement
    result: dict[str, Any] = dict(hand.state.result or {})
    result["hands"] = [[str(t) for t in hand.tiles_of(i)] for i in (0, 1)]
    record.settled = True
    record.status = HandRecord.Status.ENDED
    record.seed = hand.state.seed
    record.result = result
    record.settlement = st.to_json()
    record.ended = datetime.fromtimestamp(now, tz=UTC)
    record.save(update_fields=["status", "seed", "result", "settlement", "ended"])

    users = [record.seat0_id, record.seat1_id]
    if not record.practice:
        ids = sorted(u for u in users if u is not None)
        list(Profile.objects.select_for_update().filter(user_id__in=ids))
        for seat, user_id in enumerate(users):
            if user_id is None:
                continue
            Profile.objects.filter(user_id=user_id).update(
                coins=F("coins") + st.deltas[seat],
                rating_points=F("rating_points") + st.skill[seat],
                hands_played=F("hands_played") + 1,
                hands_won=F("hands_won") + (1 if st.winner == seat else 0),
            )

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
        match.save(
            update_fields=["wins", "coins", "hands_played", "dealer", "round_wind"]
        )
    _begin_settling(table, record, now)
    return True


def annul_hand(*, table: Table, record: HandRecord, now: float, reason: str) -> None:
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
    table.veil = None
    _begin_settling(table, record, now)
    table.save()
