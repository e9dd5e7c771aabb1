"""When the hand engine sets the first-turn flags (天胡 地胡 人胡 天听).

Each predicate reads the :class:`~.state.HandState` at the moment of the win
(or of the 报听) and holds exactly when the seeds' condition does (seed 000
二人麻将 牌型范例及规则结算 and seed 001 大众番种 say the same; quoted below and in
games/rules/first_turn.py, which refuses the combinations they rule out).
Counters used: ``draws[s]`` counts wall draws (not 补花 or kong replacements),
``discards_made[s]`` discards, ``kongs_made[s]`` kongs, ``swaps[s]`` 换牌;
``interrupted`` is set by any 吃, 碰, 明杠, 加杠 or 暗杠.
"""

from __future__ import annotations

from .state import HandState


def heavenly(s: HandState, seat: int) -> bool:
    """天胡: "庄家在发完牌就和牌。如果庄家有补花，在补完花后就和牌也算。
    如果庄家在发完牌后有暗杠，那么不算天和".

    The dealer wins by self-draw before any discard, with no kong and no
    换牌 (a swapped hand is no longer the one dealt; RULES.md).  Call it for a
    self-drawn win only.
    """
    d = s.dealer
    return (
        seat == d
        and s.discards_made[d] == 0
        and s.kongs_made[d] == 0
        and not s.interrupted
        and s.swaps[d] == 0
    )


def earthly(s: HandState, seat: int) -> bool:
    """地胡: "闲家摸到第一张牌就和牌 … 如果闲家抓的第一张牌是花牌，那么补花之后
    和牌也算地和。如果闲家抓牌前有人吃碰杠（包括暗杠），那么不算地和".

    The non-dealer wins by self-draw on its first wall draw (after 补花),
    nobody having made a claim or kong, and without 换牌 since that draw.
    Call it for a self-drawn win only.
    """
    return (
        seat != s.dealer
        and s.draws[seat] == 1
        and s.discards_made[seat] == 0
        and not s.interrupted
        and s.swaps[seat] == 0
    )


def human(s: HandState, seat: int) -> bool:
    """人胡: "庄家打出的第一张牌闲家就和牌称为人和.如果庄家出牌前有暗杠，那么不算人和".

    The non-dealer wins on the dealer's first discard (not a robbed kong),
    the dealer having made no kong before it.  The winner has had no turn,
    so it holds no meld.  Call it for a win on a discard only.
    """
    d = s.dealer
    return (
        seat != d
        and s.discards_made[d] == 1
        and s.discards_made[seat] == 0
        and s.draws[seat] == 0
        and s.kongs_made[d] == 0
        and not s.interrupted
    )


def heavenly_ready(s: HandState, seat: int, *, with_discard: bool) -> bool:
    """天听: "庄家打出第一张牌时报听称为天听；发完牌后闲家便报听也称为天听 …
    如果发完牌之后有补花，补花之后报听也算天听。如果庄家在发完牌后有暗杠，则庄家
    不算天听".

    Called as ``seat`` declares 报听 (``with_discard``: 报听 with a discard
    on its turn, else without a tile).  The dealer's: with its first
    discard, no kong made since the deal.  The non-dealer's: without a tile
    "right after the deal", read as before the dealer's first discard
    (RULES.md "First-turn fans") — so one made in the claim window of that
    discard, once the tile is known, is a plain 报听.  The dealer's kong does
    not take the non-dealer's 天听 away (the seed names only the dealer's).
    """
    d = s.dealer
    if seat == d:
        return with_discard and s.discards_made[d] == 0 and s.kongs_made[d] == 0
    return (
        not with_discard
        and s.discards_made[d] == 0
        and s.draws[seat] == 0
        and s.discards_made[seat] == 0
    )


__all__ = ["earthly", "heavenly", "heavenly_ready", "human"]
