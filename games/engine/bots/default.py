"""The simplest legal default player (until the bots issue lands).

Rules of thumb, in order:

* always win when allowed (和 / 自摸 / 抢杠和);
* pre-deal and 加倍 choices: decline;
* a claim window: 碰 when the pung lowers the hand's shanten, else pass;
* its turn: discard the tile whose removal leaves the lowest shanten
  (ties: the highest tile index, i.e. honours first, then the rightmost);
  declare 报听 with that discard when it leaves the hand tenpai and the
  rule set has 报听.

Shanten comes from :mod:`games.rules.shanten` through
:mod:`games.engine.analysis`.
"""

from __future__ import annotations

from ...rules.tiles import ALL_TILES
from .. import analysis
from ..actions import Action, Discard, Double, Pass, PreDeal, Pung, Ready, Win
from ..hand import Hand
from ..state import Phase


def choose(hand: Hand, seat: int) -> Action | None:
    """Return the action this player takes for ``seat``, or ``None`` if not asked."""
    s = hand.state
    if s.phase is Phase.ENDED or not s.pending[seat]:
        return None
    legal = hand.legal_actions(seat)
    for a in legal:
        if isinstance(a, Win):
            return a
    if s.phase is Phase.PRE_DEAL:
        return PreDeal(seat, s.seq)
    if s.phase is Phase.DOUBLE:
        return Double(seat, s.seq, False)
    if s.phase in (Phase.CLAIM, Phase.ROB):
        for a in legal:
            if (
                isinstance(a, Pung)
                and s.last_discard is not None
                and _pung_helps(hand, seat, s.last_discard)
            ):
                return a
        return Pass(seat, s.seq)
    discards = [a for a in legal if isinstance(a, Discard)]
    if len(discards) == 1:
        return discards[0]
    best_tile, best = -1, 99
    kinds = [a.tile.index for a in discards]
    after = analysis.shanten_after_discards(
        s.concealed[seat], len(s.melds[seat]), s.wild, hand.ruleset, kinds
    )
    for i, sh in zip(kinds, after, strict=True):
        if sh < best or (sh == best and i > best_tile):
            best, best_tile = sh, i
    tile = ALL_TILES[best_tile]
    ready = Ready(seat, s.seq, tile)
    if best == 0 and ready in legal:
        return ready
    return Discard(seat, s.seq, tile)


def _pung_helps(hand: Hand, seat: int, tile: int) -> bool:
    s = hand.state
    melds = len(s.melds[seat])
    before = analysis.hand_shanten(s.concealed[seat], melds, s.wild, hand.ruleset)
    c = list(s.concealed[seat])
    c[tile] -= 2
    # 11−3m tiles with one more meld: the shanten after the best discard
    return analysis.hand_shanten(c, melds + 1, s.wild, hand.ruleset) < before
