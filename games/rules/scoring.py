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

Where the parts live: :mod:`.scoring_context` (what a condition reads:
:class:`HandFacts`, :class:`ScoringContext`), :mod:`.scoring_features` (the
features that gate conditions, :data:`FEATURES`, :func:`tiles_feature`) and
:mod:`.scoring_plan` (a fan table prepared per shape, one split evaluated);
this module checks the input, chooses the best split and builds the
:class:`ScoreResult`.  The names above stay importable from here.

A fan table may contain a *fallback* fan (MCR's 无番和): its condition reads
:attr:`ScoringContext.nothing_else`, which is True only in a second pass run
when no fan that counts toward the minimum was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from .decompose import Decomposition, MeldSignature, split_hand
from .errors import InvalidHandError
from .fans.base import FanLine
from .melds import Meld, MeldKind
from .scoring_context import _SHAPE_NAME, HandFacts, ScoringContext
from .scoring_features import FEATURES, needs_mask, tiles_feature
from .scoring_plan import Analysis, Found, Outcome, _evaluate, _plan
from .situation import WinSituation
from .tiles import ALL_TILES, NUM_KINDS, Tile, format_tiles, from_counts

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
        split: the chosen split (``None`` when not complete).
        decomposition: the chosen split in tile notation, e.g.
            ``"123m 456m 789m 111z 55p"``; declared melds in brackets (a
            property: the text is built when read, not for every score).
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
    split: Decomposition | None = field(default=None, repr=False)
    error: str | None = None
    code: ScoreError | None = None

    @property
    def decomposition(self) -> str:
        """The chosen split in tile notation (``""`` when not complete)."""
        return "" if self.split is None else self.split.text

    def fan_ids(self) -> dict[str, int]:
        """``{fan id: count}`` of the counted fans."""
        return {f.id: f.count for f in self.fans}


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
    return _prepared(c, mask, concealed, melds, situation)


def _prepare_counts(
    standing: Sequence[int], melds: Sequence[Meld], situation: WinSituation
) -> tuple[HandFacts, MeldSignature]:
    """:func:`_prepare` of the standing tiles given as 34 counts: the same
    result and errors as ``_prepare(from_counts(standing), ...)``, without
    making the tiles and counting them again (the engine and the bots hold
    counts: :func:`games.rules.api.score_counts`)."""
    n_melds = len(melds)
    wi = situation.win_tile.index
    if (
        n_melds > 4
        or wi >= NUM_KINDS
        or len(standing) != NUM_KINDS
        or sum(standing) != 13 - 3 * n_melds
        or min(standing) < 0
    ):
        # refused or unusual input: the tiles' path says why
        return _prepare(from_counts(standing), melds, situation)
    c = list(standing)
    c[wi] += 1
    mask = 0
    for i, n in enumerate(c):
        if n:
            mask |= _BIT[i]
    return _prepared(c, mask, None, melds, situation)


def _prepared(
    c: list[int],
    mask: int,
    concealed: Sequence[Tile] | None,
    melds: Sequence[Meld],
    situation: WinSituation,
) -> tuple[HandFacts, MeldSignature]:
    """The rest of :func:`_prepare` from the 34 counts ``c`` of the
    concealed tiles with the winning tile and the bits of their kinds
    (``mask``); ``concealed`` the standing tiles when the caller has them
    (for an error's message), else they are made from ``c``."""
    wi = situation.win_tile.index
    conc = tuple(c)
    c[wi] -= 1
    standing = tuple(c)
    melded = kongs = ckongs = 0
    sig: MeldSignature = ()
    if melds:
        total = list(conc)
        for m in melds:
            # A Meld's tiles are checked and sorted when it is made: its kind
            # and first tile say which they are.
            k = m.kind
            i = m.tiles[0].index
            sig += ((k, i),)
            if k is _CHI:
                total[i] += 1
                total[i + 1] += 1
                total[i + 2] += 1
                mask |= _BIT3[i]
                melded += 1
                continue
            mask |= _BIT[i]
            if k is _PUNG:
                total[i] += 3
                melded += 1
                continue
            total[i] += 4
            kongs += 1
            if k is _CONCEALED_KONG:
                ckongs += 1
            else:
                melded += 1
        counts = tuple(total)
    else:
        counts = conc
    # The counts as bytes: a kind above four and a kind at four are found
    # by scans of bytes in C, not by comparing int objects one by one.
    b = bytes(counts)
    s = situation
    if (
        b.translate(None, _UP_TO_4)  # a count above 4 is left
        or not (27 <= s.seat_wind.index < 31 and 27 <= s.round_wind.index < 31)
        or (s.flowers and not _flowers_ok(s.flowers))
        or (s.kong and (kongs == 0 if s.self_drawn else counts[wi] != 1))
        or (s.last_tile and standing[wi] > 0)
    ):
        if concealed is None:
            concealed = from_counts(standing)
        _validate(concealed, melds, situation)  # raises the error
    hand = HandFacts._of(
        melds if type(melds) is tuple else tuple(melds),
        situation,
        standing,
        (conc, counts, mask, melded, kongs, ckongs),
        4 in b,
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


_UP_TO_4 = bytes(range(5))
_BIT = tuple(1 << i for i in range(NUM_KINDS + 8))
_BIT3 = tuple(7 << i for i in range(NUM_KINDS + 8))  # a chow's three tiles
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_CHI = MeldKind.CHI
_PUNG = MeldKind.PUNG


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


_Candidate = tuple[ScoringContext, Found, Outcome]


def _candidates(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> list[_Candidate]:
    hand, sig = _prepare(concealed, melds, situation)
    fans = ruleset.fans
    plan = _plan(fans)
    out = []
    for d in split_hand(hand.concealed, sig, ruleset.shapes):
        ctx = ScoringContext(hand, d)
        found, outcome = _evaluate(ctx, fans, plan)
        out.append((ctx, found, outcome))
    return out


def _result(ruleset: RuleSet, ctx: ScoringContext, outcome: Outcome) -> ScoreResult:
    minimum = outcome.minimum
    error = None
    if minimum < ruleset.min_fan:
        error = f"below the {ruleset.min_fan}-fan minimum ({minimum})"
    # Filled as a _ResultDraft (same slots, plain attribute stores) and then
    # given its class: a quarter of the cost of the slots' setters, which a
    # frozen dataclass's __init__ (object.__setattr__ per field) would need.
    res = _new(_ResultDraft)
    res.win = error is None
    res.total = outcome.total
    res.fans = outcome.counted
    res.not_counted = outcome.skipped
    res.minimum_total = minimum
    res.shape = _SHAPE_NAME[ctx.shape]
    res.split = ctx.decomposition
    res.error = error
    res.code = None if error is None else ScoreError.BELOW_MINIMUM
    res.__class__ = ScoreResult  # type: ignore[assignment]
    return res  # type: ignore[return-value]


_new = object.__new__


class _ResultDraft:
    """A :class:`ScoreResult` being filled by :func:`_result`: the same
    slots in the same order, so its class can then be set."""

    __slots__ = ScoreResult.__slots__
    win: bool
    total: int
    fans: tuple[FanLine, ...]
    not_counted: tuple[FanLine, ...]
    minimum_total: int
    shape: str
    split: Decomposition | None
    error: str | None
    code: ScoreError | None


def score_from_counts(
    standing: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> ScoreResult:
    """:func:`score` of the standing tiles given as 34 counts (without the
    winning tile): the same result and errors as
    ``score(from_counts(standing), ...)``.

    Raises:
        InvalidHandError: as :func:`score`.
    """
    return _best(ruleset, *_prepare_counts(standing, melds, situation))


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
    return _best(ruleset, *_prepare(concealed, melds, situation))


def _best(ruleset: RuleSet, hand: HandFacts, sig: MeldSignature) -> ScoreResult:
    """:func:`score` of the prepared hand (:func:`_prepare`)."""
    # _candidates without the list: the first split of the highest total.
    fans = ruleset.fans
    plan = _plan(fans)
    best: ScoringContext | None = None
    top: Outcome | None = None
    for d in split_hand(hand.concealed, sig, ruleset.shapes):
        ctx = ScoringContext(hand, d)
        outcome = _evaluate(ctx, fans, plan)[1]
        if top is None or outcome.total > top.total:
            best = ctx
            top = outcome
    if best is None or top is None:
        return NOT_COMPLETE_RESULT
    return _result(ruleset, best, top)


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
        _result(ruleset, ctx, outcome)
        for ctx, _, outcome in _candidates(concealed, melds, situation, ruleset)
    ]
