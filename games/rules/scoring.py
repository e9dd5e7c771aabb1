"""Fan scoring: the context a fan condition reads, and :func:`score`.

:func:`score` is generic over a rule set's fan table: it splits the hand in
every way (:mod:`games.rules.decompose`), builds a :class:`ScoringContext`
for each split, asks every :class:`~games.rules.fans.base.Fan` of the table
for its count, applies the 不计 lists (``Fan.excludes``), and keeps the split
with the highest total (就高不就低, seed 003 计分原则).  It never looks at a
rule set's name: everything a rule set decides is in its fan table and its
fields (``min_fan``, ``shapes``).

Exclusion semantics (不重复 principle): fans are taken highest value first
(table order among equals); a fan that is present and not itself excluded is
counted, and its ``excludes`` are then not counted.  A fan that is excluded
does not in turn exclude others (so 九莲宝灯 dropping 不求人 leaves 自摸 to
count).

Conventions of the winning tile's place (shared with the oracle, see
/work/shared/ORACLE-NOTES.md): on a discard win, a concealed pung of the
winning tile counts as melded unless the tile can sit in a concealed chow
instead; 边张/坎张/单钓将 count only when the standing tiles wait on that one
tile (独听; a formal wait on a tile whose four copies are held still counts as
a wait), and when the tile fits several positions edge > closed > single; for
组合龙 the wait is judged on the set + pair part alone.

Speed (``benchmarks/bench_scoring.py`` prints the figures beside
pymahjonggb's): each suit's splits and waits are memoised by the suit's count
pattern (:mod:`games.rules.decompose`), nothing per whole hand.  Each
:class:`~games.rules.fans.base.Fan` carries what it needs in order to be
checked: the features without which its condition is 0 (``needs``; with
``exact``, also that it is 1 with them, so it is credited without a call)
and the shared analysis it reads (``via``, run once per split).  Per fan
table and shape the scorer groups the fans by requirement,
files the groups needing a usually-absent feature under it, and applies 不计
as bit masks over the fans' value ranks.

A fan table may contain a *fallback* fan (MCR's 无番和): its condition reads
:attr:`ScoringContext.nothing_else`, which is True only in a second pass run
when no fan that counts toward the minimum was found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from .decompose import (
    Decomposition,
    Group,
    GroupKind,
    MeldSignature,
    has_other_regular_wait,
    regular_waits,
    seven_pairs_waits,
    split_hand,
)
from .errors import InvalidHandError
from .fans.base import Fan, FanLine
from .melds import Meld, MeldKind
from .shanten import Shape
from .situation import WinSituation
from .tiles import ALL_TILES, NUM_KINDS, Tile, format_tiles

if TYPE_CHECKING:
    from .rulesets.base import RuleSet

__all__ = [
    "FEATURES",
    "Analysis",
    "HandFacts",
    "NOT_COMPLETE_RESULT",
    "ScoreError",
    "ScoreResult",
    "ScoringContext",
    "needs_mask",
    "score",
    "score_all",
    "tiles_feature",
]

T = TypeVar("T")

EDGE = "edge"
CLOSED = "closed"
SINGLE = "single"


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
        self.features = _hand_features(self)

    @property
    def kinds(self) -> tuple[int, ...]:
        """Tile indices with a non-zero count, ascending."""
        got = self._kinds
        if got is None:
            c = self.counts
            got = self._kinds = tuple(i for i in range(NUM_KINDS) if c[i])
        return got

    @property
    def unique_regular_wait(self) -> bool:
        """True when the standing tiles wait on one tile only (独听).

        Waits are every tile completing the standing tiles as a regular hand
        or (with no melds) as seven pairs, a fifth copy allowed (a formal
        wait on a tile one holds all four of still counts).
        """
        if self._unique is None:
            win = self.win
            unique = not has_other_regular_wait(self.standing, win)
            if unique and not self.melds:
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
            unique = pos != 0 and hand.unique_regular_wait
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


class ScoreError(StrEnum):
    """Why a scored hand is not a win (:attr:`ScoreResult.code`)."""

    NOT_COMPLETE = "not_complete"  # no allowed shape: "not a complete hand"
    BELOW_MINIMUM = "below_minimum"  # complete, under the rule set's min_fan


NOT_COMPLETE_MESSAGE = "not a complete hand"


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The scored hand: a breakdown, not only a number.

    Attributes:
        win: True when the hand is complete and reaches the rule set's minimum.
        total: sum of the counted fans (flowers included).
        fans: counted fans, highest value first.
        not_counted: fans present but not counted, each with its reason.
        minimum_total: ``total`` without fans that do not count toward the
            minimum (flowers).
        shape: the chosen shape's name (``"regular"``, ``"seven_pairs"`` …),
            ``""`` when not complete.
        decomposition: the chosen split in tile notation, e.g.
            ``"123m 456m 789m 111z 55p"``; declared melds in brackets.
        error: why ``win`` is False, in words, else ``None``.
        code: the same as a :class:`ScoreError` (read this, not ``error``),
            else ``None``.
    """

    win: bool
    total: int
    fans: tuple[FanLine, ...]
    not_counted: tuple[FanLine, ...] = ()
    minimum_total: int = 0
    shape: str = ""
    decomposition: str = ""
    error: str | None = None
    code: ScoreError | None = None

    def fan_ids(self) -> dict[str, int]:
        """``{fan id: count}`` of the counted fans."""
        return {f.id: f.count for f in self.fans}


