"""Building a hand by clicking tiles: one click → the new notation.

The calculator page sends each click as a form field; :func:`apply_edit`
turns the current notation and that click into the new notation, so the
notation stays the only state (and the URL stays shareable).  Pure Python.

Clicks:

* ``tap=<tile>`` with ``mode``: ``hand`` (a concealed tile; the 14th is the
  winning tile), ``win`` (set the winning tile: replaces the last tile of a
  complete count, else adds it), ``chi`` (a chow from that tile up, the tile
  claimed), ``pung``, ``kong`` (明杠), ``concealed_kong`` (暗杠).  A flower
  always goes to the flowers.
* ``op``: ``del:c:<i>`` remove concealed tile ``i`` (as drawn: sorted, the
  winning tile last), ``del:m:<i>`` remove meld ``i``, ``del:f:<i>`` remove
  flower ``i``, ``claim:<i>:<k>`` mark tile ``k`` of meld ``i`` as the claimed
  one, ``clear``.
"""

from __future__ import annotations

from typing import Any

from games.rules.errors import RulesError
from games.rules.hand_notation import HandText, format_hand, parse_hand
from games.rules.melds import Meld, MeldKind
from games.rules.tiles import ALL_TILES, Tile

MODES = ("hand", "win", "chi", "pung", "kong", "concealed_kong")
"""What a palette click adds."""


class EditError(ValueError):
    """A click that cannot apply (``code``: ``chi_range``, ``bad_click``,
    ``unreadable``, ``too_many_copies``).  ``too_many_copies`` names the
    ``tile`` and the ``count`` of it the click would have made."""

    def __init__(self, code: str, message: str, *, tile: str = "", count: int = 0):
        super().__init__(message)
        self.code = code
        self.tile = tile
        self.count = count


COPIES = 4
"""Copies of each tile in the wall (flowers: one each, counted apart)."""


def drawn_order(hand: HandText) -> list[Tile]:
    """Concealed tiles as the page draws them: sorted, a 14th (winning) tile last."""
    tiles = list(hand.concealed)
    if hand.tile_count == 14 and tiles:
        win = tiles.pop()
        return sorted(tiles) + [win]
    return sorted(tiles)


def tile_counts(text: str) -> dict[str, int]:
    """Copies of each tile (``{"2p": 2}``) in ``text``, counting melds (a kong
    is 4) and concealed tiles; flowers never.  Empty when ``text`` does not
    parse (the answer says why)."""
    try:
        hand = parse_hand(text) if text.strip() else HandText()
    except RulesError:
        return {}
    counts = _copies(list(hand.melds), list(hand.concealed))
    return {str(t): n for t, n in sorted(counts.items())}


def full_kinds(text: str) -> list[str]:
    """The tiles (``"2p"``, …) of which ``text`` already holds all 4 copies
    (see :func:`tile_counts`).  The palette greys them out: a fifth click is
    refused (``too_many_copies``)."""
    return sorted(t for t, n in tile_counts(text).items() if n >= COPIES)


def _copies(melds: list[Meld], concealed: list[Tile]) -> dict[Tile, int]:
    counts: dict[Tile, int] = {}
    for tile in [*concealed, *(t for m in melds for t in m.tiles)]:
        counts[tile] = counts.get(tile, 0) + 1
    return counts


def _check_copies(
    before: dict[Tile, int], melds: list[Meld], concealed: list[Tile]
) -> None:
    """Refuse a click that takes a tile past 4 copies (a hand typed with five
    already is the answer's error, not the click's: other clicks still apply).

    Raises:
        EditError: ``too_many_copies`` with the first such tile and its count.
    """
    after = _copies(melds, concealed)
    for tile in sorted(after):
        if after[tile] > COPIES and after[tile] > before.get(tile, 0):
            raise EditError(
                "too_many_copies",
                f"{after[tile]} copies of {tile}",
                tile=str(tile),
                count=after[tile],
            )


def _write(melds: list[Meld], concealed: list[Tile], flowers: list[Tile]) -> str:
    total = len(concealed) + 3 * len(melds)
    return format_hand(melds, concealed, flowers, win_tile_last=total == 14)


def apply_edit(text: str, *, tap: str = "", mode: str = "hand", op: str = "") -> str:
    """Return the notation after one click (see the module docstring).

    Raises:
        EditError: the current text does not parse (``unreadable``), a chi
            that does not fit (``chi_range``), a click that would make a fifth
            copy of a tile (``too_many_copies``; the wall has 4 of each), or a
            malformed click.
    """
    try:
        hand = parse_hand(text) if text.strip() else HandText()
    except RulesError as exc:
        raise EditError("unreadable", str(exc)) from None
    melds = list(hand.melds)
    concealed = drawn_order(hand)
    flowers = list(hand.flowers)
    if op:
        return _apply_op(op, melds, concealed, flowers)
    if not tap:
        return _write(melds, concealed, flowers)
    try:
        tile = Tile.parse(tap)
    except RulesError:
        raise EditError("bad_click", f"not a tile: {tap!r}") from None
    if tile.is_flower:
        flowers.append(tile)
        return _write(melds, concealed, flowers)
    if mode not in MODES:
        raise EditError("bad_click", f"unknown mode {mode!r}")
    before = _copies(melds, concealed)
    if mode == "hand":
        concealed.append(tile)
    elif mode == "win":
        if len(concealed) + 3 * len(melds) == 14:
            concealed[-1] = tile
        else:
            concealed.append(tile)
    elif mode == "chi":
        if not tile.is_suited or tile.rank > 7:
            raise EditError("chi_range", f"no chow starts at {tile}")
        run = (tile, ALL_TILES[tile.index + 1], ALL_TILES[tile.index + 2])
        melds.append(Meld(MeldKind.CHI, run, tile))
    elif mode == "pung":
        melds.append(Meld(MeldKind.PUNG, (tile,) * 3, tile))
    elif mode == "kong":
        melds.append(Meld(MeldKind.KONG, (tile,) * 4, tile))
    else:
        melds.append(Meld(MeldKind.CONCEALED_KONG, (tile,) * 4, None))
    _check_copies(before, melds, concealed)
    return _write(melds, concealed, flowers)


def _apply_op(
    op: str, melds: list[Meld], concealed: list[Tile], flowers: list[Tile]
) -> str:
    parts = op.split(":")
    try:
        if parts == ["clear"]:
            return ""
        if parts[0] == "del" and len(parts) == 3:
            where, i = parts[1], int(parts[2])
            lists: dict[str, list[Any]] = {"c": concealed, "m": melds, "f": flowers}
            target = lists[where]
            if not 0 <= i < len(target):
                raise IndexError(i)
            del target[i]
            return _write(melds, concealed, flowers)
        if parts[0] == "claim" and len(parts) == 3:
            i, k = int(parts[1]), int(parts[2])
            m = melds[i]
            if m.kind is MeldKind.CONCEALED_KONG or not 0 <= k < len(m.tiles):
                raise IndexError(k)
            melds[i] = Meld(m.kind, m.tiles, m.tiles[k])
            return _write(melds, concealed, flowers)
    except (ValueError, KeyError, IndexError):
        pass
    raise EditError("bad_click", f"unknown click {op!r}")
