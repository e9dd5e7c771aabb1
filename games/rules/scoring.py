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

Speed: decompositions are memoised by (concealed counts, melds, shapes);
conditions may declare required features (:func:`requires`) so that a split
skips the fans it cannot have.  ``benchmarks/bench_scoring.py`` prints the
figures beside pymahjonggb's.

A fan table may contain a *fallback* fan (MCR's 无番和): its condition reads
:attr:`ScoringContext.nothing_else`, which is True only in a second pass run
when no fan that counts toward the minimum was found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .decompose import (
    Decomposition,
    Group,
    GroupKind,
    has_other_regular_wait,
    meld_signature,
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
    "HandFacts",
    "ScoreResult",
    "ScoringContext",
    "requires",
    "score",
    "score_all",
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
    """

    def __init__(
        self,
        standing: Sequence[int],
        melds: Sequence[Meld],
        situation: WinSituation,
    ) -> None:
        self.melds = tuple(melds)
        self.situation = situation
        win = situation.win_tile.index
        self.win = win
        self.standing = tuple(standing)
        conc = list(standing)
        conc[win] += 1
        self.concealed = tuple(conc)
        counts = list(conc)
        melded = kongs = ckongs = 0
        for m in self.melds:
            for t in m.tiles:
                counts[t.index] += 1
            if m.kind is MeldKind.CONCEALED_KONG:
                ckongs += 1
                kongs += 1
            else:
                melded += 1
                if m.kind is MeldKind.KONG:
                    kongs += 1
        self.counts = tuple(counts)
        self.kinds = tuple(i for i in range(NUM_KINDS) if counts[i])
        mask = 0
        for i in self.kinds:
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
        in_melds = counts[win] - conc[win]
        self.last_tile = (situation.last_tile and conc[win] == 1) or in_melds == 3
        self.replacement = sd and situation.kong and kongs > 0
        self.robbing = (not sd) and situation.kong
        self.last_draw = sd and situation.wall_last
        self.last_claim = (not sd) and situation.wall_last
        self._unique: bool | None = None
        self.features = _hand_features(self)

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

    def __init__(self, hand: HandFacts, decomposition: Decomposition) -> None:
        self.hand = hand
        self.situation = hand.situation
        self.decomposition = decomposition
        self.shape = decomposition.shape
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
        self.wait_positions: frozenset[str] = frozenset()
        self.concealed_pungs = 0
        if self.shape is Shape.REGULAR or self.shape is Shape.KNITTED_STRAIGHT:
            self._place_win()

    # -- the winning tile's place ------------------------------------------
    def _place_win(self) -> None:
        hand = self.hand
        win = hand.win
        in_chow: Group | None = None
        in_pung: Group | None = None
        in_pair: Group | None = None
        pos = 0  # 1 edge, 2 closed, 4 single (priority edge > closed > single)
        for g in self.groups:
            if g.declared:
                continue
            k = g.kind
            i = g.tile.index
            if k is GroupKind.CHOW:
                if i <= win <= i + 2:
                    if win == i + 1:
                        pos |= 2
                    else:
                        pos |= 1
                    if in_chow is None or (win != i + 1 and not _is_edge(in_chow, win)):
                        in_chow = g
            elif k is GroupKind.PUNG:
                if i == win:
                    in_pung = g
            elif k is GroupKind.PAIR and i == win:
                pos |= 4
                in_pair = g
        self.win_group = in_chow or in_pung or in_pair
        cp = sum(
            1 for g in self.triplets if g.kind is GroupKind.PUNG and not g.declared
        )
        if not hand.self_drawn and in_chow is None and in_pung is not None:
            cp -= 1  # the discard completed this pung: it is a 明刻
        self.concealed_pungs = cp + hand.concealed_kongs
        if self.shape is Shape.REGULAR:
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
        self.wait_positions = _POSITIONS[pos]
        if unique and pos:
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


_POSITIONS = tuple(
    frozenset(name for bit, name in ((1, EDGE), (2, CLOSED), (4, SINGLE)) if pos & bit)
    for pos in range(8)
)


def _is_edge(chow: Group, win: int) -> bool:
    return win != chow.tile.index + 1


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
        error: why ``win`` is False, else ``None``.
    """

    win: bool
    total: int
    fans: tuple[FanLine, ...]
    not_counted: tuple[FanLine, ...] = ()
    minimum_total: int = 0
    shape: str = ""
    decomposition: str = ""
    error: str | None = None

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
# A condition may declare features the context must have for it to be
# non-zero (``@requires("regular", "chows2")``).  The scorer computes the
# context's features once and skips conditions whose requirements are not all
# met, so a table of 81 fans costs far fewer than 81 calls per split.  A
# requirement is a promise made by the condition's author: the condition
# would return 0 without it.  The fallback pass (``nothing_else``) ignores
# requirements.

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
        )
    )
}
"""Feature names usable with :func:`requires`, and their bits."""

_SHAPE_BIT = {
    Shape.REGULAR: FEATURES["regular"],
    Shape.SEVEN_PAIRS: FEATURES["seven_pairs"],
    Shape.THIRTEEN_ORPHANS: FEATURES["thirteen_orphans"],
    Shape.HONORS_AND_KNITTED: FEATURES["honors_and_knitted"],
    Shape.KNITTED_STRAIGHT: FEATURES["knitted_straight"],
}

_REQUIRES: dict[Callable[..., int], int] = {}

C = TypeVar("C", bound=Callable[..., int])


