"""The parts of a decomposition (划分): groups (chow, pung, kong, pair, 组合龙,
orphans …) and :class:`Decomposition`, one split of a complete hand.

Split out of :mod:`games.rules.decompose` (issue 15: one concept per file);
importable from there as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .melds import MeldKind
from .shanten import Shape
from .tiles import ALL_TILES, Tile, format_tiles


class GroupKind(StrEnum):
    """What a group of tiles is inside a decomposition."""

    CHOW = "chow"  # 顺子
    PUNG = "pung"  # 刻子
    KONG = "kong"  # 杠 (declared, melded or concealed)
    PAIR = "pair"  # 将 / 对子
    KNITTED = "knitted"  # 组合龙: 147/258/369 in three suits (9 tiles)


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a decomposition.

    Attributes:
        kind: chow, pung, kong, pair or knitted.
        tile: the lowest tile (a chow's first tile; the tile of a pung, kong or
            pair; for a knitted straight the ``1`` of its 147 suit).
        knitted: for a KNITTED group, its nine tile indices.
        concealed: True when no tile of it was claimed (暗): concealed-hand
            groups and concealed kongs.  A pung completed by a discarded
            winning tile is *not* concealed for 暗刻 counting; that is decided
            by the scorer (it depends on where the winning tile sits), not
            here.
        declared: True for a declared meld (吃/碰/明杠/暗杠).
    """

    kind: GroupKind
    tile: Tile
    concealed: bool = True
    declared: bool = False
    knitted: tuple[int, ...] = ()
    _text: str = field(default="", init=False, compare=False, repr=False)

    @property
    def index(self) -> int:
        """The tile index of :attr:`tile`."""
        return self.tile.index

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the group, sorted."""
        i = self.tile.index
        k = self.kind
        if k is GroupKind.CHOW:
            return (ALL_TILES[i], ALL_TILES[i + 1], ALL_TILES[i + 2])
        if k is GroupKind.PUNG:
            return (self.tile,) * 3
        if k is GroupKind.KONG:
            return (self.tile,) * 4
        if k is GroupKind.PAIR:
            return (self.tile,) * 2
        return tuple(ALL_TILES[j] for j in self.knitted)

    @property
    def claimed(self) -> bool:
        """True for a declared meld made with an opponent's tile (吃 碰 明杠)."""
        return self.declared and not self.concealed

    @property
    def is_triplet(self) -> bool:
        """Pung or kong (刻子, 杠 counts as a 刻子 for most fans)."""
        return self.kind is GroupKind.PUNG or self.kind is GroupKind.KONG

    def __str__(self) -> str:
        return _group_text(self)


def _group_text(g: Group) -> str:
    text = g._text
    if not text:
        text = format_tiles(g.tiles)
        if g.declared:
            text = f"[{text}]" if not g.concealed else f"[{text}]暗"
        object.__setattr__(g, "_text", text)  # groups are shared: kept once
    return text