_LINES: dict[tuple[int, int, str | None], tuple[Fan, FanLine]] = {}


def _line(fan: Fan, count: int, by: str | None = None) -> FanLine:
    """The breakdown line of ``fan`` × ``count`` (not counted when ``by`` is set).

    Lines are immutable values, so they are shared between results.
    """
    key = (id(fan), count, by)
    got = _LINES.get(key)
    if got is not None and got[0] is fan:  # the entry keeps the fan (and id) alive
        return got[1]
    if by is None:
        line = FanLine(fan.id, fan.zh, fan.en, fan.points, count)
    else:
        reason = f"不计: excluded by {by}"
        line = FanLine(fan.id, fan.zh, fan.en, fan.points, count, False, reason)
    if len(_LINES) < 100_000:
        _LINES[key] = (fan, line)
    return line


# -- requirements: a cheap gate in front of a condition ----------------------
#
# A fan may declare features the context must have for its condition to be
# non-zero (``Fan.needs``, e.g. ``("regular", "chows2")``).  The scorer computes the
# context's features once (most of them once per hand) and calls only the
# conditions whose requirements are all met, so a table of 81 fans costs a
# handful of calls per split.  A requirement is a promise made by the
# condition's author: the condition would return 0 without it.  The fallback
# pass (``nothing_else``) ignores requirements.
#
# A fan may also declare that its condition *is* a look-up into an analysis
# shared by several fans (``Fan.via``): the scorer then runs the analysis once
# and credits the fans it names, instead of calling each condition.

