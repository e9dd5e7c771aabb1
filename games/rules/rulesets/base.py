"""The shape of a rule set: everything a named game variant decides, as data.

Each rule set lives in its own module next to this one (``mcr.py``,
``erren.py`` …) and builds one :class:`RuleSet`, annotating every value with
the seed it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..fans.base import Fan
from ..shanten import Shape
from ..tiles import Tile


class System(StrEnum):
    """Optional systems a rule set may switch on (seed 000 unless noted)."""

    READY = "ready"  # 报听: lock the hand, auto-play, ask only about wins
    OPEN_HAND = "open_hand"  # 明牌 before the deal (seed 002: ×4 each)
    START_DOUBLE = "start_double"  # 开始加倍 before the deal (seed 000)
    DEAL_DOUBLE = (
        "deal_double"  # 加倍 after the deal, before the first discard (002, 004)
    )
    WIN_DOUBLE = (
        "win_double"  # 胡加倍: decline a win to raise the multiplier (seed 000)
    )
    TASK_DOUBLE = "task_double"  # 任务加倍: a random task per hand (seed 000)
    SWAP = "swap"  # 换牌: up to 5 swaps a hand, the first free (seed 000)
    BONUS_TILE = "bonus_tile"  # 加番牌 (seed 001)
    WILD = "wild"  # 财神 (seed 002)
    FLOWERS = "flowers"  # 补花 from the wall's end


class Claim(StrEnum):
    """Claims on the opponent's discard."""

    CHI = "chi"
    PUNG = "pung"
    KONG = "kong"
    WIN = "win"


@dataclass(frozen=True, slots=True)
class Timers:
    """Seconds a seat has to act.

    Seed 000 行牌规定: 15 s to discard; seed 000 游戏说明: 10 s to claim.
    """

    discard: int = 15
    claim: int = 10
    pre_deal: int = 10
    settlement: int = 15


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A named rule set.

    Attributes:
        name: short id used everywhere (``"erren"``).
        zh, en: display names.
        sources: seeds it is drawn from, e.g. ``("seed 000", "seed 004")``.
        kinds: the playing tile kinds in the wall (4 copies each).
        flowers: the flower tiles in the wall (1 copy each), may be empty.
        min_fan: minimum fan to win, counted without fans whose
            ``counts_toward_minimum`` is False.
        fans: the fan table, in descending value order.
        shapes: winning shapes allowed.
        claims: claims allowed on a discard.
        systems: optional systems switched on.
        multipliers: name → factor, e.g. ``{"open_hand": 4, "deal_double": 2,
            "ready_win": 2}`` (seed 002 计分规则).
        rake_percent: share of the winner's gain kept by the site (seed 002: 5).
        self_drawn_factor: factor applied to a self-drawn win's payment
            (seed 000 游戏说明: 自摸不加倍 → 1).
        self_drawn_rule: the sources state how a self-drawn win pays (seed
            000 游戏说明 4: 自摸不加倍); where they are silent the factor 1 is
            no rule of the game, and the settlement does not show it.
        kong_payments: whether kongs pay on their own (seed 000: 杠牌不计分 → False).
        max_win_doubles: cap on 胡加倍 (seed 000: 8).
        max_swaps: 换牌 per hand (seed 000: 5, the first free).
        full_discard_pool: for 流局 when one seat's discard pool holds this
            many tiles (seed 000 优嘻网: 牌池占满), ``None`` if not used.
        timers: action deadlines.
        notes: free text shown on the rules page (where a seed is silent and
            MCR's definition was taken, it says so).
        wall_tiles: every tile of the wall (kinds and flowers), derived.
        kind_indices: the indices of ``kinds``, derived.
    """

    name: str
    zh: str
    en: str
    sources: tuple[str, ...]
    kinds: tuple[Tile, ...]
    flowers: tuple[Tile, ...]
    min_fan: int
    fans: tuple[Fan, ...]
    shapes: frozenset[Shape]
    claims: frozenset[Claim] = frozenset(Claim)
    systems: frozenset[System] = frozenset()
    multipliers: dict[str, int] = field(default_factory=dict, hash=False)
    rake_percent: int = 5
    self_drawn_factor: int = 1
    self_drawn_rule: bool = False
    kong_payments: bool = False
    max_win_doubles: int = 0
    max_swaps: int = 0
    full_discard_pool: int | None = None
    timers: Timers = Timers()
    notes: str = ""
    # Derived once per rule set (what the wall holds), so no module keeps a
    # memo of rule sets for them.
    wall_tiles: frozenset[Tile] = field(init=False, repr=False, compare=False)
    kind_indices: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "wall_tiles", frozenset(self.kinds) | frozenset(self.flowers)
        )
        object.__setattr__(self, "kind_indices", frozenset(t.index for t in self.kinds))

    @property
    def wall_size(self) -> int:
        """Tiles in the wall: 4 of each kind plus one of each flower."""
        return 4 * len(self.kinds) + len(self.flowers)

    def fan(self, fan_id: str) -> Fan:
        """Return the fan with ``fan_id``.

        Raises:
            KeyError: the rule set has no such fan.
        """
        for f in self.fans:
            if f.id == fan_id:
                return f
        raise KeyError(f"rule set {self.name!r} has no fan {fan_id!r}")
