"""What a bot knows: one seat's view of a hand, as plain typed data.

A bot is built only from ``Hand.view(seat)`` and ``Hand.legal_actions(seat)``
(issue 5: it never peeks at the wall or the opponent's concealed tiles).
:class:`Observation` is that view normalised into count vectors and melds, so
the evaluation code does not depend on the JSON layout of the view;
:func:`observation_from_view` is the only function that reads the view dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ...rules.melds import Meld, MeldKind
from ...rules.rulesets import RuleSet
from ...rules.rulesets import get as get_ruleset
from ...rules.tiles import ALL_TILES, NUM_KINDS, Tile
from ..state import Phase
from ..task import Task

if TYPE_CHECKING:
    from ..hand import Hand

EAST = 27


class Observation(NamedTuple):
    """One seat's knowledge of the hand (immutable).

    A named tuple rather than a frozen dataclass: every decision builds
    one, and a frozen dataclass sets each of its 24 fields through
    ``object.__setattr__``.

    Attributes:
        ruleset: the rule set in force.
        seat: the observing seat (0 or 1).
        hand: 34 counts of the seat's concealed tiles (the drawn tile and any
            财神 included).
        drawn: the tile just drawn, or ``None``.
        melds, opp_melds: declared melds of the seat and of the opponent
            (concealed kongs of the opponent appear as the view shows them).
        discards, opp_discards: tile indices in discard order, as still lying
            in the pools (claimed tiles are in the melds).
        opp_ready_index: when the opponent declared 报听, how many of
            ``opp_discards`` were made before the declaration; discards from
            that index on cannot be its winning tile (the locked hand would
            have been asked to win).  ``None`` when it has not declared.
        ready: whether this seat declared 报听.
        wall_count: tiles left to draw.
        opp_concealed: the opponent's concealed tile count.
        wild: the 财神 kind (seed 002), or ``None``.
        indicators: other visible tiles (财神 indicator, 加番牌).
        flowers: this seat's flowers.
        seat_wind, round_wind: tile indices 27–30.
        offered: the opponent's discard on offer in a claim, or ``None``.
        bonus_tile: the 加番牌 kind (seed 001), or ``None``.
        opp_meld_count: the opponent's melds, face-down 暗杠 included.
        win_doubles: this seat's 胡加倍 so far; swaps: its 换牌 so far.
        task: the hand's 任务 (seed 000 任务加倍), or ``None``.
        doubled: this seat chose 开始加倍 or 加倍 (the ``double`` task).
    """

    ruleset: RuleSet
    seat: int
    hand: tuple[int, ...]
    drawn: int | None = None
    melds: tuple[Meld, ...] = ()
    opp_melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()
    opp_discards: tuple[int, ...] = ()
    opp_ready_index: int | None = None
    ready: bool = False
    wall_count: int = 50
    opp_concealed: int = 13
    wild: int | None = None
    indicators: tuple[int, ...] = ()
    flowers: tuple[int, ...] = ()
    seat_wind: int = EAST
    round_wind: int = EAST
    offered: int | None = None
    bonus_tile: int | None = None
    opp_meld_count: int = 0
    win_doubles: int = 0
    swaps: int = 0
    task: Task | None = None
    doubled: bool = False

    @property
    def opp_ready(self) -> bool:
        """Whether the opponent declared 报听."""
        return self.opp_ready_index is not None

    @property
    def dealer(self) -> bool:
        """Whether this seat deals (its seat wind is 东, seed 000 以庄为东风位)."""
        return self.seat_wind == EAST

    def _seen(self) -> list[int]:
        """Per kind, the copies this seat sees (hand, both seats' melds and
        discards, indicators); not clamped."""
        v = list(self.hand)
        for ms in (self.melds, self.opp_melds):
            for m in ms:
                for t in m.tiles:
                    v[t.index] += 1
        for pool in (self.discards, self.opp_discards, self.indicators):
            for k in pool:
                if k < NUM_KINDS:
                    v[k] += 1
        return v

    def visible(self) -> list[int]:
        """Return 34 counts of every tile this seat can see (clamped at 4)."""
        return [min(x, 4) for x in self._seen()]

    def unseen(self) -> list[int]:
        """Return, per kind, copies this seat cannot see (0 for kinds absent
        from the rule set's wall): ``4 - visible()[k]``, in one pass.

        Every decision asks (:func:`~.evaluate.make_context`), so the count
        is not clamped and then subtracted as :meth:`visible` would.
        """
        return [
            4 - x if x < 4 and live else 0
            for x, live in zip(self._seen(), _kind_mask(self.ruleset), strict=True)
        ]


_MASKS: dict[str, tuple[bool, ...]] = {}
# one mask per rule set name: a small finite domain (the registered rule sets
# and the few a test builds)


def _kind_mask(ruleset: RuleSet) -> tuple[bool, ...]:
    mask = _MASKS.get(ruleset.name)
    if mask is None:
        present = {t.index for t in ruleset.kinds}
        mask = tuple(k in present for k in range(NUM_KINDS))
        _MASKS[ruleset.name] = mask
    return mask


# -- the engine's view dict --------------------------------------------------


_INDEX_OF = {str(t): t.index for t in ALL_TILES}


def _tile_index(value: Any) -> int:
    got = _INDEX_OF.get(value) if type(value) is str else None
    if got is not None:
        return got
    if isinstance(value, int):
        return value
    return Tile.parse(str(value)).index


def _tiles(values: Any) -> list[int]:
    if values is None:
        return []
    if isinstance(values, str):
        from ...rules.tiles import parse_tiles

        return [t.index for t in parse_tiles(values)]
    try:  # the view's own form: tile codes ("5z")
        return [_INDEX_OF[v] for v in values]
    except (KeyError, TypeError):
        return [_tile_index(v) for v in values]


def _counts(values: Any) -> tuple[int, ...]:
    if (
        isinstance(values, list | tuple)
        and len(values) == NUM_KINDS
        and all(isinstance(v, int) and 0 <= v <= 4 for v in values)
    ):
        # a 34-count vector
        return tuple(values)
    c = [0] * NUM_KINDS
    for k in _tiles(values):
        if k < NUM_KINDS:
            c[k] += 1
    return tuple(c)


def _meld(value: Any) -> Meld:
    if isinstance(value, Meld):
        return value
    if type(value) is dict and value.get("claimed") is None:
        tiles = value["tiles"]
        if type(tiles) is list:  # the view's form: {kind, tiles: ["1m", …]}
            return _listed_meld(str(value["kind"]), tuple(tiles))
    if isinstance(value, str):
        kind, _, tiles = value.partition(":")
        return Meld.parse(kind, tiles)
    kind = str(value["kind"])
    tiles = value["tiles"]
    if isinstance(tiles, str):
        tile_list = tuple(Tile.from_index(k) for k in _tiles(tiles))
    else:
        tile_list = tuple(Tile.from_index(_tile_index(t)) for t in tiles)
    if kind == MeldKind.CONCEALED_KONG and len(tile_list) < 4:
        # a hidden concealed kong: its kind is unknown to the opponent
        raise ValueError("hidden concealed kong")
    claimed = value.get("claimed")
    return Meld(
        MeldKind(kind),
        tile_list,
        Tile.from_index(_tile_index(claimed)) if claimed else None,
    )


@lru_cache(maxsize=4096)
def _listed_meld(kind: str, tiles: tuple[Any, ...]) -> Meld:
    """A meld of the view's form ``{kind, tiles}`` without a claimed tile.

    Melds are immutable and few (a few hundred kinds of meld exist), so one
    value per distinct meld is kept: 4,096 of them at most.
    """
    return _meld({"kind": kind, "tiles": list(tiles), "claimed": False})


def _melds(values: Any) -> tuple[Meld, ...]:
    out: list[Meld] = []
    for v in values or ():
        try:
            out.append(_meld(v))
        except (ValueError, KeyError, TypeError):
            continue  # a meld whose tiles this seat may not see
    return tuple(out)


def observation_from_view(view: Mapping[str, Any]) -> Observation:
    """Build an :class:`Observation` from ``Hand.view(seat)``.

    Where the opponent's 报听 began is the view's
    ``opponent.ready_discard_index`` (without it, e.g. a hand-made view: all
    its discards count as made before).

    Raises:
        KeyError: the view lacks a required field (ruleset, seat, me).
    """
    seat = int(view["seat"])
    ruleset = get_ruleset(str(view["ruleset"]))
    me = view["me"]
    them = view["opponent"]
    counts = list(_counts(me.get("concealed") or []))
    drawn = me.get("drawn")
    if drawn is not None:
        counts[_tile_index(drawn)] += 1
    ready_at: int | None = None
    if them.get("ready"):
        idx = them.get("ready_discard_index")
        ready_at = int(idx) if idx is not None else len(them.get("discards") or [])
    ind = view.get("indicators") or {}
    wild = ind.get("wild")
    bonus = ind.get("bonus_tile")
    indicators = [_tile_index(v) for v in (ind.get("wild_indicator"),) if v]
    round_wind = view.get("round_wind")
    offered = view.get("last_discard") if view.get("phase") == "claim" else None
    return Observation(
        ruleset=ruleset,
        seat=seat,
        hand=tuple(counts),
        drawn=None if drawn is None else _tile_index(drawn),
        melds=_melds(me.get("melds")),
        opp_melds=_melds(them.get("melds")),
        opp_meld_count=len(them.get("melds") or ()),
        discards=tuple(_tiles(me.get("discards"))),
        opp_discards=tuple(_tiles(them.get("discards"))),
        opp_ready_index=ready_at,
        ready=bool(me.get("ready")),
        wall_count=int(view.get("wall_count", 50)),
        opp_concealed=int(them.get("concealed_count", 13)),
        wild=None if wild is None else _tile_index(wild),
        indicators=tuple(indicators),
        flowers=tuple(_tiles(me.get("flowers"))),
        seat_wind=_tile_index(me.get("wind") or "1z"),
        round_wind=EAST if round_wind is None else _tile_index(round_wind),
        offered=None if offered is None else _tile_index(offered),
        bonus_tile=None if bonus is None else _tile_index(bonus),
        win_doubles=int(me.get("win_doubles") or 0),
        swaps=int(me.get("swaps") or 0),
        task=Task.from_json(view.get("task")),
        doubled=bool(me.get("start_double") or me.get("deal_double")),
    )


def observation_from_hand(hand: Hand, seat: int) -> Observation:
    """The :class:`Observation` of ``seat``, read from the hand's state.

    Equal to ``observation_from_view(hand.view(seat))`` while the hand is
    live (tested on every decision of self-played hands of every rule set),
    without rendering the view's JSON and parsing it back: the same fields,
    the same redactions (the opponent's face-down 暗杠 left out of
    ``opp_melds`` but counted in ``opp_meld_count``; melds without their
    claimed tile, as the view gives them).
    """
    s = hand.state
    other = 1 - seat
    ended = s.phase is Phase.ENDED
    ready_at: int | None = None
    if s.ready[other]:
        ready_at = int(s.ready_pool[other])
    drawn = s.drawn[seat]
    # most decisions are made without melds: no generator for them
    mine = s.melds[seat]
    theirs = s.melds[other]
    # positional, in the fields' order (``_make``): a named tuple's
    # ``__new__`` called with 24 keywords costs five times as much, once
    # per decision
    return Observation._make(
        (
            get_ruleset(s.ruleset),  # ruleset
            seat,  # seat
            tuple(s.concealed[seat]),  # hand
            None if ended else drawn,  # drawn
            tuple(map(_face_meld, mine)) if mine else (),  # melds
            tuple(  # opp_melds
                _face_meld(m)
                for m in theirs
                if ended or m.kind is not MeldKind.CONCEALED_KONG
            )
            if theirs
            else (),
            tuple(s.discards[seat]),  # discards
            tuple(s.discards[other]),  # opp_discards
            ready_at,  # opp_ready_index
            bool(s.ready[seat]),  # ready
            s.wall_count,  # wall_count
            sum(s.concealed[other]),  # opp_concealed
            s.wild,  # wild
            (),  # indicators: the view shows no other indicator tiles
            tuple(s.flowers[seat]),  # flowers
            hand.seat_wind(seat).index,  # seat_wind
            s.round_wind,  # round_wind
            s.last_discard if s.phase is Phase.CLAIM else None,  # offered
            s.bonus_tile,  # bonus_tile
            len(theirs),  # opp_meld_count
            int(s.win_doubles[seat]),  # win_doubles
            int(s.swaps[seat]),  # swaps
            s.task,  # task
            bool(s.start_double[seat] or s.deal_double[seat]),  # doubled
        )
    )


@lru_cache(maxsize=4096)
def _face_meld(meld: Meld) -> Meld:
    """``meld`` as the view shows it: kind and tiles, no claimed tile (the
    same bound as :func:`_listed_meld`)."""
    if meld.claimed is None:
        return meld
    return Meld(meld.kind, meld.tiles)


def hand_tiles(counts: Sequence[int]) -> list[Tile]:
    """Return the tiles of a count vector, in index order."""
    return [Tile.from_index(k) for k, n in enumerate(counts) for _ in range(n)]