# The six knitted straights, as the suit offsets of the 147, 258, 369 rows.
_PERMS = ((0, 9, 18), (0, 18, 9), (9, 0, 18), (9, 18, 0), (18, 0, 9), (18, 9, 0))
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(off + r for row, off in enumerate(p) for r in (row, row + 3, row + 6))
    for p in _PERMS
)
"""Tile indices of the six 组合龙 (147 in one suit, 258 in another, 369)."""


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a complete hand.

    Attributes:
        shape: the winning shape.
        groups: the groups; declared melds first, then concealed sets, the
            pair(s) last.  Seven pairs has seven pair groups; thirteen orphans
            and honours-and-knitted have none.  A knitted straight has one
            KNITTED group (its tiles in :attr:`knitted`).
        knitted: the nine tile indices of the 组合龙, or ``()``.
    """

    shape: Shape
    groups: tuple[Group, ...]
    knitted: tuple[int, ...] = ()
    # Derived once per decomposition, for the scorer's speed.
    sets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    chows: tuple[Group, ...] = field(default=(), init=False, compare=False)
    triplets: tuple[Group, ...] = field(default=(), init=False, compare=False)
    pair: Tile | None = field(default=None, init=False, compare=False)
    _text: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        chows: list[Group] = []
        trips: list[Group] = []
        sets: list[Group] = []
        chow, pung, kong = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG
        for g in self.groups:
            k = g.kind
            if k is chow:
                sets.append(g)
                chows.append(g)
            elif k is pung or k is kong:
                sets.append(g)
                trips.append(g)
        setattr_ = object.__setattr__
        setattr_(self, "sets", tuple(sets))
        setattr_(self, "chows", tuple(chows))
        setattr_(self, "triplets", tuple(trips))
        shape = self.shape
        if shape is Shape.REGULAR or shape is Shape.KNITTED_STRAIGHT:
            setattr_(self, "pair", self.groups[-1].tile)

    @classmethod
    def _make(
        cls,
        shape: Shape,
        groups: tuple[Group, ...],
        sets: tuple[Group, ...],
        chows: tuple[Group, ...],
        triplets: tuple[Group, ...],
        pair: Tile | None,
    ) -> Decomposition:
        """Build one whose derived fields the caller already has (no checks)."""
        # Filled as a _DecompositionDraft (same slots, plain attribute
        # stores) and then given its class: a quarter of the cost of the
        # slots' setters, which a frozen dataclass would need.
        self = _new(_DecompositionDraft)
        self.shape = shape
        self.groups = groups
        self.knitted = ()
        self.sets = sets
        self.chows = chows
        self.triplets = triplets
        self.pair = pair
        self._text = ""
        self.__class__ = cls  # type: ignore[assignment]
        return self  # type: ignore[return-value]

    @property
    def text(self) -> str:
        """The split in tile notation, e.g. ``"123m 456m 789m 111z 55p"``;
        declared melds in brackets (``[777z]``, ``[5555p]暗``)."""
        text = self._text
        if not text:
            shape = self.shape
            if shape is Shape.THIRTEEN_ORPHANS:
                text = "十三幺"
            elif shape is Shape.HONORS_AND_KNITTED:
                text = "全不靠"
            else:
                text = " ".join([g._text or _group_text(g) for g in self.groups])
            object.__setattr__(self, "_text", text)
        return text

    def __str__(self) -> str:
        return self.text


_new = object.__new__


class _DecompositionDraft:
    """A :class:`Decomposition` being filled by ``Decomposition._make``:
    the same slots in the same order, so its class can then be set."""

    __slots__ = Decomposition.__slots__
    shape: Shape
    groups: tuple[Group, ...]
    knitted: tuple[int, ...]
    sets: tuple[Group, ...]
    chows: tuple[Group, ...]
    triplets: tuple[Group, ...]
    pair: Tile | None
    _text: str


def _make_meld_group(kind: MeldKind, first: Tile) -> Group:
    if kind is MeldKind.CHI:
        return Group(GroupKind.CHOW, first, concealed=False, declared=True)
    if kind is MeldKind.PUNG:
        return Group(GroupKind.PUNG, first, concealed=False, declared=True)
    return Group(
        GroupKind.KONG,
        first,
        concealed=kind is MeldKind.CONCEALED_KONG,
        declared=True,
    )


# Groups are immutable values: one shared instance per (kind, tile, flags).
_MELD_GROUPS = {
    (kind, t.index): _make_meld_group(kind, t)
    for kind in MeldKind
    for t in ALL_TILES[:34]
}
_CODE_GROUPS = tuple(
    Group(GroupKind.PUNG if code & 1 else GroupKind.CHOW, ALL_TILES[code >> 1])
    for code in range(68)
)
_PAIR_GROUPS = tuple(Group(GroupKind.PAIR, t) for t in ALL_TILES[:34])


def _code_group(code: int) -> Group:
    return _CODE_GROUPS[code]