FEATURES: dict[str, int] = {
    name: 1 << i
    for i, name in enumerate(
        (
            "regular",  # shape REGULAR
            "seven_pairs",  # shape SEVEN_PAIRS
            "thirteen_orphans",
            "honors_and_knitted",
            "knitted_straight",
            "chows2",  # at least two chows (declared or concealed)
            "triplets1",  # at least one pung or kong
            "triplets2",  # at least two pungs or kongs
            "kongs",  # at least one kong
            "flags",  # 和绝张 / 杠 / 海底 situation flag in force
            "wait",  # a wait fan position (ctx.wait is set)
            "flowers",  # at least one flower
            "fallback",  # only in the fallback pass
            "honors",  # a wind or dragon in the hand
            "no_honors",  # no wind or dragon
            "one_suit",  # exactly one of 万 筒 条
            "two_suits",  # exactly two
            "three_suits",  # all three
            "self_drawn",  # won on a drawn tile
            "discard",  # won on a discard (incl. 抢杠)
            "hog",  # four of a kind not declared as a kong
            "knitted",  # shape KNITTED_STRAIGHT or HONORS_AND_KNITTED
            "triplets4",  # four pungs or kongs
            "no_triplets",  # no pung or kong
            "edge_wait",  # ctx.wait == "edge"
            "closed_wait",  # ctx.wait == "closed"
            "single_wait",  # ctx.wait == "single"
            "concealed_pungs2",  # ctx.concealed_pungs == 2
            "concealed_pungs3",  # ... == 3
            "concealed_pungs4",  # ... == 4
            "pair_wind",  # the pair (ctx.pair) is a wind
            "pair_dragon",  # ... a dragon
            "pair_suited",  # ... a suited tile
            "pair_terminal_or_honor",  # ... a suited 1 or 9 or an honour
            "pair_five",  # ... a suited 5
            "no_claims",  # no claimed meld (concealed kongs allowed)
            "no_melds",  # no declared meld at all
            "melded4",  # four claimed melds
            "melded_kong",  # at least one melded kong
            "concealed_kong",  # at least one concealed kong
            "last_tile",  # 和绝张 (HandFacts.last_tile)
            "last_draw",  # 妙手回春
            "last_claim",  # 海底捞月
            "replacement",  # 杠上开花
            "robbing",  # 抢杠和
            "dragon3",  # three or more of some dragon (melds included)
            "round_wind3",  # three or more of the round wind
            "seat_wind3",  # three or more of the seat wind
            "terminal_or_wind3",  # three or more of some suited 1/9 or wind
        )
    )
}
"""Feature names usable in ``Fan.needs``, and their bits.

:func:`tiles_feature` adds features of the form "every tile of the hand is
in this set"."""


def needs_mask(fan: Fan) -> int:
    """The feature bits of ``fan.needs`` (see :data:`FEATURES`).

    Raises:
        KeyError: an unknown feature name.
    """
    mask = 0
    for name in fan.needs:
        mask |= FEATURES[name]
    return mask


# Tile-set features: bit -> the tiles (bit set over indices) allowed.
_TILE_FEATURES: dict[int, int] = {}
# Per suit segment, segment bits -> the tile-set features they allow.
_ONLY_TABLES: list[tuple[int, ...]] = []


def tiles_feature(name: str, tiles: int) -> str:
    """Register feature ``name``: every tile of the hand is in ``tiles``.

    ``tiles`` is a bit set over tile indices (bit ``i`` for index ``i``,
    melds included).  Registering the same name with the same tiles again
    is a no-op.  Returns ``name`` (for use in ``Fan.needs``).

    Raises:
        ValueError: ``name`` is already a feature with another meaning.
    """
    bit = FEATURES.get(name)
    if bit is not None:
        if _TILE_FEATURES.get(bit) != tiles:
            raise ValueError(f"feature {name!r} already means something else")
        return name
    bit = 1 << len(FEATURES)
    FEATURES[name] = bit
    _TILE_FEATURES[bit] = tiles
    _ONLY_TABLES.clear()
    _PLANS.clear()
    return name


def _only_tables() -> list[tuple[int, ...]]:
    """For each suit segment: segment bit pattern -> tile-set features kept."""
    if not _ONLY_TABLES:
        allow = [0] * NUM_KINDS
        every = 0
        for bit, tiles in _TILE_FEATURES.items():
            every |= bit
            for i in range(NUM_KINDS):
                if tiles >> i & 1:
                    allow[i] |= bit
        for lo, n in ((0, 9), (9, 9), (18, 9), (27, 7)):
            table = [every] * (1 << n)
            for v in range(1, 1 << n):
                low = (v & -v).bit_length() - 1
                table[v] = table[v & (v - 1)] & allow[lo + low]
            _ONLY_TABLES.append(tuple(table))
    return _ONLY_TABLES


