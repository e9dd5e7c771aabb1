"""Scoring with 财神 wild tiles (seed 002, rule set ``liangren``).

Seed 002: "财神：可用来在和牌时替代任何牌，但是财神不能在游戏过程中出掉或用于吃牌。
财神牌型在桌上亮出（翻牌就是财神）。白板代替财神牌。"

Our reading (RULES.md, liangren):

* The tile turned up on the table names the wild kind ``W`` (``situation.wild``).
  Every tile of kind ``W`` in the concealed tiles or the winning tile is a
  wild and may stand for any of the 34 kinds when the hand is won.
* 白板 (``5z``) "代替财神牌": it plays the wild kind's own face — a 白板 is
  scored as a natural, non-wild tile of kind ``W``.  When ``W`` is 白板
  itself, the 白板 are the wilds and nothing stands in for them.
* Declared melds are taken at face value (a wild can be neither discarded nor
  used to chi, so it never enters a claimed meld); a 白板 in a meld is read
  as ``W`` like any other 白板.
* A hand with wilds scores the best total over every assignment of its wilds
  to kinds that completes it (就高不就低).  No kind may end up with more
  than four tiles in the hand and melds together.  When the winning tile is
  itself a wild, each kind it could stand for is tried as the winning tile.

Efficiency: assignments are enumerated as multisets in kind order and pruned
with :func:`games.rules.shanten.kinds_below`: a branch is only followed when
the still unassigned wilds can complete the hand, so only kinds that can
complete the hand are ever scored (at most a few dozen scorer calls even
with four wilds).  The assignments of a tile multiset, each with the
standing tiles it leaves, are remembered (:func:`_readings`): a bot scores
the same tiles as a discard win and as a self-drawn win.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from .errors import InvalidHandError
from .melds import Meld, MeldKind
from .scoring import NOT_COMPLETE_RESULT, ScoreResult, score_from_counts
from .shanten import Shape, kinds_below
from .situation import WinSituation
from .tiles import NUM_KINDS, Tile
from .waits import waits

if TYPE_CHECKING:
    from .rulesets.base import RuleSet

WHITE = Tile(31)
"""白板, which stands for the wild kind's own face (seed 002)."""
_WHITE = WHITE.index  # tiles compared by index: a dataclass __eq__ is slow
_CHI = MeldKind.CHI
_PUNG = MeldKind.PUNG
_CONCEALED_KONG = MeldKind.CONCEALED_KONG


def face(tile: Tile, wild: Tile) -> Tile:
    """Return the face a non-wild tile is scored as: 白板 → ``wild``, else itself."""
    if tile.index == _WHITE and wild.index != _WHITE:
        return wild
    return tile


def split_counts(counts: Sequence[int], wild: int | None) -> tuple[list[int], int]:
    """Split a 34-count vector into natural faces and a wild count (seed 002).

    The one place the rule is applied (the scorer, the engine's win tests
    and the bots all call it): the tiles of the wild kind (index ``wild``)
    are wilds; 白板 plays the wild kind's own face unless the wild kind is
    白板 itself.  With ``wild`` None every tile counts at face value.
    Returns ``(faces, wilds)``; ``counts`` is not changed.
    """
    out = list(counts)
    if wild is None:
        return out, 0
    n = out[wild]
    out[wild] = 0
    white = WHITE.index
    if wild != white:
        out[wild] = out[white]
        out[white] = 0
    return out, n


