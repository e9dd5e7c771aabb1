"""Pure-Python mahjong rules engine: tiles, hand analysis, fan scoring, rule sets.

No Django imports anywhere in this package; standard library only.
"""

from .errors import IllegalHandError, InvalidHandError, NotationError, RulesError
from .melds import Meld, MeldKind
from .shanten import ALL_SHAPES, Shape, shanten, shanten_by_shape, useful_tiles
from .tiles import ALL_TILES, Tile, format_tiles, from_counts, parse_tiles, to_counts
from .waits import is_winning, unseen_counts, waits, waits_remaining

__all__ = [
    "ALL_TILES",
    "IllegalHandError",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "NotationError",
    "RulesError",
    "Tile",
    "format_tiles",
    "from_counts",
    "parse_tiles",
    "to_counts",
    "ALL_SHAPES",
    "Shape",
    "shanten",
    "shanten_by_shape",
    "useful_tiles",
    "is_winning",
    "unseen_counts",
    "waits",
    "waits_remaining",
]