_F = FEATURES
_F1, _F2, _F3 = _F["one_suit"], _F["two_suits"], _F["three_suits"]
_F_SUITS: tuple[int, ...] = (0, _F1, _F1, _F2, _F1, _F2, _F2, _F3)  # by suit bits
_HONORS_F = (_F["no_honors"], _F["honors"])
_DRAWN_F = (_F["discard"], _F["self_drawn"])
_TERMINAL_OR_WIND = tuple(i for i in range(31) if i >= 27 or i % 9 in (0, 8))


def _hand_features(h: HandFacts) -> int:
    """Features that hold for every split of the hand (see :data:`FEATURES`)."""
    mask = h.mask
    f = _HONORS_F[mask >> 27 != 0] | _F_SUITS[h.suits] | _DRAWN_F[h.self_drawn]
    t0, t1, t2, t3 = _ONLY_TABLES or _only_tables()
    f |= (
        t0[mask & 0x1FF]
        & t1[mask >> 9 & 0x1FF]
        & t2[mask >> 18 & 0x1FF]
        & t3[mask >> 27]
    )
    if h.melded == 0:
        f |= _F["no_claims"]
        if not h.melds:
            f |= _F["no_melds"]
    elif h.melded == 4:
        f |= _F["melded4"]
    c = h.counts
    if h.kongs:
        f |= _F["kongs"]
        if h.melded_kongs:
            f |= _F["melded_kong"]
        if h.concealed_kongs:
            f |= _F["concealed_kong"]
    if 4 in c and c.count(4) > h.kongs:
        f |= _F["hog"]
    s = h.situation
    if s.flowers:
        f |= _F["flowers"]
    if h.last_tile or s.kong or s.wall_last:
        f |= _F["flags"]
        if h.last_tile:
            f |= _F["last_tile"]
        if h.last_draw:
            f |= _F["last_draw"]
        if h.last_claim:
            f |= _F["last_claim"]
        if h.replacement:
            f |= _F["replacement"]
        if h.robbing:
            f |= _F["robbing"]
    if 3 in c or 4 in c:
        if c[31] >= 3 or c[32] >= 3 or c[33] >= 3:
            f |= _F["dragon3"]
        if c[s.round_wind.index] >= 3:
            f |= _F["round_wind3"]
        if c[s.seat_wind.index] >= 3:
            f |= _F["seat_wind3"]
        for i in _TERMINAL_OR_WIND:
            if c[i] >= 3:
                f |= _F["terminal_or_wind3"]
                break
    return f


_SHAPE_BIT = {
    Shape.REGULAR: FEATURES["regular"],
    Shape.SEVEN_PAIRS: FEATURES["seven_pairs"],
    Shape.THIRTEEN_ORPHANS: FEATURES["thirteen_orphans"],
    Shape.HONORS_AND_KNITTED: FEATURES["honors_and_knitted"] | FEATURES["knitted"],
    Shape.KNITTED_STRAIGHT: FEATURES["knitted_straight"] | FEATURES["knitted"],
}
_CHOWS2 = _F["chows2"]
# by number of pungs and kongs
_TRIPLETS_F = (
    _F["no_triplets"],
    _F["triplets1"],
    _F["triplets1"] | _F["triplets2"],
    _F["triplets1"] | _F["triplets2"],
    _F["triplets1"] | _F["triplets2"] | _F["triplets4"],
)
_WAIT_F = {
    None: 0,
    EDGE: _F["wait"] | _F["edge_wait"],
    CLOSED: _F["wait"] | _F["closed_wait"],
    SINGLE: _F["wait"] | _F["single_wait"],
}
_CPUNGS_F = (
    0,
    0,
    _F["concealed_pungs2"],
    _F["concealed_pungs3"],
    _F["concealed_pungs4"],
)


def _pair_bits(i: int) -> int:
    if i >= 27:
        f = _F["pair_terminal_or_honor"]
        return f | (_F["pair_wind"] if i < 31 else _F["pair_dragon"])
    f = _F["pair_suited"]
    r = i % 9
    if r in (0, 8):
        f |= _F["pair_terminal_or_honor"]
    elif r == 4:
        f |= _F["pair_five"]
    return f


_PAIR_F = tuple(_pair_bits(i) for i in range(NUM_KINDS))


