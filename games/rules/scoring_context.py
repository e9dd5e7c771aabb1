"""What a fan condition reads: the facts of one winning hand
(:class:`HandFacts`) and one decomposition of it (:class:`ScoringContext`).

Split out of :mod:`games.rules.scoring` (issue 15: one concept per file);
importable from there as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any, TypeVar

from .decompose import (
    Decomposition,
    Group,
    GroupKind,
    has_other_wait_of_complete,
    regular_waits,
    seven_pairs_waits,
)
from .melds import Meld, MeldKind
from .scoring_features import CLOSED, EDGE, SINGLE, _hand_features
from .shanten import Shape
from .situation import WinSituation
from .tiles import ALL_TILES, NUM_KINDS, Tile

T = TypeVar("T")


class HandFacts:
    """Everything about a winning hand that does not depend on how it is split.

    Built once per :func:`score` call and shared by every
    :class:`ScoringContext`.  Attributes (tile indices 0–33):

    * ``melds`` — declared melds; ``situation`` — the :class:`WinSituation`.
    * ``win`` — index of the winning tile.
    * ``concealed`` — count vector (34) of the standing tiles *with* the
      winning tile; ``standing`` — the same without it (13 − 3·melds tiles).
    * ``counts`` — count vector of every tile of the hand, melds included
      (a kong counts 4).  ``kinds`` — indices with a non-zero count; ``mask``
      — the same as a bit set (bit ``i`` for tile index ``i``).
    * ``suits`` — bit set of suits present (1 万, 2 筒, 4 条); ``winds``,
      ``dragons`` — whether any wind / dragon tile is present.
    * flags, after the plausibility rules of seed 003: ``self_drawn``,
      ``last_tile`` (和绝张; also true when the other three copies are in
      one's own melds), ``replacement`` (杠上开花), ``robbing`` (抢杠和),
      ``last_draw`` (妙手回春), ``last_claim`` (海底捞月).
    * ``melded`` — number of declared melds that are not concealed kongs.
    * ``kongs``, ``concealed_kongs``, ``melded_kongs``.
    * ``features`` — the split-independent features (:data:`FEATURES`).
    """

    __slots__ = (
        "melds",
        "situation",
        "win",
        "standing",
        "concealed",
        "counts",
        "mask",
        "suits",
        "winds",
        "dragons",
        "melded",
        "kongs",
        "concealed_kongs",
        "melded_kongs",
        "self_drawn",
        "last_tile",
        "replacement",
        "robbing",
        "last_draw",
        "last_claim",
        "features",
        "_unique",
        "_kinds",
        "_four",
    )

    def __init__(
        self,
        standing: Sequence[int],
        melds: Sequence[Meld],
        situation: WinSituation,
        _known: tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
        | None = None,
    ) -> None:
        # _known: (concealed, counts, mask, melded, kongs, concealed kongs)
        # when the caller has them already (see _prepare).
        self.melds = melds = tuple(melds)
        self.situation = situation
        win = situation.win_tile.index
        self.win = win
        self.standing = tuple(standing)
        if _known is not None:
            self.concealed, counts_t, mask, melded, kongs, ckongs = _known
            self.counts = counts_t
        else:
            conc = list(standing)
            conc[win] += 1
            self.concealed = tuple(conc)
            melded = kongs = ckongs = 0
            if melds:
                counts = conc
                ckind = MeldKind.CONCEALED_KONG
                kkind = MeldKind.KONG
                for m in melds:
                    for t in m.tiles:
                        counts[t.index] += 1
                    k = m.kind
                    if k is ckind:
                        ckongs += 1
                        kongs += 1
                    else:
                        melded += 1
                        if k is kkind:
                            kongs += 1
                self.counts = tuple(counts)
            else:
                self.counts = self.concealed
            counts_t = self.counts
            mask = 0
            for i, n in enumerate(counts_t):
                if n:
                    mask |= 1 << i
        self.mask = mask
        self.suits = (
            (1 if mask & 0x1FF else 0)
            | (2 if mask & 0x3FE00 else 0)
            | (4 if mask & 0x7FC0000 else 0)
        )
        self.winds = bool(mask & (0xF << 27))
        self.dragons = bool(mask & (0x7 << 31))
        self.melded = melded
        self.kongs = kongs
        self.concealed_kongs = ckongs
        self.melded_kongs = kongs - ckongs
        sd = situation.self_drawn
        self.self_drawn = sd
        in_melds = counts_t[win] - self.concealed[win]
        self.last_tile = (
            situation.last_tile and self.concealed[win] == 1
        ) or in_melds == 3
        self.replacement = sd and situation.kong and kongs > 0
        self.robbing = (not sd) and situation.kong
        self.last_draw = sd and situation.wall_last
        self.last_claim = (not sd) and situation.wall_last
        self._unique: bool | None = None
        self._kinds: tuple[int, ...] | None = None
        self._four = 4 in counts_t
        self.features = _hand_features(self)

    @classmethod
    def _of(
        cls,
        melds: tuple[Meld, ...],
        situation: WinSituation,
        standing: tuple[int, ...],
        known: tuple[tuple[int, ...], tuple[int, ...], int, int, int, int],
        four: bool,
    ) -> HandFacts:
        """``HandFacts(standing, melds, situation, known)`` for a caller that
        has checked the input and counted the tiles (:func:`_prepare`):
        the same attributes, set without the general path's recounting
        (``four``: some kind has four tiles in ``known``'s counts)."""
        self = _new(cls)
        conc, counts, mask, melded, kongs, ckongs = known
        self.melds = melds
        self.situation = situation
        win = situation.win_tile.index
        self.win = win
        self.standing = standing
        self.concealed = conc
        self.counts = counts
        self.mask = mask
        self.suits = _SUITS_OF[mask & 0x1FF != 0][mask & 0x3FE00 != 0][
            mask & 0x7FC0000 != 0
        ]
        self.winds = mask & _WIND_MASK != 0
        self.dragons = mask & _DRAGON_MASK != 0
        self.melded = melded
        self.kongs = kongs
        self.concealed_kongs = ckongs
        self.melded_kongs = kongs - ckongs
        sd = situation.self_drawn
        self.self_drawn = sd
        kong = situation.kong
        wall = situation.wall_last
        self.last_tile = (situation.last_tile and conc[win] == 1) or (
            counts[win] - conc[win] == 3
        )
        if sd:
            self.replacement = kong and kongs > 0
            self.robbing = False
            self.last_draw = wall
            self.last_claim = False
        else:
            self.replacement = False
            self.robbing = kong
            self.last_draw = False
            self.last_claim = wall
        self._unique = None
        self._kinds = None
        self._four = four
        self.features = _hand_features(self)
        return self

    @property
    def kinds(self) -> tuple[int, ...]:
        """Tile indices with a non-zero count, ascending."""
        got = self._kinds
        if got is None:
            c = self.counts
            got = self._kinds = tuple(compress(_KIND_RANGE, c))
        return got

    def unique_regular_wait(self, pair: int) -> bool:
        """True when the standing tiles wait on one tile only (独听), for a
        hand with a regular split whose pair is tile ``pair`` (any one: the
        answer is the hand's, kept after the first call).

        Waits are every tile completing the standing tiles as a regular hand
        or (with no melds) as seven pairs, a fifth copy allowed (a formal
        wait on a tile one holds all four of still counts).
        """
        if self._unique is None:
            win = self.win
            unique = not has_other_wait_of_complete(self.standing, win, pair)
            # With more than eight kinds, the standing tiles have more than
            # seven: no seven-pairs wait (one bit count, not a scan).
            if unique and not self.melds and self.mask.bit_count() <= 8:
                unique = seven_pairs_waits(self.standing) <= {win}
            self._unique = unique
        return self._unique


class ScoringContext:
    """What a fan condition reads: one decomposition of one winning hand.

    Attributes:
        hand: the :class:`HandFacts` shared by every decomposition.
        decomposition: the split being scored; ``shape`` its shape.
        groups: all its groups (declared melds, concealed sets, pair(s)).
        sets: the groups that are sets (chows, pungs, kongs), melds included;
            a 组合龙 is not a set here (see ``knitted``).
        chows, triplets: the chows / the pungs and kongs among ``sets``.
        pair: the pair's tile (regular and 组合龙 shapes) or ``None``.
        knitted: the 组合龙's nine tile indices, or ``()``.
        win_group: the group the winning tile is taken to complete (a
            concealed chow when it can be one, else a concealed pung, else the
            pair), or ``None`` for shapes without groups.
        wait: ``"edge"`` 边张, ``"closed"`` 坎张, ``"single"`` 单钓将 or
            ``None`` — set only when the hand waited on that one tile (独听);
            when several positions fit, edge > closed > single.
        wait_positions: every position the winning tile can take in this
            split's concealed groups (the wait type candidates), whether or
            not the hand waited on that tile alone.
        concealed_pungs: 暗刻 count, concealed kongs included; a pung
            completed by a discarded winning tile is not concealed unless the
            winning tile can sit in a concealed chow instead.
        nothing_else: True only in the fallback pass (see module docstring).
        cache: scratch space for analyses shared by several fans of this
            decomposition (see :meth:`memo`).
    """

    __slots__ = (
        "hand",
        "situation",
        "decomposition",
        "shape",
        "groups",
        "knitted",
        "nothing_else",
        "cache",
        "sets",
        "chows",
        "triplets",
        "pair",
        "win_group",
        "wait",
        "wait_positions",
        "concealed_pungs",
    )

    def __init__(self, hand: HandFacts, decomposition: Decomposition) -> None:
        self.hand = hand
        self.situation = hand.situation
        self.decomposition = decomposition
        shape = self.shape = decomposition.shape
        self.groups = decomposition.groups
        self.knitted = decomposition.knitted
        self.nothing_else = False
        self.cache: dict[str, Any] = {}
        self.sets = decomposition.sets
        self.chows = decomposition.chows
        self.triplets = decomposition.triplets
        self.pair = decomposition.pair
        self.win_group: Group | None = None
        self.wait: str | None = None
        self.wait_positions: frozenset[str] = _NO_POSITION
        self.concealed_pungs = 0
        if shape is _REGULAR or shape is _KNITTED:
            self._place_win()

    # -- the winning tile's place ------------------------------------------
    def _place_win(self) -> None:
        hand = self.hand
        win = hand.win
        in_chow: Group | None = None
        in_pung: Group | None = None
        in_pair: Group | None = None
        pos = 0  # 1 edge, 2 closed, 4 single (priority edge > closed > single)
        cp = 0  # concealed pungs among the concealed groups
        for g in self.groups:
            if g.declared:
                continue
            k = g.kind
            i = g.tile.index
            if k is _CHOW:
                if i <= win <= i + 2:
                    if win == i + 1:
                        pos |= 2
                    else:
                        pos |= 1
                    if in_chow is None or (win != i + 1 and not _is_edge(in_chow, win)):
                        in_chow = g
            elif k is _PUNG:
                cp += 1
                if i == win:
                    in_pung = g
            elif k is _PAIR and i == win:
                pos |= 4
                in_pair = g
        self.win_group = in_chow or in_pung or in_pair
        if not hand.self_drawn and in_chow is None and in_pung is not None:
            cp -= 1  # the discard completed this pung: it is a 明刻
        self.concealed_pungs = cp + hand.concealed_kongs
        if self.shape is _REGULAR:
            pair = self.pair
            unique = (
                pos != 0 and pair is not None and hand.unique_regular_wait(pair.index)
            )
        else:
            unique = self._knitted_unique(pos)
            if hand.melds:
                # With the set declared, the winning tile is the pair's unless
                # it is a knitted tile held twice besides (a wait on the pair).
                pos = 0
                if win not in self.knitted or hand.concealed[win] == 3:
                    pos = 4
                unique = True
        if pos:
            self.wait_positions = _POSITIONS[pos]
            if unique:
                self.wait = EDGE if pos & 1 else CLOSED if pos & 2 else SINGLE

    def _knitted_unique(self, pos: int) -> bool:
        """独听 for 组合龙: the set + pair part waits on one tile only.

        The knitted nine are taken as complete (MIL reading: a winning tile
        that also fits the knitted straight may still be 边/坎/钓).
        """
        if self.hand.melds or not pos:
            return False
        rest = list(self.hand.concealed)
        for i in self.knitted:
            rest[i] -= 1
        if rest[self.hand.win] <= 0:
            return False
        rest[self.hand.win] -= 1
        return len(regular_waits(tuple(rest))) == 1

    # -- helpers for conditions ---------------------------------------------
    def memo(self, key: str, fn: Callable[[ScoringContext], T]) -> T:
        """Compute ``fn(self)`` once per context (shared analyses of fans)."""
        memo = self.cache
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        value = fn(self)
        memo[key] = value
        return value

    @property
    def counts(self) -> tuple[int, ...]:
        """Count vector (34) of every tile of the hand, melds included."""
        return self.hand.counts

    @property
    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand (melds included, kongs as four), sorted."""
        return [ALL_TILES[i] for i, n in enumerate(self.hand.counts) for _ in range(n)]

    @property
    def suits_used(self) -> int:
        """Number of suits (万 筒 条) present."""
        return bin(self.hand.suits).count("1")

    @property
    def has_honors(self) -> bool:
        """True when any wind or dragon is in the hand."""
        return self.hand.winds or self.hand.dragons

    @property
    def self_drawn(self) -> bool:
        """Won on a drawn tile (自摸)."""
        return self.hand.self_drawn

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The declared melds."""
        return self.hand.melds

    @property
    def win_tile(self) -> Tile:
        """The winning tile."""
        return self.situation.win_tile

    @property
    def concealed_hand(self) -> bool:
        """No claimed meld (concealed kongs allowed)."""
        return self.hand.melded == 0

    def __repr__(self) -> str:
        return f"<ScoringContext {self.shape.value} {self.decomposition}>"


_new = object.__new__
_KIND_RANGE = range(NUM_KINDS)
# suits bit set (1 万, 2 筒, 4 条) by whether each suit is present
_SUITS_OF = (((0, 4), (2, 6)), ((1, 5), (3, 7)))
_WIND_MASK = 0xF << 27
_DRAGON_MASK = 0x7 << 31
_REGULAR = Shape.REGULAR
_KNITTED = Shape.KNITTED_STRAIGHT
_SHAPE_NAME = {shape: shape.value for shape in Shape}  # Enum.value is slow
_CHOW = GroupKind.CHOW
_PUNG = GroupKind.PUNG
_PAIR = GroupKind.PAIR

_POSITIONS = tuple(
    frozenset(name for bit, name in ((1, EDGE), (2, CLOSED), (4, SINGLE)) if pos & bit)
    for pos in range(8)
)
_NO_POSITION = _POSITIONS[0]


def _is_edge(chow: Group, win: int) -> bool:
    return win != chow.tile.index + 1
