"""The example value and the helpers of the example tables."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..hand_notation import HandText, parse_hand
from ..situation import WinSituation
from ..tiles import Tile, parse_tiles

_TILE_FIELDS = ("seat_wind", "round_wind", "wild")
_TILES_FIELDS = ("bonus_tiles",)


@dataclass(frozen=True, slots=True)
class Example:
    """One example hand.

    Attributes:
        hand: calculator notation, winning tile last (``[777z]11123m...5m``).
        situation: the :class:`WinSituation` fields that differ from the
            default (a discard win, East seat, East round), tiles in notation:
            ``{"self_drawn": True, "seat_wind": "3z"}``.  The winning tile and
            the flowers come from ``hand``.
    """

    hand: str
    situation: dict[str, object] = field(default_factory=dict, hash=False)

    def win_situation(self, win_tile: Tile, flowers: tuple[Tile, ...]) -> WinSituation:
        """The :class:`WinSituation` of this example's win.

        Raises:
            NotationError: a tile field that is not tile notation.
            TypeError: a field that :class:`WinSituation` does not have.
        """
        values: dict[str, Any] = {}
        for name, value in self.situation.items():
            if name in _TILE_FIELDS:
                values[name] = Tile.parse(str(value))
            elif name in _TILES_FIELDS:
                values[name] = tuple(parse_tiles(str(value)))
            else:
                values[name] = value
        return WinSituation(win_tile=win_tile, flowers=flowers, **values)


def ex(hand: str, **situation: object) -> Example:
    """Shorthand: ``ex("123m...", self_drawn=True)``."""
    return Example(hand, dict(situation))


def parsed(example: Example) -> tuple[HandText, list[Tile], WinSituation]:
    """``(hand, standing tiles without the winning tile, situation)``: the
    arguments :func:`games.rules.api.score_hand` takes (with ``hand.melds``).

    Raises:
        NotationError, InvalidHandError: a malformed example.
    """
    hand = parse_hand(example.hand)
    tiles = list(hand.concealed)
    win = tiles.pop()
    return hand, tiles, example.win_situation(win, hand.flowers)


def translate(example: Example, old: str, new: str) -> Example:
    """The same example with suit letter ``old`` read as ``new`` (``m`` → ``s``).

    Tile-valued situation fields (``bonus_tiles``, ``wild``) are translated too.
    """
    tile_fields = (*_TILE_FIELDS, *_TILES_FIELDS)
    situation = {
        k: v.replace(old, new) if k in tile_fields and isinstance(v, str) else v
        for k, v in example.situation.items()
    }
    return replace(example, hand=example.hand.replace(old, new), situation=situation)


DEAD: dict[str, frozenset[str]] = {}
"""Fans listed by a rule set that can never count there (filled in
:mod:`games.rules.examples.rulesets`)."""
