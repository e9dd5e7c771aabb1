"""Tiles and their text notation.

Notation (DEVELOPERS.md): ``1m…9m`` 万 (characters), ``1p…9p`` 筒/饼 (dots),
``1s…9s`` 条 (bamboo), ``1z…7z`` = 东 南 西 北 白 发 中, ``1f…8f`` =
春 夏 秋 冬 梅 兰 竹 菊.  Grouped forms share a suit letter:
``"123m456p11z"`` is 1m 2m 3m 4p 5p 6p 1z 1z.

Every tile kind has a small integer index, used for count vectors:

* 0–8 ``1m``–``9m``, 9–17 ``1p``–``9p``, 18–26 ``1s``–``9s``,
* 27–33 ``1z``–``7z`` (27 东, 28 南, 29 西, 30 北, 31 白, 32 发, 33 中),
* 34–41 ``1f``–``8f`` (flowers; never part of a count vector of 34).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import NotationError

SUITS = "mpsz"
"""Suit letters of the 34 playing kinds, in index order."""

NUM_KINDS = 34
"""Number of playing tile kinds (flowers excluded)."""

NUM_FLOWERS = 8

_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

_ZH_NUMERALS = "一二三四五六七八九"
_ZH_HONORS = "东南西北白发中"
_ZH_FLOWERS = "春夏秋冬梅兰竹菊"
_EN_HONORS = ("East", "South", "West", "North", "White", "Green", "Red")
_EN_FLOWERS = (
    "Spring",
    "Summer",
    "Autumn",
    "Winter",
    "Plum",
    "Orchid",
    "Bamboo",
    "Chrysanthemum",
)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile kind, identified by its index (see the module docstring).

    Immutable, hashable and ordered by index, so ``sorted(tiles)`` gives the
    usual 万 筒 条 字 花 order.  Build one with :meth:`parse` or
    :meth:`from_index`; ``str(tile)`` gives the notation back.

    Raises:
        ValueError: ``index`` outside 0–41.
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_KINDS + NUM_FLOWERS:
            raise ValueError(f"tile index {self.index} outside 0–41")

    # -- construction -------------------------------------------------------
    @classmethod
    def from_index(cls, index: int) -> Tile:
        """Return the shared instance for ``index`` (0–41)."""
        return ALL_TILES[index]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile such as ``"5m"`` or ``"7z"``.

        Raises:
            NotationError: not exactly one well-formed tile.
        """
        got = _BY_TEXT.get(text)
        if got is not None:
            return got
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(
                f"expected exactly one tile, got {len(tiles)}", text=text, position=None
            )
        return tiles[0]

    # -- attributes ---------------------------------------------------------
    @property
    def suit(self) -> str:
        """``'m'``, ``'p'``, ``'s'``, ``'z'`` or ``'f'``."""
        if self.index >= 34:
            return "f"
        return SUITS[self.index // 9] if self.index < 27 else "z"

    @property
    def rank(self) -> int:
        """1–9 for suited tiles, 1–7 for honours, 1–8 for flowers."""
        return self.index - _SUIT_OFFSET[self.suit] + 1

    @property
    def is_suited(self) -> bool:
        """True for 万/筒/条 (序数牌)."""
        return self.index < 27

    @property
    def is_honor(self) -> bool:
        """True for winds and dragons (字牌)."""
        return 27 <= self.index < 34

    @property
    def is_wind(self) -> bool:
        """True for 东南西北."""
        return 27 <= self.index < 31

    @property
    def is_dragon(self) -> bool:
        """True for 白发中 (箭牌)."""
        return 31 <= self.index < 34

    @property
    def is_flower(self) -> bool:
        """True for the eight flowers (花牌)."""
        return self.index >= 34

    @property
    def is_terminal(self) -> bool:
        """True for suited 1 and 9 (老头牌)."""
        return self.is_suited and self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        """True for 幺九牌: suited 1 and 9 and every honour."""
        return self.is_terminal or self.is_honor

    @property
    def zh(self) -> str:
        """Chinese name, e.g. ``五万``, ``三筒``, ``发``, ``梅``."""
        s, r = self.suit, self.rank
        if s == "m":
            return f"{_ZH_NUMERALS[r - 1]}万"
        if s == "p":
            return f"{_ZH_NUMERALS[r - 1]}筒"
        if s == "s":
            return f"{_ZH_NUMERALS[r - 1]}条"
        if s == "z":
            return _ZH_HONORS[r - 1]
        return _ZH_FLOWERS[r - 1]

    @property
    def en(self) -> str:
        """English name, e.g. ``5 Characters``, ``Green``, ``Plum``."""
        s, r = self.suit, self.rank
        if s in "mps":
            return f"{r} {dict(m='Characters', p='Dots', s='Bamboo')[s]}"
        if s == "z":
            return _EN_HONORS[r - 1]
        return _EN_FLOWERS[r - 1]

    def __str__(self) -> str:
        try:
            return _TEXTS[self.index]
        except NameError:  # while ALL_TILES is being built
            return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


ALL_TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS + NUM_FLOWERS))
"""Every tile kind, 34 playing kinds then 8 flowers, by index."""