def _split_features(ctx: ScoringContext) -> int:
    """The features of the context that depend on its split."""
    f = _SHAPE_BIT[ctx.shape] | _TRIPLETS_F[len(ctx.triplets)]
    if len(ctx.chows) >= 2:
        f |= _CHOWS2
    pair = ctx.pair
    if pair is not None:
        f |= _PAIR_F[pair.index] | _WAIT_F[ctx.wait] | _CPUNGS_F[ctx.concealed_pungs]
    return f


def _features(ctx: ScoringContext) -> int:
    """Every feature of the context (see :data:`FEATURES`)."""
    return _split_features(ctx) | ctx.hand.features


_ALL_SHAPES = 0
for _bits in _SHAPE_BIT.values():
    _ALL_SHAPES |= _bits


# -- shared analyses ----------------------------------------------------------

Analysis = Callable[["ScoringContext"], Mapping[str, int]]
"""A shared analysis of a context: ``{fan id: count}`` for the fans it finds."""

_Cond = Callable[["ScoringContext"], int]
_Plain = tuple[tuple[int, Fan, _Cond], ...]
_Batched = tuple[tuple[Analysis, dict[str, tuple[tuple[int, Fan], ...]]], ...]
# Fans grouped by requirement: (features needed, conditions, analyses to run).
_Exact = tuple[tuple[int, Fan, int], ...]  # (rank, fan, 1)
_Groups = tuple[tuple[int, _Plain, _Batched, _Exact], ...]
# Per shape: groups needing only common features, groups keyed by a rare
# feature they need (tried only when the context has it), the rare keys.
_Stage = tuple[_Groups, dict[int, _Groups], int]

# Features most contexts lack: a group needing one is filed under it, so the
# scorer does not even look at it otherwise.  (Any choice is correct; this
# one is fast.)  Tile-set features (tiles_feature) are rare too.
_RARE = tuple(
    FEATURES[name]
    for name in (
        "fallback",
        "last_draw",
        "last_claim",
        "replacement",
        "robbing",
        "last_tile",
        "melded4",
        "concealed_pungs4",
        "triplets4",
        "concealed_pungs3",
        "kongs",
        "melded_kong",
        "concealed_kong",
        "hog",
        "pair_wind",
        "pair_dragon",
        "pair_five",
        "dragon3",
        "round_wind3",
        "seat_wind3",
        "edge_wait",
        "closed_wait",
        "single_wait",
        "concealed_pungs2",
        "no_melds",
        "terminal_or_wind3",
        "pair_terminal_or_honor",
    )
)