def split_wilds(tiles: Sequence[Tile], wild: Tile | None) -> tuple[list[int], int]:
    """Split tiles into a 34-count vector of natural faces and a wild count.

    :func:`split_counts` of the tiles' counts.

    Raises:
        ValueError: a flower among the tiles.
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t.is_flower:
            raise InvalidHandError(f"flower {t} cannot stand in a hand")
        counts[t.index] += 1
    return split_counts(counts, None if wild is None else wild.index)


def meld_faces(melds: Sequence[Meld], wild: Tile) -> list[Meld]:
    """Return ``melds`` with every 白板 read as the wild kind (seed 002)."""
    if wild.index == _WHITE:
        return list(melds)
    out = []
    for m in melds:
        # a Meld's tiles are checked and sorted when it is made: a chi holds
        # no honour, any other meld one kind, its first tile's
        if m.kind is not _CHI and m.tiles[0].index == _WHITE:
            claimed = face(m.claimed, wild) if m.claimed is not None else None
            out.append(Meld(m.kind, tuple(face(t, wild) for t in m.tiles), claimed))
        else:
            out.append(m)
    return out


def _meld_counts(melds: Sequence[Meld]) -> list[int]:
    """The 34 counts of the tiles of ``melds``.

    Read from each meld's kind and first tile: a Meld's tiles are checked
    and sorted when it is made (a chi is a run from its first tile, a pung
    three and a kong four tiles of one kind).
    """
    out = [0] * NUM_KINDS
    for m in melds:
        i = m.tiles[0].index
        kind = m.kind
        if kind is _CHI:
            out[i] += 1
            out[i + 1] += 1
            out[i + 2] += 1
        elif kind is _PUNG:
            out[i] += 3
        else:
            out[i] += 4
    return out


def wild_assignments(
    counts: Sequence[int],
    wilds: int,
    *,
    melds: int,
    fixed: Sequence[int],
    ruleset: RuleSet,
) -> Iterator[tuple[int, ...]]:
    """Yield every multiset of kinds (sorted tuples of indices) the wilds
    can stand for so that the hand is complete in the rule set's shapes.

    Args:
        counts: 34 counts of the concealed tiles (winning tile included)
            without the wilds; with ``wilds`` they total ``14 - 3*melds``.
        wilds: how many wilds to assign.
        melds: number of declared melds.
        fixed: 34 counts of the tiles in declared melds; a kind never ends
            up with more than four tiles in all.
        ruleset: gives the shapes and the kinds a wild may stand for.

    With ``wilds == 0`` the empty assignment is yielded without a check.
    """
    yield from _enumerate(
        counts, wilds, melds, fixed, ruleset.kind_indices, ruleset.shapes
    )


def _enumerate(
    counts: Sequence[int],
    wilds: int,
    melds: int,
    fixed: Sequence[int],
    allowed: frozenset[int],
    shapes: frozenset[Shape],
) -> list[tuple[int, ...]]:
    """:func:`wild_assignments` with the rule set read as the kinds a wild
    may stand for (``allowed``) and its ``shapes``, as a list in the same
    order (kind order; made by one recursion, not a generator per wild).

    Raises:
        InvalidHandError: as :func:`~games.rules.waits.waits` of a bad hand.
    """
    if wilds == 0:
        return [()]
    work = list(counts)
    out: list[tuple[int, ...]] = []

    def rec(start: int, left: int, prefix: tuple[int, ...]) -> None:
        if left == 1:
            # the last wild: the natural hand's waits (sorted), which the
            # per-suit tables give faster than a test per kind (same kinds)
            for k in _natural_waits(tuple(work), melds, shapes):
                if k >= start and k in allowed and work[k] + fixed[k] < 4:
                    out.append((*prefix, k))
            return
        # complete with the other left - 1 wilds: a deficiency below left
        room = [
            k
            for k in range(start, NUM_KINDS)
            if k in allowed and work[k] + fixed[k] < 4
        ]
        for k in kinds_below(work, melds, shapes, room, left):
            work[k] += 1
            rec(k, left - 1, (*prefix, k))
            work[k] -= 1

    rec(0, wilds, ())
    return out


@lru_cache(maxsize=4096)
def _natural_waits(
    t: tuple[int, ...], melds: int, shapes: frozenset[Shape]
) -> tuple[int, ...]:
    """:func:`~games.rules.waits.waits` of natural counts ``t`` (no wild
    left), kept for the last 4,096 hands: the readings of one hand's waits
    meet the same natural hands again (a wild read as ``a`` winning on
    ``b``, then as ``b`` winning on ``a``; 41 % of the calls of 200
    self-played liangren hands).  An error is raised each time (an
    ``lru_cache`` keeps no exception)."""
    return tuple(waits(t, melds=melds, shapes=shapes))


_Reading = tuple[tuple[int, ...], int, tuple[int, ...]]
"""One way to score a hand with wilds: the assignment, the winning tile's
kind and the 34 counts of the standing tiles (without the winning tile) it
leaves."""


@lru_cache(maxsize=1 << 14)
def _readings(
    counts: tuple[int, ...],
    wilds: int,
    melds: int,
    fixed: tuple[int, ...],
    allowed: frozenset[int],
    shapes: frozenset[Shape],
    win: int,
) -> tuple[_Reading, ...]:
    """Every reading of a hand to score, kept for the last 16,384 hands.

    The assignments of :func:`_enumerate`, in order; with each, the kind
    the winning tile is scored as — ``win`` (its face), or when ``win`` is
    -1 (the winning tile is a wild) each kind of the assignment in turn —
    and the counts of the standing tiles left.  The bots score the same 14
    tiles several times (won on a discard, then self-drawn; other winds or
    flags), and the enumeration is most of a score with wilds.  The
    arguments are everything the readings depend on (the rule set as its
    kinds and shapes, which are hashable).
    """
    out: list[_Reading] = []
    for assign in _enumerate(counts, wilds, melds, fixed, allowed, shapes):
        full = list(counts)
        for k in assign:
            full[k] += 1
        for wk in sorted(set(assign)) if win < 0 else (win,):
            full[wk] -= 1
            out.append((assign, wk, tuple(full)))
            full[wk] += 1
    return tuple(out)


@lru_cache(maxsize=4096)
def _plain(situation: WinSituation, win: int) -> WinSituation:
    """``situation`` without the wild, won on the kind ``win``: what the
    plain scorer is given for one reading.  Kept for the last 4,096
    (situation, kind) pairs: a bot scores every wait of its hands under the
    same few situations, and :func:`dataclasses.replace` costs several
    times the lookup."""
    plain = replace(situation, wild=None)
    if plain.win_tile.index == win:
        return plain
    return replace(plain, win_tile=Tile.from_index(win))


@dataclass(frozen=True, slots=True)
class WildScore:
    """The best score over the wilds' assignments.

    Attributes:
        result: the scorer's breakdown for the best assignment.
        assignment: what each wild was scored as, in kind order (empty when
            the hand held no wild).
        tried: how many (assignment, winning tile) pairs were scored.
    """

    result: ScoreResult
    assignment: tuple[Tile, ...]
    tried: int


def score_wild(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> WildScore:
    """Score a hand holding 财神 wilds: the best total over all assignments.

    ``situation.wild`` names the wild kind (see the module docstring for
    白板 and melds).  Arguments are those of
    :func:`games.rules.scoring.score`.

    Returns:
        The best :class:`WildScore` — a winning result (complete and at the
        minimum) beats a losing one, then the higher total, then the first
        found.  When no assignment completes the hand, ``result.win`` is
        False with ``"not a complete hand"``.

    Raises:
        InvalidHandError: ``situation.wild`` unset or a flower; a claimed meld
            holding the wild kind (财神 cannot be discarded nor used to chi);
            or every completing assignment is impossible (the scorer's error
            for the first one, e.g. a fifth copy).
    """
    wild = situation.wild
    if wild is None or wild.is_flower:
        raise InvalidHandError("score_wild needs situation.wild, a playing tile")
    _check_claimed(melds, wild)
    counts, wilds = split_wilds([*concealed, situation.win_tile], wild)
    return _score_split(counts, wilds, len(concealed), melds, situation, ruleset)


def score_wild_counts(
    standing: Sequence[int],
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> WildScore:
    """:func:`score_wild` of a hand whose standing tiles (without the
    winning tile ``situation.win_tile``) are given as 34 counts: the same
    result and errors, without building the tiles and counting them again
    (the engine and the bots hold counts).

    Raises:
        InvalidHandError: as :func:`score_wild`.
    """
    wild = situation.wild
    if wild is None or wild.is_flower:
        raise InvalidHandError("score_wild needs situation.wild, a playing tile")
    _check_claimed(melds, wild)
    faces, wilds = split_counts(standing, wild.index)
    win = situation.win_tile
    if win.is_flower:
        raise InvalidHandError(f"flower {win} cannot stand in a hand")
    if win.index == wild.index:
        wilds += 1
    else:
        faces[face(win, wild).index] += 1
    return _score_split(faces, wilds, sum(standing), melds, situation, ruleset)


def _check_claimed(melds: Sequence[Meld], wild: Tile) -> None:
    """Refuse a claimed meld holding the wild kind (:func:`score_wild`)."""
    wi = wild.index
    for m in melds:
        kind = m.kind
        if kind is _CONCEALED_KONG:
            continue
        # a Meld's tiles are checked and sorted when it is made: a chi is a
        # run from its first tile, any other meld one kind
        first = m.tiles[0].index
        if first <= wi <= first + 2 if kind is _CHI else first == wi:
            raise InvalidHandError(
                f"{m}: 财神 {wild} cannot be in a claimed meld (seed 002: "
                "财神不能在游戏过程中出掉或用于吃牌)"
            )


def _score_split(
    counts: list[int],
    wilds: int,
    n_concealed: int,
    melds: Sequence[Meld],
    situation: WinSituation,
    ruleset: RuleSet,
) -> WildScore:
    """:func:`score_wild` from the split counts (:func:`split_counts`) of the
    concealed tiles and the winning tile, ``n_concealed`` the concealed
    tiles without the winning tile (for the error message)."""
    wild = situation.wild
    assert wild is not None  # checked by both callers
    wi = wild.index
    faced = meld_faces(melds, wild)
    fixed = _meld_counts(faced)
    win = situation.win_tile
    need = 14 - 3 * len(melds)
    if sum(counts) + wilds != need:
        raise InvalidHandError(
            f"with {len(melds)} meld(s) the concealed tiles must be {need - 1}"
            f" (without the winning tile), got {n_concealed}"
        )
    win_is_wild = win.index == wi
    win_face = face(win, wild).index
    if not win_is_wild:
        natural = counts[win_face]  # the winning tile included
        if situation.kong and not situation.self_drawn and natural > 1:
            raise InvalidHandError(
                "抢杠和 (kong, not self_drawn): the robbed tile cannot be held as well"
            )
        if situation.last_tile and natural > 1:
            raise InvalidHandError(
                "和绝张 (last_tile): a copy of the winning tile is in the"
                " concealed hand"
            )
    best: ScoreResult | None = None
    best_assign: tuple[Tile, ...] = ()
    first_error: InvalidHandError | None = None
    tried = 0
    as_win: dict[int, WinSituation] = {}  # the situation per winning kind
    readings = _readings(
        tuple(counts),
        wilds,
        len(melds),
        tuple(fixed),
        ruleset.kind_indices,
        ruleset.shapes,
        -1 if win_is_wild else win_face,
    )
    for assign, wk, standing in readings:
        sit = as_win.get(wk)
        if sit is None:
            sit = as_win[wk] = _plain(situation, wk)
        tried += 1
        try:
            res = score_from_counts(standing, faced, sit, ruleset)
        except InvalidHandError as exc:
            first_error = first_error or exc
            robbed = sit.kong and not sit.self_drawn
            if wk not in assign or not (robbed or sit.last_tile):
                continue
            # A wild read as the robbed / last kind is a fifth copy: 抢杠和
            # and 和绝张 presuppose all four natural copies accounted for,
            # so this reading scores without them (RULES.md, liangren).
            sit = replace(
                sit,
                last_tile=False,
                kong=sit.kong and sit.self_drawn,
            )
            try:
                res = score_from_counts(standing, faced, sit, ruleset)
            except InvalidHandError:
                continue
        if best is None or (res.win, res.total) > (best.win, best.total):
            best = res
            best_assign = tuple(Tile.from_index(k) for k in assign)
    if best is None:
        if first_error is not None:
            raise first_error
        best = NOT_COMPLETE_RESULT
    return WildScore(best, best_assign, tried)


__all__ = [
    "WHITE",
    "WildScore",
    "face",
    "meld_faces",
    "score_wild",
    "score_wild_counts",
    "split_counts",
    "split_wilds",
    "wild_assignments",
]
