"""Fans of the two-player rule sets that MCR does not have (seeds 000, 001).

Each fan is one :class:`~games.rules.fans.base.Fan` unit whose condition reads
a :class:`~games.rules.scoring.ScoringContext`.  The *values* here are the
ones of the rule set that introduced the fan; a rule set that values it
differently re-values it with :meth:`Fan.with_points` (天听: 32 in seed 000,
16 in seed 001).

Situational fans read flags of :class:`~games.rules.situation.WinSituation`
(``heavenly``, ``earthly``, ``human``, ``heavenly_ready``, ``ready``,
``ready_first``, ``bonus_tiles``); the engine sets them, the scorer trusts
them.  :func:`build_table` assembles a rule set's table from MCR fans and
these, keeping every value's source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..first_turn import ready_first_implied
from ..shanten import Shape
from ..tiles import Tile
from .base import Fan

if TYPE_CHECKING:
    from ..scoring import ScoringContext

S000 = "seed 000 二人麻将 牌型范例及规则结算"
S001 = "seed 001 JJ 二人麻将"

_WINDS = range(27, 31)
_DRAGONS = range(31, 34)
_HONORS = range(27, 34)


# -- conditions --------------------------------------------------------------


def _heavenly(ctx: ScoringContext) -> int:
    return int(ctx.situation.heavenly)


def _earthly(ctx: ScoringContext) -> int:
    return int(ctx.situation.earthly)


def _human(ctx: ScoringContext) -> int:
    return int(ctx.situation.human)


def _heavenly_ready(ctx: ScoringContext) -> int:
    return int(ctx.situation.heavenly_ready)


def _ready(ctx: ScoringContext) -> int:
    s = ctx.situation
    return int(s.ready or s.heavenly_ready or s.ready_first)


def _ready_first(ctx: ScoringContext) -> int:
    # "报听后，对家打出的第一张牌点炮" — a win on a discard only; a 人胡 after
    # 天听 is one (games/rules/first_turn.py).
    return int(ready_first_implied(ctx.situation))


def _seven_pairs_with(kinds: Iterable[int]) -> Callable[[ScoringContext], int]:
    need = tuple(kinds)

    def cond(ctx: ScoringContext) -> int:
        if ctx.shape is not Shape.SEVEN_PAIRS:
            return 0
        c = ctx.counts
        return int(all(c[i] >= 2 for i in need))

    return cond


def _big_seven_stars(ctx: ScoringContext) -> int:
    if ctx.shape is not Shape.SEVEN_PAIRS:
        return 0
    c = ctx.counts
    return int(all(c[i] == 2 for i in _HONORS))


def _little_three_winds(ctx: ScoringContext) -> int:
    pair = ctx.pair
    if pair is None or not pair.is_wind:
        return 0
    winds = [g.tile for g in ctx.triplets if g.tile.is_wind]
    return int(len(winds) == 2 and pair not in winds)


def _flower_set(first: int) -> Callable[[ScoringContext], int]:
    need = frozenset(Tile(34 + first + i) for i in range(4))

    def cond(ctx: ScoringContext) -> int:
        return int(need <= frozenset(ctx.situation.flowers))

    return cond


def _all_flowers(ctx: ScoringContext) -> int:
    return int(len(set(ctx.situation.flowers)) == 8)


def _no_flowers(ctx: ScoringContext) -> int:
    return int(not ctx.situation.flowers)


def _seat_flower(ctx: ScoringContext) -> int:
    # seed 001: 门风 东 → 春/梅, 南 → 夏/兰, 西 → 秋/竹, 北 → 冬/菊.
    r = ctx.situation.seat_wind.rank  # 1..4
    own = {Tile(34 + r - 1), Tile(34 + r + 3)}
    return sum(1 for f in set(ctx.situation.flowers) if f in own)


def _pair_ranks(ranks: frozenset[int]) -> Callable[[ScoringContext], int]:
    def cond(ctx: ScoringContext) -> int:
        p = ctx.pair
        return int(p is not None and p.is_suited and p.rank in ranks)

    return cond


def _bonus_tile(ctx: ScoringContext) -> int:
    # seed 001: "胡牌时手牌含有加番牌（吃碰杠含有加番牌也计算在内），
    # 那么结算时额外增加10番" — once per bonus kind held (RULES.md, jj),
    # flowers included.
    c = ctx.counts
    held = 0
    for t in set(ctx.situation.bonus_tiles):
        if (t.is_flower and t in ctx.situation.flowers) or (
            not t.is_flower and c[t.index] > 0
        ):
            held += 1
    return held


def _big_wheels(ctx: ScoringContext) -> int:
    if ctx.shape is not Shape.SEVEN_PAIRS:
        return 0
    c = ctx.counts
    return int(all(c[i] == 2 for i in range(10, 17)))  # 2p … 8p


# -- the units ---------------------------------------------------------------

_WAITS = frozenset({"EDGE_WAIT", "CLOSED_WAIT", "SINGLE_WAIT"})
_SEVEN_PAIRS_X = frozenset(
    {"SEVEN_PAIRS", "CONCEALED_HAND", "FULLY_CONCEALED_HAND", "SINGLE_WAIT"}
)

HEAVENLY_HAND = Fan(
    "HEAVENLY_HAND",
    "天胡",
    "Heavenly Hand",
    48,
    _heavenly,
    excludes=_WAITS,
    source=f"{S000}: 天胡 48 不记番 单钓将、边张、砍张; {S001} 天胡 48",
)
"""天胡: the dealer wins on the deal (after 补花; not after a concealed kong)."""

EARTHLY_HAND = Fan(
    "EARTHLY_HAND",
    "地胡",
    "Earthly Hand",
    32,
    _earthly,
    source=f"{S000}: 地胡 32; {S001} 地胡 32",
)
"""地胡: the non-dealer wins with the first draw, no claim by anyone before."""

HUMAN_HAND = Fan(
    "HUMAN_HAND",
    "人胡",
    "Human Hand",
    24,
    _human,
    source=f"{S000}: 人胡 24; {S001} 人胡 24",
)
"""人胡: the non-dealer wins on the dealer's first discard."""