class _Plan:
    """A fan table prepared for scoring: each fan's rank (value order),
    requirement, shared analysis and 不计 set (as rank bits), and per shape
    the fans grouped by requirement."""

    __slots__ = ("fans", "entries", "by_shape", "all", "excludes", "lines")

    def __init__(self, fans: Sequence[Fan]) -> None:
        self.fans = fans
        # rank = position in value order (stable): exclusions are applied and
        # lines listed highest value first even if a table is not sorted.
        order = sorted(range(len(fans)), key=lambda i: -fans[i].points)
        self.entries = tuple(
            (rank, fans[i], needs_mask(fans[i])) for rank, i in enumerate(order)
        )
        self.all: _Plain = tuple((r, f, f.condition) for r, f, _ in self.entries)
        ranks: dict[str, int] = {}
        for r, f, _ in self.entries:
            ranks[f.id] = ranks.get(f.id, 0) | 1 << r
        self.excludes = tuple(
            sum(ranks.get(x, 0) for x in set(f.excludes)) for _, f, _ in self.entries
        )
        self.by_shape: dict[Shape, _Stage] = {}
        # counted breakdown lines by rank << 8 | count
        self.lines: dict[int, FanLine] = {}

    def stage(self, shape: Shape) -> _Stage:
        """The fans a split of ``shape`` may have, grouped by requirement
        (the shape's own features left out of the requirement)."""
        got = self.by_shape.get(shape)
        if got is None:
            got = self.by_shape[shape] = self._stage(shape)
        return got

    def _stage(self, shape: Shape) -> _Stage:
        bits = _SHAPE_BIT[shape]
        groups: dict[int, tuple[list[Any], dict[Any, Any], list[Any]]] = {}
        for rank, fan, need in self.entries:
            if need & _ALL_SHAPES & ~bits:
                continue  # needs another shape
            plain, batched, exact = groups.setdefault(need & ~bits, ([], {}, []))
            if fan.exact and fan.needs:
                exact.append((rank, fan, 1))
            elif fan.via is None:
                plain.append((rank, fan, fan.condition))
            else:
                keys = batched.setdefault(fan.via, {})
                keys.setdefault(fan.id, []).append((rank, fan))
        common: list[tuple[int, _Plain, _Batched, _Exact]] = []
        rare: dict[int, list[tuple[int, _Plain, _Batched, _Exact]]] = {}
        rare_bits = [*_RARE, *_TILE_FEATURES]
        for need, (plain, batched, exact) in groups.items():
            group = (
                need,
                tuple(plain),
                tuple(
                    (a, {k: tuple(v) for k, v in keys.items()})
                    for a, keys in batched.items()
                ),
                tuple(exact),
            )
            key = next((b for b in rare_bits if need & b), 0)
            if key:
                rare.setdefault(key, []).append(group)
            else:
                common.append(group)
        rare_t = {k: tuple(v) for k, v in rare.items()}
        rare_mask = 0
        for k in rare_t:
            rare_mask |= k
        return tuple(common), rare_t, rare_mask


# A fan table's plan, by the table's identity (kept alive by the entry).
_PLANS: dict[int, _Plan] = {}


def _plan(fans: Sequence[Fan]) -> _Plan:
    got = _PLANS.get(id(fans))
    if got is None or got.fans is not fans:
        got = _PLANS[id(fans)] = _Plan(fans)
    return got


# (rank, fan, count) of the fans present, in value order
_Found = list[tuple[int, Fan, int]]


def _evaluate(ctx: ScoringContext, fans: Sequence[Fan]) -> tuple[_Found, int, int]:
    """Evaluate the fans; apply 不计; return (present, total, minimum)."""
    plan = _plan(fans)
    feats = _split_features(ctx) | ctx.hand.features
    found: _Found = []
    add = found.append
    common, rare, rare_mask = plan.stage(ctx.shape)
    groups: Sequence[tuple[int, _Plain, _Batched, _Exact]] = common
    more = feats & rare_mask
    while True:
        for need, plain, batched, exact in groups:
            if need & feats != need:
                continue
            if exact:
                found += exact
            for r, f, cond in plain:
                n = cond(ctx)
                if n:
                    add((r, f, n))
            for analysis, keys in batched:
                for key, n in analysis(ctx).items():
                    hit = keys.get(key)
                    if hit is not None and n:
                        for r, f in hit:
                            add((r, f, n))
        if not more:
            break
        bit = more & -more
        more ^= bit
        groups = rare[bit]
    for _, f, _ in found:
        if f.counts_toward_minimum:
            break
    else:
        ctx.nothing_else = True
        got = {r for r, _, _ in found}
        found += [
            (r, f, n) for r, f, cond in plan.all if r not in got and (n := cond(ctx))
        ]
        ctx.nothing_else = False
    found.sort()  # by rank: ranks are unique, fans are never compared
    excludes = plan.excludes
    out = 0  # ranks not counted (不计)
    total = minimum = 0
    for r, fan, n in found:
        if out >> r & 1:
            continue
        v = fan.points * n
        total += v
        if fan.counts_toward_minimum:
            minimum += v
        out |= excludes[r]
    return found, total, minimum