_TEXTS: tuple[str, ...] = tuple(f"{t.rank}{t.suit}" for t in ALL_TILES)
_BY_TEXT: dict[str, Tile] = {text: t for text, t in zip(_TEXTS, ALL_TILES, strict=True)}

PLAYING_KINDS: tuple[Tile, ...] = ALL_TILES[:NUM_KINDS]
FLOWERS: tuple[Tile, ...] = ALL_TILES[NUM_KINDS:]
WINDS: tuple[Tile, ...] = ALL_TILES[27:31]
DRAGONS: tuple[Tile, ...] = ALL_TILES[31:34]
HONORS: tuple[Tile, ...] = ALL_TILES[27:34]
TERMINALS_AND_HONORS: tuple[Tile, ...] = tuple(
    t for t in PLAYING_KINDS if t.is_terminal_or_honor
)


def parse_tiles(text: str) -> list[Tile]:
    """Parse grouped notation such as ``"123m456p11z 5f"`` into tiles, in order.

    Spaces are ignored.  Digits must be followed (eventually) by a suit letter;
    ``0`` is not a rank; honours go up to ``7z``, flowers to ``8f``.

    Raises:
        NotationError: an unknown character, a digit out of range for its
            suit, or digits left without a suit letter (with the position).
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (rank, position)
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if "1" <= ch <= "9":
            pending.append((int(ch), pos))
        elif ch == "0":
            raise NotationError("rank 0 does not exist", text=text, position=pos)
        elif ch in _SUIT_OFFSET:
            if not pending:
                raise NotationError(
                    f"suit letter {ch!r} with no ranks before it",
                    text=text,
                    position=pos,
                )
            for rank, rpos in pending:
                if rank > _SUIT_SIZE[ch]:
                    raise NotationError(
                        f"rank {rank} is out of range for suit {ch!r}"
                        f" (1–{_SUIT_SIZE[ch]})",
                        text=text,
                        position=rpos,
                    )
                tiles.append(ALL_TILES[_SUIT_OFFSET[ch] + rank - 1])
            pending = []
        else:
            raise NotationError(
                f"unexpected character {ch!r} (use 1-9 and m p s z f)",
                text=text,
                position=pos,
            )
    if pending:
        raise NotationError(
            "ranks without a suit letter at the end",
            text=text,
            position=pending[0][1],
        )
    return tiles


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Write tiles in grouped notation: ``[1m, 2m, 5p]`` → ``"12m5p"``.

    With ``sort=False`` the given order is kept and a suit letter is written
    whenever the suit changes.
    """
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run: list[str] = []
    suit = ""
    for t in seq:
        if t.suit != suit and run:
            out.append("".join(run) + suit)
            run = []
        suit = t.suit
        run.append(str(t.rank))
    if run:
        out.append("".join(run) + suit)
    return "".join(out)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """Return a count vector of length 34 (index → copies).

    Raises:
        ValueError: a flower is among the tiles (flowers are never counted).
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t.index >= NUM_KINDS:
            raise ValueError(f"flower {t} has no place in a count vector")
        counts[t.index] += 1
    return counts


def from_counts(counts: Iterable[int]) -> list[Tile]:
    """Inverse of :func:`to_counts`: tiles in index order."""
    out: list[Tile] = []
    for i, c in enumerate(counts):
        if c:
            out += (ALL_TILES[i],) * c
    return out