HEAVENLY_READY = Fan(
    "HEAVENLY_READY",
    "天听",
    "Heavenly Ready",
    32,
    _heavenly_ready,
    excludes=frozenset({"READY_HAND"}),
    source=f"{S000}: 天听 32 (不计报听: 不重复, RULES.md)",
)
"""天听: 报听 at the first chance; scored only with a win (天听要在和牌后才算番)."""

READY_HAND = Fan(
    "READY_HAND",
    "报听",
    "Ready Hand",
    4,
    _ready,
    source=f"{S000}: 报听 4; {S001}: 报听 4 (和牌时，已经选择听牌)",
)
"""报听: the winner had declared ready (天听 and 报听一发 imply it)."""

READY_FIRST_DISCARD = Fan(
    "READY_FIRST_DISCARD",
    "报听一发",
    "Ready, First Discard",
    4,
    _ready_first,
    source=f"{S000}: 报听一发 4 (报听后，对家打出的第一张牌点炮); stacks with 报听",
)
"""报听一发: won on the opponent's first discard after 报听."""

BIG_SEVEN_STARS = Fan(
    "BIG_SEVEN_STARS",
    "大七星",
    "Big Seven Stars",
    88,
    _big_seven_stars,
    excludes=_SEVEN_PAIRS_X
    | {
        "ALL_HONORS",
        "FOUR_WINDS_SEVEN_PAIRS",
        "THREE_DRAGONS_SEVEN_PAIRS",
        "ALL_TERMINALS_AND_HONORS",
    },
    source=f"{S000}: 大七星 88 东南西北中发白7对; 不记 字一色、不求人、单钓、"
    "门清、七对、四喜七对、三元七对 (+混幺九, RULES.md)",
)
"""大七星: seven pairs of 东 南 西 北 白 发 中."""

