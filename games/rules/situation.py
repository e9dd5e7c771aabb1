"""The winning situation: everything about a win that the tiles alone don't tell."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import Tile

EAST = Tile(27)
SOUTH = Tile(28)
WEST = Tile(29)
NORTH = Tile(30)


@dataclass(frozen=True, slots=True)
class WinSituation:
    """How a hand was won.  Every flag defaults to the plain case.

    Attributes (MCR meaning, seeds 002/003/004 unless noted):
        win_tile: the tile that completed the hand.
        self_drawn: 自摸 (drawn from the wall, including a replacement draw).
        last_tile: 和绝张 — the winning tile is the last of its kind (the other
            three are visible on the table).
        kong: with ``self_drawn`` 杠上开花 (won on a kong's replacement draw),
            otherwise 抢杠和 (robbed an added kong).
        wall_last: with ``self_drawn`` 妙手回春 (the wall's last tile),
            otherwise 海底捞月 (the last discard).
        seat_wind, round_wind: ``1z``–``4z``.
        flowers: flowers the winner has set aside (``1f``–``8f``).

    Two-player extras (seeds 000 and 001):
        heavenly: 天胡 — the dealer wins on the deal (after 补花, before any kong).
        earthly: 地胡 — the non-dealer wins with the first draw.
        human: 人胡 — the non-dealer wins on the dealer's first discard.
        heavenly_ready: 天听 — 报听 declared at the first chance (scored only on a win).
        ready: 报听 was declared before the win.
        ready_first: 报听一发 — won on the opponent's first discard after
            报听 (seed 000).
        bonus_tiles: 加番牌 of the hand (seed 001: +10 fan per bonus tile held,
            melds included).
        wild: the 财神 kind of the hand, or ``None`` (seed 002).
    """

    win_tile: Tile
    self_drawn: bool = False
    last_tile: bool = False
    kong: bool = False
    wall_last: bool = False
    seat_wind: Tile = EAST
    round_wind: Tile = EAST
    flowers: tuple[Tile, ...] = ()
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    heavenly_ready: bool = False
    ready: bool = False
    ready_first: bool = False
    bonus_tiles: tuple[Tile, ...] = ()
    wild: Tile | None = None