def _prepare(
    concealed: Sequence[Tile], melds: Sequence[Meld], situation: WinSituation
) -> tuple[HandFacts, MeldSignature]:
    """:func:`_validate` and :class:`HandFacts` in one pass (same errors);
    also the melds' :data:`~games.rules.decompose.MeldSignature`."""
    n_melds = len(melds)
    if n_melds > 4 or len(concealed) != 13 - 3 * n_melds:
        _validate(concealed, melds, situation)  # raises the error
    win = situation.win_tile
    wi = win.index
    c = [0] * (NUM_KINDS + 8)  # flowers land in 34-41 and are refused
    mask = _BIT[wi]
    for t in concealed:
        i = t.index
        c[i] += 1
        mask |= _BIT[i]
    c[wi] += 1
    if mask >> NUM_KINDS:
        _validate(concealed, melds, situation)  # raises the error
    del c[NUM_KINDS:]
    conc = tuple(c)
    c[wi] -= 1
    standing = tuple(c)
    melded = kongs = ckongs = 0
    sig: MeldSignature = ()
    if melds:
        total = list(conc)
        for m in melds:
            for t in m.tiles:
                i = t.index
                total[i] += 1
                mask |= _BIT[i]
            k = m.kind
            sig += ((k, m.tiles[0].index),)
            if k is _CONCEALED_KONG:
                ckongs += 1
                kongs += 1
            else:
                melded += 1
                if k is _KONG:
                    kongs += 1
        counts = tuple(total)
    else:
        counts = conc
    s = situation
    if (
        max(counts) > 4
        or not (27 <= s.seat_wind.index < 31 and 27 <= s.round_wind.index < 31)
        or (s.flowers and not _flowers_ok(s.flowers))
        or (s.kong and (kongs == 0 if s.self_drawn else counts[wi] != 1))
        or (s.last_tile and standing[wi] > 0)
    ):
        _validate(concealed, melds, situation)  # raises the error
    hand = HandFacts(
        standing, melds, situation, (conc, counts, mask, melded, kongs, ckongs)
    )
    return hand, sig


def _flowers_ok(flowers: Sequence[Tile]) -> bool:
    seen = 0
    for f in flowers:
        i = f.index
        if i < NUM_KINDS or seen >> i & 1:
            return False
        seen |= 1 << i
    return True


_BIT = tuple(1 << i for i in range(NUM_KINDS + 8))
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_KONG = MeldKind.KONG


def _validate(
    concealed: Sequence[Tile], melds: Sequence[Meld], situation: WinSituation
) -> list[int]:
    """Return the standing count vector, or raise InvalidHandError."""
    if len(melds) > 4:
        raise InvalidHandError(f"at most 4 melds, got {len(melds)}")
    need = 13 - 3 * len(melds)
    if len(concealed) != need:
        raise InvalidHandError(
            f"with {len(melds)} meld(s) the concealed tiles must be {need}"
            f" (without the winning tile), got {len(concealed)}"
        )
    win = situation.win_tile
    counts = [0] * (NUM_KINDS + 8)  # flowers land in 34-41 and are refused
    for t in concealed:
        counts[t.index] += 1
    counts[win.index] += 1
    if any(counts[NUM_KINDS:]):
        f = next(t for t in (*concealed, win) if t.is_flower)
        raise InvalidHandError(f"flower {f} cannot be in the hand; list it in flowers")
    del counts[NUM_KINDS:]
    total = list(counts)
    counts[win.index] -= 1
    for m in melds:
        for t in m.tiles:
            total[t.index] += 1
    if max(total) > 4:
        i = max(range(NUM_KINDS), key=total.__getitem__)
        raise InvalidHandError(f"{total[i]} copies of {ALL_TILES[i]} (at most 4)")
    for name, w in (
        ("seat_wind", situation.seat_wind),
        ("round_wind", situation.round_wind),
    ):
        if not w.is_wind:
            raise InvalidHandError(f"{name} must be 1z–4z, got {w}")
    fl = situation.flowers
    if fl and any(not f.is_flower for f in fl):
        raise InvalidHandError(f"flowers must be 1f–8f, got {format_tiles(fl)}")
    if len(fl) > 1 and len(set(fl)) != len(fl):
        raise InvalidHandError(f"each flower exists once, got {format_tiles(fl)}")
    if situation.kong:
        if situation.self_drawn:
            if not any(m.is_kong for m in melds):
                raise InvalidHandError(
                    "杠上开花 (kong + self_drawn) needs a declared kong"
                )
        elif total[win.index] != 1:
            raise InvalidHandError(
                "抢杠和 (kong, not self_drawn): the robbed tile cannot be held as well"
            )
    if situation.last_tile and counts[win.index] > 0:
        raise InvalidHandError(
            "和绝张 (last_tile): a copy of the winning tile is in the concealed hand"
        )
    return counts