def requires(*features: str) -> Callable[[C], C]:
    """Declare that a fan condition is 0 unless the context has ``features``.

    Raises:
        KeyError: an unknown feature name (see :data:`FEATURES`).
    """
    mask = 0
    for name in features:
        mask |= FEATURES[name]

    def deco(fn: C) -> C:
        _REQUIRES[fn] = mask
        return fn

    return deco


_F = FEATURES
_F1, _F2, _F3 = _F["one_suit"], _F["two_suits"], _F["three_suits"]
_F_SUITS: tuple[int, ...] = (0, _F1, _F1, _F2, _F1, _F2, _F2, _F3)  # by suit bits


def _hand_features(h: HandFacts) -> int:
    """Features that hold for every split of the hand (see :data:`FEATURES`)."""
    f = _F["honors"] if (h.winds or h.dragons) else _F["no_honors"]
    f |= _F_SUITS[h.suits]
    f |= _F["self_drawn"] if h.self_drawn else _F["discard"]
    if h.counts.count(4) > h.kongs:
        f |= _F["hog"]
    if h.kongs:
        f |= _F["kongs"]
    s = h.situation
    if h.last_tile or s.kong or s.wall_last:
        f |= _F["flags"]
    if s.flowers:
        f |= _F["flowers"]
    return f


_CHOWS2 = _F["chows2"]
_TRIPLETS1 = _F["triplets1"]
_TRIPLETS12 = _F["triplets1"] | _F["triplets2"]
_WAIT = _F["wait"]


def _features(ctx: ScoringContext) -> int:
    f = _SHAPE_BIT[ctx.shape] | ctx.hand.features
    if len(ctx.chows) >= 2:
        f |= _CHOWS2
    n = len(ctx.triplets)
    if n:
        f |= _TRIPLETS12 if n >= 2 else _TRIPLETS1
    if ctx.wait is not None:
        f |= _WAIT
    return f


_Cond = Callable[["ScoringContext"], int]
_Group = tuple[int, tuple[tuple[int, Fan, _Cond], ...]]

# A fan table's conditions grouped by requirement, computed once per table.
_PLANS: dict[int, tuple[Sequence[Fan], tuple[_Group, ...]]] = {}


def _plan(fans: Sequence[Fan]) -> tuple[_Group, ...]:
    got = _PLANS.get(id(fans))
    if got is None or got[0] is not fans:
        groups: dict[int, list[tuple[int, Fan, _Cond]]] = {}
        # rank = position in value order (stable): exclusions are applied and
        # lines listed highest value first even if a table is not sorted.
        order = sorted(range(len(fans)), key=lambda i: -fans[i].points)
        for rank, i in enumerate(order):
            f = fans[i]
            need = _REQUIRES.get(f.condition, 0)
            groups.setdefault(need, []).append((rank, f, f.condition))
        got = (fans, tuple((need, tuple(m)) for need, m in groups.items()))
        _PLANS[id(fans)] = got
    return got[1]


# (fan, count, excluded by fan id or None) in table order
_Present = list[tuple[Fan, int, str | None]]


def _evaluate(ctx: ScoringContext, fans: Sequence[Fan]) -> tuple[_Present, int, int]:
    """Evaluate the fans; apply 不计; return (present, total, minimum)."""
    feats = _features(ctx)
    found: list[tuple[int, Fan, int]] = []
    for need, members in _plan(fans):
        if need & feats == need:
            found += [(i, f, n) for i, f, cond in members if (n := cond(ctx))]
    if not any(f.counts_toward_minimum for _, f, _ in found):
        ctx.nothing_else = True
        got = {i for i, _, _ in found}
        for _, members in _plan(fans):
            found += [
                (i, f, n) for i, f, cond in members if i not in got and (n := cond(ctx))
            ]
        ctx.nothing_else = False
    found.sort(key=_first)
    excluded: dict[str, str] = {}
    out: _Present = []
    total = minimum = 0
    for _, fan, n in found:
        by = excluded.get(fan.id)
        out.append((fan, n, by))
        if by is not None:
            continue
        total += fan.points * n
        if fan.counts_toward_minimum:
            minimum += fan.points * n
        for x in fan.excludes:
            if x not in excluded:
                excluded[x] = fan.id
    return out, total, minimum


def _first(item: tuple[int, Fan, int]) -> int:
    return item[0]


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


_Candidate = tuple[ScoringContext, _Present, int, int]


def _candidates(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> list[_Candidate]:
    standing = _validate(concealed, melds, situation)
    hand = HandFacts(standing, melds, situation)
    fans = ruleset.fans
    out = []
    for d in split_hand(hand.concealed, meld_signature(hand.melds), ruleset.shapes):
        ctx = ScoringContext(hand, d)
        present, total, minimum = _evaluate(ctx, fans)
        out.append((ctx, present, total, minimum))
    return out


def _result(ruleset: RuleSet, cand: _Candidate) -> ScoreResult:
    ctx, present, total, minimum = cand
    counted = []
    skipped = []
    for fan, n, by in present:
        if by is None:
            counted.append(_line(fan, n))
        else:
            skipped.append(_line(fan, n, by))
    error = None
    if minimum < ruleset.min_fan:
        error = f"below the {ruleset.min_fan}-fan minimum ({minimum})"
    return ScoreResult(
        win=error is None,
        total=total,
        fans=tuple(counted),
        not_counted=tuple(skipped),
        minimum_total=minimum,
        shape=ctx.shape.value,
        decomposition=ctx.decomposition.text,
        error=error,
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
        return ScoreResult(win=False, total=0, fans=(), error="not a complete hand")
    best = cands[0]
    for c in cands[1:]:
        if c[2] > best[2]:
            best = c
    return _result(ruleset, best)


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