FOUR_WINDS_SEVEN_PAIRS = Fan(
    "FOUR_WINDS_SEVEN_PAIRS",
    "四喜七对",
    "Four Winds Seven Pairs",
    48,
    _seven_pairs_with(_WINDS),
    excludes=_SEVEN_PAIRS_X,
    source=f"{S000}: 四喜七对子 48 含东南西北的七对 (不计七对: 不重复)",
)
"""四喜七对: seven pairs including a pair of each wind."""

THREE_DRAGONS_SEVEN_PAIRS = Fan(
    "THREE_DRAGONS_SEVEN_PAIRS",
    "三元七对",
    "Three Dragons Seven Pairs",
    48,
    _seven_pairs_with(_DRAGONS),
    excludes=_SEVEN_PAIRS_X,
    source=f"{S000}: 三元七对子 48 含中发白的七对 (不计七对: 不重复)",
)
"""三元七对: seven pairs including a pair of each dragon."""

LITTLE_THREE_WINDS = Fan(
    "LITTLE_THREE_WINDS",
    "小三风",
    "Little Three Winds",
    6,
    _little_three_winds,
    source=f"{S000}: 小三风 6 2风刻/风杠+1风对",
)
"""小三风: exactly two wind pungs/kongs and a pair of a third wind."""

NO_FLOWERS = Fan(
    "NO_FLOWERS",
    "无花牌",
    "No Flowers",
    4,
    _no_flowers,
    counts_toward_minimum=False,
    source=f"{S000}: 无花牌 4 一张花牌都没拿到 (not toward the minimum, RULES.md)",
)
"""无花牌: the winner drew no flower at all."""

FOUR_PLANTS = Fan(
    "FOUR_PLANTS",
    "梅兰竹菊",
    "Four Plants",
    4,
    _flower_set(4),
    counts_toward_minimum=False,
    source=f"{S000}: 梅兰菊竹 4; {S001}: 梅兰竹菊 1 不计入起胡番数",
)
"""梅兰竹菊: all four plant flowers (5f–8f)."""

FOUR_SEASONS = Fan(
    "FOUR_SEASONS",
    "春夏秋冬",
    "Four Seasons",
    4,
    _flower_set(0),
    counts_toward_minimum=False,
    source=f"{S000}: 春夏秋冬 4; {S001}: 春夏秋冬 1 不计入起胡番数",
)
"""春夏秋冬: all four season flowers (1f–4f)."""

ALL_FLOWERS = Fan(
    "ALL_FLOWERS",
    "八仙过海",
    "All Flowers",
    88,
    _all_flowers,
    excludes=frozenset({"SEAT_FLOWER", "FOUR_SEASONS", "FOUR_PLANTS"}),
    source=f"{S001}: 八仙过海 88 手里有所有的8张花牌; 不记番 季花，春夏秋冬梅兰竹菊",
)
"""八仙过海: all eight flowers."""

SEAT_FLOWER = Fan(
    "SEAT_FLOWER",
    "季花",
    "Seat Flower",
    1,
    _seat_flower,
    counts_toward_minimum=False,
    source=f"{S001}: 季花 1 和自己门风相同序号的花牌 (each; 不计入起胡番数)",
)
"""季花: each flower numbered like the seat wind (东 春/梅 … 北 冬/菊)."""

TWO_FIVE_EIGHT_PAIR = Fan(
    "TWO_FIVE_EIGHT_PAIR",
    "二五八将",
    "2-5-8 Pair",
    1,
    _pair_ranks(frozenset({2, 5, 8})),
    source=f"{S001}: 二五八将 1 将牌是二、五、八的序数牌",
)
"""二五八将: the pair is a suited 2, 5 or 8."""

TERMINAL_PAIR = Fan(
    "TERMINAL_PAIR",
    "幺九头",
    "Terminal Pair",
    1,
    _pair_ranks(frozenset({1, 9})),
    source=f"{S001}: 幺九头 1 将牌是一、九的序数牌",
)
"""幺九头: the pair is a suited 1 or 9."""

