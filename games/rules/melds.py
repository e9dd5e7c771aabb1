"""Declared melds (副露): 吃 chi, 碰 pung, 明杠 kong, 暗杠 concealed kong."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidHandError
from .tiles import Tile, format_tiles, parse_tiles


class MeldKind(StrEnum):
    """Kind of a declared meld; the value is the CLI/JSON spelling."""

    CHI = "chi"
    PUNG = "pung"
    KONG = "kong"
    CONCEALED_KONG = "concealed_kong"


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld set on the table (or a concealed kong).

    Attributes:
        kind: what it is.
        tiles: its tiles, sorted (3 for chi/pung, 4 for kongs).
        claimed: the tile taken from the opponent's discard, or ``None`` for a
            concealed kong.  For a 加杠 (added kong) it is the tile of the
            original pung's claim.

    Raises:
        InvalidHandError: tiles that do not form the stated kind (a chi of
            honours, a pung of two kinds, a claimed tile not in the meld …).
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None

    def __post_init__(self) -> None:
        tiles = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", tiles)
        n = 3 if self.kind in (MeldKind.CHI, MeldKind.PUNG) else 4
        if len(tiles) != n:
            raise InvalidHandError(
                f"a {self.kind.value} needs {n} tiles, got {len(tiles)}"
            )
        if any(t.is_flower for t in tiles):
            raise InvalidHandError("flowers cannot be melded")
        if self.kind is MeldKind.CHI:
            a, b, c = tiles
            if not (
                a.is_suited
                and a.suit == c.suit
                and b.index == a.index + 1
                and c.index == a.index + 2
            ):
                raise InvalidHandError(f"{format_tiles(tiles)} is not a sequence")
        elif len(set(tiles)) != 1:
            raise InvalidHandError(f"{format_tiles(tiles)} is not {n} of a kind")
        if self.kind is MeldKind.CONCEALED_KONG:
            if self.claimed is not None:
                raise InvalidHandError("a concealed kong has no claimed tile")
        elif self.claimed is not None and self.claimed not in tiles:
            raise InvalidHandError(f"claimed tile {self.claimed} is not in the meld")

    @classmethod
    def parse(
        cls, kind: str | MeldKind, tiles: str, claimed: str | None = None
    ) -> Meld:
        """Build from notation: ``Meld.parse("chi", "456p", "5p")``.

        Raises:
            NotationError: malformed notation.
            InvalidHandError: see the class docstring.
            ValueError: unknown kind.
        """
        return cls(
            MeldKind(kind),
            tuple(parse_tiles(tiles)),
            Tile.parse(claimed) if claimed else None,
        )

    @property
    def first(self) -> Tile:
        """The lowest tile (the tile of a pung/kong)."""
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand concealed."""
        return self.kind is MeldKind.CONCEALED_KONG

    def __str__(self) -> str:
        return f"{self.kind.value}:{format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        c = f", {str(self.claimed)!r}" if self.claimed else ""
        return f"Meld.parse({self.kind.value!r}, {format_tiles(self.tiles)!r}{c})"
