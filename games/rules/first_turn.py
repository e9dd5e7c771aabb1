"""First-turn wins and 天听: which flag combinations can happen (seeds 000, 001).

The seeds' conditions, word for word in both (seed 000 二人麻将 牌型范例及规则结算;
seed 001 大众番种):

* 天胡 "庄家在发完牌就和牌。如果庄家有补花，在补完花后就和牌也算。如果庄家在发完牌后
  有暗杠，那么不算天和" — the dealer (东, "以庄为东风位"), self-drawn, no meld.
* 地胡 "闲家摸到第一张牌就和牌 … 如果闲家抓牌前有人吃碰杠（包括暗杠），那么不算地和" —
  the non-dealer, self-drawn, no meld.
* 人胡 "庄家打出的第一张牌闲家就和牌称为人和.如果庄家出牌前有暗杠，那么不算人和" — the
  non-dealer, on a discard (not a robbed kong), no meld (it has not had a turn).
* 天听 "庄家打出第一张牌时报听称为天听；发完牌后闲家便报听也称为天听。
  天听要在和牌后才算番" — the dealer's 报听 made with its first discard,
  or the non-dealer's made right after the deal, before the dealer's
  first discard (games/rules/RULES.md, "First-turn fans").  So the
  dealer's 天听 never goes with 天胡 (which comes before any discard),
  while the non-dealer's goes with 地胡 or 人胡; a 人胡 after 天听 is won
  on the first discard after that 报听: it is also 报听一发
  ("报听后，对家打出的第一张牌点炮").

:func:`check_first_turn` refuses what these rules make impossible; the
engine (games/engine/first_turn.py) sets the flags exactly when they hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InvalidHandError
from .melds import Meld
from .situation import EAST, WinSituation

FIRST_TURN_FLAGS = ("heavenly", "earthly", "human")
"""WinSituation fields of the first-turn wins (天胡 地胡 人胡); one at most."""


def first_turn_win(situation: WinSituation) -> str | None:
    """The first-turn flag set on ``situation`` (``"heavenly"`` …), or ``None``.

    Raises:
        InvalidHandError: more than one is set.
    """
    firsts = [n for n in FIRST_TURN_FLAGS if getattr(situation, n)]
    if len(firsts) > 1:
        raise InvalidHandError(f"only one of heavenly/earthly/human, got {firsts}")
    return firsts[0] if firsts else None


def ready_first_implied(situation: WinSituation) -> bool:
    """报听一发 holds: set, or implied by 人胡 after 天听; never self-drawn.

    Seed 000 报听一发 "报听后，对家打出的第一张牌点炮" — a win on a discard.  The
    non-dealer's 天听 is declared before the dealer's first discard, so a
    人胡 after it is always won on the first discard after the 报听 (issue 11
    §3: "the 报听 of 报听一发 is that 天听").  A ``ready_first`` flag on a
    self-drawn win is scored without the fan (RULES.md).
    """
    s = situation
    if s.self_drawn:
        return False
    return s.ready_first or (s.human and s.heavenly_ready)


def check_first_turn(situation: WinSituation, melds: Sequence[Meld] = ()) -> None:
    """Refuse first-turn and 天听 flags that the seeds make impossible.

    Args:
        situation: the win (its ``heavenly``, ``earthly``, ``human``,
            ``heavenly_ready``, ``ready``, ``ready_first``, ``self_drawn``,
            ``kong`` and ``seat_wind`` are read).
        melds: the winner's declared melds.

    Raises:
        InvalidHandError: with a message naming the flags and quoting the
            seed (see the module docstring): two first-turn wins; 天胡/地胡
            not self-drawn or 人胡 self-drawn; 天胡 not the dealer's (seat
            wind 1z) or 地胡/人胡 the dealer's; any of them with a meld;
            人胡 on a robbed kong; 天胡 with a 报听; 报听一发 on the dealer's
            first discard without 天听.
    """
    s = situation
    if not (s.heavenly or s.earthly or s.human):
        return  # no first-turn win: nothing to refuse (almost every score)
    first = first_turn_win(s)
    if first is None:
        return
    if first in ("heavenly", "earthly") and not s.self_drawn:
        raise InvalidHandError(f"{first} (天胡/地胡) is a self-drawn win")
    if first == "human" and s.self_drawn:
        raise InvalidHandError("human (人胡) is a win on the dealer's first discard")
    if first == "heavenly" and s.seat_wind != EAST:
        raise InvalidHandError(
            "heavenly (天胡) is the dealer's: seat wind 1z (seed 000 以庄为东风位)"
        )
    if first != "heavenly" and s.seat_wind == EAST:
        raise InvalidHandError(
            f"{first} (地胡/人胡) is the non-dealer's: seat wind not 1z"
        )
    if melds:
        why = {
            "heavenly": "如果庄家在发完牌后有暗杠，那么不算天和",
            "earthly": "如果闲家抓牌前有人吃碰杠（包括暗杠），那么不算地和",
            "human": "闲家就和牌: the winner has not had a turn",
        }[first]
        raise InvalidHandError(
            f"{first} (天胡/地胡/人胡) with a meld is impossible (seed 000: {why})"
        )
    if first == "human" and s.kong:
        raise InvalidHandError(
            "human (人胡) wins on the dealer's first discard, not a robbed kong"
        )
    if first == "heavenly" and (s.ready or s.heavenly_ready or s.ready_first):
        raise InvalidHandError(
            "heavenly (天胡) comes before any 报听: the dealer declares 报听 with"
            " its first discard (seed 000: 庄家打出第一张牌时报听称为天听)"
        )
    if first == "human" and s.ready_first and not s.heavenly_ready:
        raise InvalidHandError(
            "ready_first (报听一发) with human (人胡) needs heavenly_ready (天听):"
            " only 天听 comes before the dealer's first discard"
        )


__all__ = [
    "FIRST_TURN_FLAGS",
    "check_first_turn",
    "first_turn_win",
    "ready_first_implied",
]