_Candidate = tuple[ScoringContext, _Found, int, int]


def _candidates(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> list[_Candidate]:
    hand, sig = _prepare(concealed, melds, situation)
    fans = ruleset.fans
    out = []
    for d in split_hand(hand.concealed, sig, ruleset.shapes):
        ctx = ScoringContext(hand, d)
        found, total, minimum = _evaluate(ctx, fans)
        out.append((ctx, found, total, minimum))
    return out


def _result(ruleset: RuleSet, cand: _Candidate) -> ScoreResult:
    ctx, found, total, minimum = cand
    plan = _plan(ruleset.fans)
    excludes = plan.excludes
    lines = plan.lines
    counted: list[FanLine] = []
    skipped: list[FanLine] = []
    by: list[tuple[int, Fan]] = []  # counted so far: (rank, fan)
    out = 0
    for r, fan, n in found:
        if out >> r & 1:
            for r2, f2 in by:
                if excludes[r2] >> r & 1:
                    skipped.append(_line(fan, n, f2.id))
                    break
            continue
        line = lines.get(r << 8 | n)
        if line is None:
            line = lines[r << 8 | n] = _line(fan, n)
        counted.append(line)
        by.append((r, fan))
        out |= excludes[r]
    error = None
    if minimum < ruleset.min_fan:
        error = f"below the {ruleset.min_fan}-fan minimum ({minimum})"
    return ScoreResult(
        win=error is None,
        total=total,
        fans=tuple(counted),
        not_counted=tuple(skipped),
        minimum_total=minimum,
        shape=_SHAPE_NAME[ctx.shape],
        decomposition=ctx.decomposition.text,
        error=error,
        code=None if error is None else ScoreError.BELOW_MINIMUM,
    )


def score(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreResult:
    """Score a winning hand under ``ruleset``.

    Args:
        concealed: the standing tiles *without* the winning tile
            (``13 - 3 * len(melds)`` tiles).
        melds: declared melds (吃 碰 明杠 暗杠).
        situation: the winning tile (``situation.win_tile``, the 14th tile)
            and how it was won.
        ruleset: the rule set whose fan table, shapes and minimum apply.

    Returns:
        The best-scoring decomposition's breakdown (就高不就低).  ``win`` is
        False with ``error`` ``"not a complete hand"`` or ``"below the N-fan
        minimum (M)"``; the fans are still listed in the second case.

    Raises:
        InvalidHandError: impossible input — wrong tile count, a fifth copy
            (melds and winning tile included), a flower in the hand, a wind
            outside 1z–4z, or flags the tiles contradict (杠上开花 without a
            kong, 抢杠和 of a held tile, 和绝张 with a copy in hand).
    """
    cands = _candidates(concealed, melds, situation, ruleset)
    if not cands:
        return NOT_COMPLETE_RESULT
    best = cands[0]
    for c in cands[1:]:
        if c[2] > best[2]:
            best = c
    return _result(ruleset, best)


NOT_COMPLETE_RESULT = ScoreResult(
    win=False,
    total=0,
    fans=(),
    error=NOT_COMPLETE_MESSAGE,
    code=ScoreError.NOT_COMPLETE,
)
"""The result of a hand that completes no allowed shape."""


def score_all(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> list[ScoreResult]:
    """Score every decomposition (for tests and the fan calculator's detail).

    Same arguments and errors as :func:`score`; one result per decomposition,
    in decomposition order; empty when the hand is not complete.
    """
    return [
        _result(ruleset, c) for c in _candidates(concealed, melds, situation, ruleset)
    ]
