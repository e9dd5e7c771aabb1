"""Actions a seat can send, as small immutable values with a JSON round trip.

Every action carries ``seat`` (0 or 1) and ``seq``: the sequence number of
the last event the sender had seen when it decided (the prompt it answers).
:meth:`Action.to_json` / :func:`action_from_json` convert to and from plain
dicts such as ``{"kind": "discard", "seat": 0, "seq": 12, "tile": "5m"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from ..rules.errors import NotationError
from ..rules.tiles import Tile
from .errors import InvalidActionError

JSON = Any
"""A JSON-ready value (dict/list/str/int/float/bool/None)."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: who sends it and which prompt it answers."""

    kind: ClassVar[str] = ""
    seat: int
    seq: int

    def __post_init__(self) -> None:
        if self.seat not in (0, 1):
            raise InvalidActionError(f"seat must be 0 or 1, got {self.seat!r}")
        if not isinstance(self.seq, int) or self.seq < 0:
            raise InvalidActionError(f"seq must be an integer >= 0, got {self.seq!r}")

    def to_json(self) -> dict[str, JSON]:
        """Return ``{"kind", "seat", "seq", ...fields}`` with tiles as notation."""
        out: dict[str, JSON] = {"kind": self.kind, "seat": self.seat, "seq": self.seq}
        for name in _extra_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Tile):
                out[name] = str(value)
            elif isinstance(value, tuple):
                out[name] = [str(t) for t in value]
            else:
                out[name] = value
        return out


_EXTRA: dict[type[Action], tuple[str, ...]] = {}


def _extra_fields(cls: type[Action]) -> tuple[str, ...]:
    """The fields of an action class besides ``seat`` and ``seq`` (memoised:
    ``dataclasses.fields`` is slow and the classes never change)."""
    got = _EXTRA.get(cls)
    if got is None:
        got = _EXTRA[cls] = tuple(
            f.name for f in fields(cls) if f.name not in ("seat", "seq")
        )
    return got


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """打牌: discard ``tile`` from the concealed hand."""

    kind: ClassVar[str] = "discard"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Win(Action):
    """和: win on the tile just drawn (自摸), the discard (点和) or a robbed kong."""

    kind: ClassVar[str] = "win"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """放弃: decline every claim on the discard (or on an added kong)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Chi(Action):
    """吃: take the discard into the sequence ``tiles`` (three tiles, sorted)."""

    kind: ClassVar[str] = "chi"
    tiles: tuple[Tile, ...]

    def __post_init__(self) -> None:
        Action.__post_init__(self)
        if len(self.tiles) != 3:
            raise InvalidActionError("chi needs the three tiles of the sequence")
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))


@dataclass(frozen=True, slots=True)
class Pung(Action):
    """碰: take the discard with two tiles of the same kind."""

    kind: ClassVar[str] = "pung"


@dataclass(frozen=True, slots=True)
class Kong(Action):
    """明杠 on a discard: take it with three tiles of the same kind."""

    kind: ClassVar[str] = "kong"


@dataclass(frozen=True, slots=True)
class ConcealedKong(Action):
    """暗杠: set aside four ``tile`` from the concealed hand."""

    kind: ClassVar[str] = "concealed_kong"
    tile: Tile


@dataclass(frozen=True, slots=True)
class AddedKong(Action):
    """加杠: add ``tile`` to a declared pung of that kind (it may be robbed)."""

    kind: ClassVar[str] = "added_kong"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """报听 (seed 000: 任意时刻 when tenpai): lock the hand.

    ``tile`` is the discard made with the declaration on one's own turn;
    ``None`` when declaring with a waiting (13-tile) hand, e.g. 天听 before the
    dealer's first discard or instead of passing a claim.
    """

    kind: ClassVar[str] = "ready"
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """换牌 (seed 000): give ``tile`` back and take the wall's next tile."""

    kind: ClassVar[str] = "swap"
    tile: Tile


@dataclass(frozen=True, slots=True)
class PreDeal(Action):
    """Choices before the deal: 明牌 (seed 002) and 开始加倍 (seed 000)."""

    kind: ClassVar[str] = "pre_deal"
    open_hand: bool = False
    double: bool = False


@dataclass(frozen=True, slots=True)
class Double(Action):
    """加倍 after the deal, before the dealer's first discard (seeds 002, 004)."""

    kind: ClassVar[str] = "double"
    double: bool = False


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """The seat's deadline passed (or it is in 托管): apply its default move."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class AutoPlay(Action):
    """托管 on or off for the seat (seed 000 异常处理: 断线 → 托管)."""

    kind: ClassVar[str] = "auto_play"
    on: bool = True


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Discard,
        Win,
        Pass,
        Chi,
        Pung,
        Kong,
        ConcealedKong,
        AddedKong,
        Ready,
        Swap,
        PreDeal,
        Double,
        Timeout,
        AutoPlay,
    )
}
"""Action kind (JSON spelling) → class."""


def _tile(value: object, field: str) -> Tile:
    if not isinstance(value, str):
        raise InvalidActionError(f"{field} must be a tile such as '5m'")
    try:
        return Tile.parse(value)
    except NotationError as exc:
        raise InvalidActionError(f"{field}: {exc}") from exc


def action_from_json(data: Mapping[str, object]) -> Action:
    """Build an action from its JSON form (the inverse of :meth:`Action.to_json`).

    Raises:
        InvalidActionError: not a mapping, unknown kind, a missing or
            mistyped field, bad tile notation, unknown extra fields.
    """
    if not isinstance(data, Mapping):
        raise InvalidActionError("an action must be a JSON object")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidActionError(
            f"unknown action kind {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    cls = ACTION_TYPES[kind]
    known = {f.name: f for f in fields(cls)}
    extra = set(data) - set(known) - {"kind"}
    if extra:
        raise InvalidActionError(f"unknown field(s) for {kind}: {sorted(extra)}")
    kwargs: dict[str, object] = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING:
                raise InvalidActionError(f"{kind} needs the field {name!r}")
            continue
        value = data[name]
        if name in ("seat", "seq"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidActionError(f"{name} must be an integer")
            kwargs[name] = value
        elif name == "tile":
            kwargs[name] = (
                None if value is None and kind == "ready" else _tile(value, name)
            )
        elif name == "tiles":
            if not isinstance(value, list):
                raise InvalidActionError("tiles must be a list of tiles")
            kwargs[name] = tuple(_tile(v, name) for v in value)
        else:
            if not isinstance(value, bool):
                raise InvalidActionError(f"{name} must be true or false")
            kwargs[name] = value
    try:
        return cls(**kwargs)  # type: ignore[arg-type]
    except TypeError as exc:
        raise InvalidActionError(f"{kind}: {exc}") from exc