BONUS_TILE = Fan(
    "BONUS_TILE",
    "加番牌",
    "Bonus Tile",
    10,
    _bonus_tile,
    counts_toward_minimum=False,
    source=f"{S001}: 加番 10 手牌含有加番牌（吃碰杠含有加番牌也计算在内）;"
    " once per bonus kind",
)
"""加番牌: the hand holds the tile drawn as bonus before the deal (+10, once)."""

BIG_WHEELS = Fan(
    "BIG_WHEELS",
    "一色双龙抱大车轮",
    "Big Wheels",
    20,
    _big_wheels,
    source="seed 000 优嘻网: 役满 一色双龙抱大车轮（筒） — read as 大车轮"
    " 22…88筒 (RULES.md)",
)
"""大车轮: seven pairs 2p–8p (youxi's 一色双龙抱大车轮（筒）)."""

ALL: tuple[Fan, ...] = (
    HEAVENLY_HAND,
    EARTHLY_HAND,
    HUMAN_HAND,
    HEAVENLY_READY,
    READY_HAND,
    READY_FIRST_DISCARD,
    BIG_SEVEN_STARS,
    FOUR_WINDS_SEVEN_PAIRS,
    THREE_DRAGONS_SEVEN_PAIRS,
    LITTLE_THREE_WINDS,
    NO_FLOWERS,
    FOUR_PLANTS,
    FOUR_SEASONS,
    ALL_FLOWERS,
    SEAT_FLOWER,
    TWO_FIVE_EIGHT_PAIR,
    TERMINAL_PAIR,
    BONUS_TILE,
    BIG_WHEELS,
)
"""Every two-player extra, for look-up by id."""

BY_ID: dict[str, Fan] = {f.id: f for f in ALL}


# -- table building ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of a rule set's table, as data.

    Attributes:
        id: the fan id (an MCR fan or one of :data:`ALL`).
        points: its value in this rule set.
        source: where the value (and any extra 不计) comes from.
        add_excludes: extra 不计 named by the seed (added to the fan's own).
        excludes: when given, replaces the fan's 不计 list entirely.
        toward_minimum: when given, overrides ``counts_toward_minimum``.
    """

    id: str
    points: int
    source: str
    add_excludes: frozenset[str] = frozenset()
    excludes: frozenset[str] | None = None
    toward_minimum: bool | None = None


def entry(
    fan_id: str,
    points: int,
    source: str,
    *add: str,
    excludes: Iterable[str] | None = None,
    toward_minimum: bool | None = None,
) -> Entry:
    """Shorthand for :class:`Entry`: ``entry("ALL_PUNGS", 6, "seed …", "X")``."""
    return Entry(
        fan_id,
        points,
        source,
        frozenset(add),
        None if excludes is None else frozenset(excludes),
        toward_minimum,
    )


def build_table(
    entries: Iterable[Entry], catalogue: Mapping[str, Fan]
) -> tuple[Fan, ...]:
    """Resolve entries against ``catalogue`` (MCR fans + :data:`BY_ID`).

    Returns the fans sorted by value, highest first (stable for equal
    values, so the entries' order decides among them — it matters for 不计).
    Fans with an ``excludes`` id that is not in the table are harmless.

    Raises:
        KeyError: an id missing from the catalogue, or given twice.
    """
    out: list[Fan] = []
    seen: set[str] = set()
    for e in entries:
        if e.id in seen:
            raise KeyError(f"fan {e.id} given twice")
        seen.add(e.id)
        base = catalogue.get(e.id) or BY_ID.get(e.id)
        if base is None:
            raise KeyError(f"unknown fan id {e.id!r}")
        excl = e.excludes if e.excludes is not None else base.excludes | e.add_excludes
        fan = replace(base, points=e.points, excludes=excl, source=e.source)
        if e.toward_minimum is not None:
            fan = replace(fan, counts_toward_minimum=e.toward_minimum)
        out.append(fan)
    out.sort(key=lambda f: -f.points)
    return tuple(out)


__all__ = ["ALL", "BY_ID", "Entry", "build_table", "entry"] + [f.id for f in ALL]
