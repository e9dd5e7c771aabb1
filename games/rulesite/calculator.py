"""The fan calculator and hand analyser (算番器, issue 12): input → analysis.

Pure Python over the rules engine's public functions (no Django), so the
page, the tests, the fuzzing and ``benchmarks/bench_calculator.py`` run the
same code.  One input (:class:`CalcInput`, the whole state of the page and of
its URL) gives one :class:`Calculation`:

* 14 − 3 × melds tiles: the hand is scored with its last concealed tile as
  the winning tile (:func:`games.rules.api.score_hand`); when it does not win,
  the best discards (何切) by shanten and useful tiles.
* 13 − 3 × melds tiles: the waits (听牌), each scored as a win on that tile,
  with the copies still unseen; when not ready, the shanten and useful tiles.

Errors are values (:class:`CalcError` with a :class:`ErrorCode` and the tile
or numbers it names), worded for people by the site
(``games.rulesite.messages``).  The input is checked here for what the
notation can get wrong — count, copies, tiles outside the rule set — so the
message can name the tile; the engine refuses the same hands
(``tests/games/test_rulesite_calculator.py`` checks that they agree) and
decides everything about the situation (a 杠上开花 without a kong, a 天胡 that
cannot happen …).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from games.rules import rulesets
from games.rules.api import ScoreOutcome, score_hand
from games.rules.errors import InvalidHandError, NotationError, RulesError
from games.rules.hand_notation import HandText, format_hand, parse_hand
from games.rules.melds import Meld
from games.rules.rulesets.base import RuleSet, System
from games.rules.shanten import shanten, useful_tiles
from games.rules.situation import WinSituation
from games.rules.tiles import ALL_TILES, NUM_KINDS, Tile, parse_tiles
from games.rules.waits import waits
from games.rules.wild_scoring import split_wilds

MAX_INPUT = 200
"""Longest notation accepted (characters); a full hand with melds and eight
flowers is under 60."""

FIRST_TURN = ("heavenly", "earthly", "human")
"""The first-turn wins (天胡 地胡 人胡), one at most."""

_FIRST_FAN = {
    "heavenly": "HEAVENLY_HAND",
    "earthly": "EARTHLY_HAND",
    "human": "HUMAN_HAND",
}

_WINDS = ("1z", "2z", "3z", "4z")

_SITUATION_NAMES = {
    "seat_wind": "seat",
    "round_wind": "round",
    "bonus_tiles": "bonus",
}
"""WinSituation field → calculator field, where the names differ."""


class ErrorCode(StrEnum):
    """Why the calculator cannot give a full answer."""

    UNKNOWN_RULESET = "unknown_ruleset"  # ``ruleset`` is not a rule set
    TOO_LONG = "too_long"  # notation over MAX_INPUT characters
    NOTATION = "notation"  # malformed notation (``position``, ``detail``)
    BAD_MELD = "bad_meld"  # a bracket that is not a meld (``detail``)
    BAD_FLOWER = "bad_flower"  # a flower among the hand tiles or a tile after +
    NOT_IN_RULESET = "not_in_ruleset"  # ``tile`` is not in this rule set's wall
    NO_FLOWERS = "no_flowers"  # flowers given, the rule set has none
    DUPLICATE_FLOWER = "duplicate_flower"  # each flower exists once (``tile``)
    TOO_MANY_COPIES = "too_many_copies"  # ``tile`` more than 4 times (``count``)
    TOO_MANY_MELDS = "too_many_melds"  # more than 4 melds (``count``)
    WRONG_COUNT = "wrong_count"  # ``count`` tiles; ``expected`` = (13, 14) − 3m
    BAD_OPTION = "bad_option"  # a situation field that is not valid (``detail``)
    NOT_A_WIN = "not_a_win"  # 14 tiles that complete no allowed shape
    BELOW_MINIMUM = "below_minimum"  # complete, ``count`` fan < ``expected``
    IMPOSSIBLE = "impossible"  # the engine refuses the situation (``detail``)


@dataclass(frozen=True, slots=True)
class CalcError:
    """An explanation: ``code`` and what it names (a tile, numbers, the
    engine's own words in ``detail``)."""

    code: ErrorCode
    tile: str = ""
    count: int = 0
    expected: tuple[int, ...] = ()
    position: int | None = None
    detail: str = ""
    field: str = ""  # BAD_OPTION: the situation field (seat, round, first …)
    # BAD_OPTION: what is wrong with it (OptionError.problem); NOTATION: the
    # engine's NotationProblem value
    problem: str = ""


@dataclass(frozen=True, slots=True)
class CalcInput:
    """Everything the page's form (and URL) holds.

    Field names are the query parameters.  Defaults: the site's default rule
    set, a win on a discard, East seat, East round, no flowers (issue 12).

    Attributes:
        ruleset: rule set name.
        hand: the notation (:mod:`games.rules.hand_notation`).
        self_drawn: 自摸.
        last_tile: 和绝张.
        kong: 杠上开花 when self-drawn, else 抢杠和.
        wall_last: 妙手回春 when self-drawn, else 海底捞月.
        seat, round: seat and round wind, ``1z``–``4z``.
        ready: 报听 declared.  ready_first: 报听一发.
        heavenly_ready: 天听.
        first: ``""`` or one of :data:`FIRST_TURN` (天胡 地胡 人胡).
        bonus: 加番牌 in tile notation (rule set with the 加番牌 system).
        wild: the 财神 kind (rule set with the 财神 system), or ``""``.
    """

    ruleset: str = rulesets.DEFAULT
    hand: str = ""
    self_drawn: bool = False
    last_tile: bool = False
    kong: bool = False
    wall_last: bool = False
    seat: str = "1z"
    round: str = "1z"
    ready: bool = False
    ready_first: bool = False
    heavenly_ready: bool = False
    first: str = ""
    bonus: str = ""
    wild: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, Any]) -> CalcInput:
        """Read the form/URL fields; anything unreadable keeps its default
        (a wrong wind or first-turn value is reported by :func:`calculate`)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in query:
                continue
            raw = query[f.name]
            if isinstance(raw, (list, tuple)):
                raw = raw[-1] if raw else ""
            text = str(raw).strip()
            if f.type == "bool":
                values[f.name] = text.lower() in ("1", "on", "true", "yes")
            else:
                values[f.name] = text[: MAX_INPUT + 1]
        return cls(**values)

    @classmethod
    def from_situation(
        cls, ruleset: str, hand: str, situation: Mapping[str, object]
    ) -> CalcInput:
        """The input of a hand and its :class:`WinSituation` fields (as the
        examples of games.rules.examples give them, tiles in notation).

        Raises:
            TypeError: a field the calculator does not take.
        """
        values: dict[str, Any] = {}
        for name, value in situation.items():
            if name in _FIRST_FAN:
                if value:
                    values["first"] = name
            else:
                values[_SITUATION_NAMES.get(name, name)] = value
        return cls(ruleset=ruleset, hand=hand, **values)

    def to_query(self) -> dict[str, str]:
        """The non-default fields as query parameters (the shareable URL)."""
        out: dict[str, str] = {}
        default = CalcInput()
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "ruleset" or value != getattr(default, f.name):
                out[f.name] = ("1" if value else "0") if f.type == "bool" else value
        return out


@dataclass(frozen=True, slots=True)
class Options:
    """Which situation fields a rule set has (the form shows only these)."""

    last_tile: bool
    kong_draw: bool  # 杠上开花
    kong_rob: bool  # 抢杠和
    wall_draw: bool  # 妙手回春
    wall_claim: bool  # 海底捞月
    ready: bool
    ready_first: bool
    heavenly_ready: bool
    first: tuple[str, ...]
    bonus: bool
    wild: bool
    flowers: bool

    @classmethod
    def of(cls, rs: RuleSet) -> Options:
        """Derive the options from the rule set's fans and systems."""
        ids = {f.id for f in rs.fans}
        return cls(
            last_tile="LAST_TILE" in ids,
            kong_draw="OUT_WITH_REPLACEMENT_TILE" in ids,
            kong_rob="ROBBING_THE_KONG" in ids,
            wall_draw="LAST_TILE_DRAW" in ids,
            wall_claim="LAST_TILE_CLAIM" in ids,
            ready=System.READY in rs.systems,
            ready_first="READY_FIRST_DISCARD" in ids,
            heavenly_ready="HEAVENLY_READY" in ids,
            first=tuple(k for k in FIRST_TURN if _FIRST_FAN[k] in ids),
            bonus=System.BONUS_TILE in rs.systems,
            wild=System.WILD in rs.systems,
            flowers=bool(rs.flowers),
        )


@dataclass(frozen=True, slots=True)
class WaitRow:
    """One wait: the tile, copies unseen, and the hand's score on it.

    ``total`` is None when winning on it is refused (``error`` says why:
    below the minimum, a fifth copy …) or, with ``deferred``, when it was
    not scored within the time budget of a hand with 财神 (the page links
    to the 14-tile hand instead); ``win`` False with a total means below
    the minimum.
    """

    tile: str
    unseen: int
    total: int | None
    win: bool
    error: CalcError | None = None
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class DiscardRow:
    """One discard of a 14-tile hand (何切): what it leaves.

    ``useful`` lists the kinds that lower the shanten with their unseen
    copies; ``useful_count`` is their sum; ``waits`` when ``shanten`` is 0.
    """

    tile: str
    shanten: int
    useful: tuple[tuple[str, int], ...]
    useful_count: int
    waits: tuple[WaitRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Calculation:
    """The answer for one :class:`CalcInput`.

    Attributes:
        input: the input as read, with the hand rewritten in canonical
            notation when it parsed (``canonical``).
        mode: ``"empty"``, ``"win"`` (14 tiles scored, ``outcome``),
            ``"waits"`` (13 tiles), ``"discards"`` (14 tiles that do not win)
            or ``"error"``.
        error: the explanation when the hand is refused or does not win.
        hand: the parsed hand (None when it did not parse).
        outcome: the engine's score (a win, or below the minimum).
        waits: 13 tiles: the waits.
        shanten / useful: 13 tiles not ready: the shanten and useful kinds.
        discards: 14 tiles not winning: the discards, best first.
        win_tile: the winning tile of a 14-tile hand.
        first_fan_id: the fan of ``input.first`` (``HEAVENLY_HAND`` …).
    """

    input: CalcInput
    ruleset: RuleSet
    options: Options
    mode: str
    error: CalcError | None = None
    hand: HandText | None = None
    outcome: ScoreOutcome | None = None
    win_tile: str = ""
    waits: tuple[WaitRow, ...] = ()
    shanten: int | None = None
    useful: tuple[tuple[str, int], ...] = ()
    discards: tuple[DiscardRow, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def total(self) -> int | None:
        """The total fan of a win, else None."""
        if self.mode == "win" and self.outcome is not None and self.outcome.win:
            return self.outcome.total
        return None

    @property
    def canonical(self) -> str:
        """The hand in canonical notation (sorted, winning tile last)."""
        if self.hand is None:
            return self.input.hand
        return str(self.hand) if self.mode != "win" else self._win_text()

    def _win_text(self) -> str:
        assert self.hand is not None
        return format_hand(
            self.hand.melds,
            self.hand.concealed,
            self.hand.flowers,
            win_tile_last=True,
        )


class OptionError(ValueError):
    """A situation field that cannot be used: ``field`` (the query parameter:
    seat, round, first, bonus, wild), ``problem`` (what is wrong: ``notation``,
    ``one_tile``, ``wind``, ``first``, ``not_in_ruleset``) and the tile it
    names, if any; ``str()`` is the developer's English."""

    def __init__(self, field: str, problem: str, message: str, tile: str = "") -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.problem = problem
        self.tile = tile


def _tiles_of(text: str, name: str) -> list[Tile]:
    try:
        return parse_tiles(text)
    except NotationError as exc:
        raise OptionError(name, "notation", str(exc)) from None


def _one_tile(text: str, name: str) -> Tile | None:
    if not text:
        return None
    tiles = _tiles_of(text, name)
    if len(tiles) != 1:
        raise OptionError(name, "one_tile", f"one tile, got {len(tiles)}")
    return tiles[0]


def _situation(
    inp: CalcInput, opts: Options, rs: RuleSet, win: Tile, flowers: tuple[Tile, ...]
) -> WinSituation:
    """The :class:`WinSituation` of the input, keeping only the rule set's fields.

    Raises:
        OptionError: a wind, first-turn value, bonus or wild that cannot be
            read (a ValueError).
    """
    seat, rnd = (_one_tile(inp.seat, "seat"), _one_tile(inp.round, "round"))
    for w, name in ((seat, "seat"), (rnd, "round")):
        if w is None or str(w) not in _WINDS:
            raise OptionError(name, "wind", "a wind 1z–4z")
    assert seat is not None and rnd is not None
    if inp.first and inp.first not in FIRST_TURN:
        raise OptionError("first", "first", f"one of {', '.join(FIRST_TURN)}")
    first = inp.first if inp.first in opts.first else ""
    bonus = tuple(_tiles_of(inp.bonus, "bonus")) if opts.bonus and inp.bonus else ()
    wild = _one_tile(inp.wild, "wild") if opts.wild else None
    kong = inp.kong and (opts.kong_draw if inp.self_drawn else opts.kong_rob)
    wall = inp.wall_last and (opts.wall_draw if inp.self_drawn else opts.wall_claim)
    return WinSituation(
        win_tile=win,
        self_drawn=inp.self_drawn,
        last_tile=inp.last_tile and opts.last_tile,
        kong=kong,
        wall_last=wall,
        seat_wind=seat,
        round_wind=rnd,
        flowers=flowers if opts.flowers else (),
        heavenly=first == "heavenly",
        earthly=first == "earthly",
        human=first == "human",
        heavenly_ready=inp.heavenly_ready and opts.heavenly_ready,
        ready=(inp.ready and opts.ready) or (inp.ready_first and opts.ready_first),
        ready_first=inp.ready_first and opts.ready_first,
        bonus_tiles=bonus,
        wild=wild,
    )


def _check_tiles(hand: HandText, rs: RuleSet) -> CalcError | None:
    """Count, copies and tiles of the rule set (see the module docstring)."""
    kinds = set(rs.kinds)
    for t in (*hand.concealed, *(t for m in hand.melds for t in m.tiles)):
        if t not in kinds:
            return CalcError(ErrorCode.NOT_IN_RULESET, tile=str(t))
    if hand.flowers and not rs.flowers:
        return CalcError(ErrorCode.NO_FLOWERS)
    seen: set[Tile] = set()
    for f in hand.flowers:
        if f in seen:
            return CalcError(ErrorCode.DUPLICATE_FLOWER, tile=str(f))
        seen.add(f)
    counts = [0] * NUM_KINDS
    for t in (*hand.concealed, *(t for m in hand.melds for t in m.tiles)):
        counts[t.index] += 1
    worst = max(range(NUM_KINDS), key=counts.__getitem__)
    if counts[worst] > 4:
        return CalcError(
            ErrorCode.TOO_MANY_COPIES, tile=str(ALL_TILES[worst]), count=counts[worst]
        )
    if len(hand.melds) > 4:
        return CalcError(ErrorCode.TOO_MANY_MELDS, count=len(hand.melds))
    m = len(hand.melds)
    n = len(hand.concealed)
    if n not in (13 - 3 * m, 14 - 3 * m):
        return CalcError(
            ErrorCode.WRONG_COUNT, count=n, expected=(13 - 3 * m, 14 - 3 * m)
        )
    return None


def _engine_error(exc: RulesError) -> CalcError:
    return CalcError(ErrorCode.IMPOSSIBLE, detail=str(exc))


def _unseen(hand_tiles: list[Tile], melds: tuple[Meld, ...]) -> list[int]:
    """Copies of each kind not in the winner's own hand and melds."""
    counts = [0] * NUM_KINDS
    for t in hand_tiles:
        counts[t.index] += 1
    for m in melds:
        for t in m.tiles:
            counts[t.index] += 1
    return [max(0, 4 - c) for c in counts]


def _score(
    concealed: list[Tile], melds: tuple[Meld, ...], situation: WinSituation, rs: RuleSet
) -> tuple[ScoreOutcome | None, CalcError | None]:
    try:
        outcome = score_hand(concealed, list(melds), situation, rs)
    except RulesError as exc:
        return None, _engine_error(exc)
    result = outcome.result
    if result.win:
        return outcome, None
    if result.shape:  # complete, but under the minimum
        return outcome, CalcError(
            ErrorCode.BELOW_MINIMUM, count=result.minimum_total, expected=(rs.min_fan,)
        )
    return outcome, CalcError(ErrorCode.NOT_A_WIN)


def _wait_rows(
    tiles13: list[Tile],
    hand: HandText,
    inp: CalcInput,
    opts: Options,
    rs: RuleSet,
    unseen: list[int],
    *,
    scored: bool = True,
    budget_ms: float | None = None,
) -> tuple[WaitRow, ...]:
    wild = _one_tile(inp.wild, "wild") if opts.wild else None
    counts, wilds = split_wilds(tiles13, wild)
    # With wilds every wait's score tries every assignment of them (about
    # 7 ms a wait with two wilds, 80 ms with four, on this machine), and a
    # hand holding wilds often waits on all 34 kinds: past the budget the
    # rest are listed unscored (deferred), each a link to its own score.
    # The budget is this thread's CPU time, so a busy machine (or another
    # request's thread) does not cut the list shorter.
    deadline = (
        time.thread_time() + budget_ms / 1000
        if wilds and budget_ms is not None
        else None
    )
    allowed = {t.index for t in rs.kinds}
    kinds = [
        k
        for k in waits(counts, melds=len(hand.melds), wilds=wilds, shapes=rs.shapes)
        if k in allowed
    ]
    scores: dict[int, tuple[int | None, bool, CalcError | None]] = {}
    if scored:
        # the live waits first, so a deferred one is the least likely to come
        for k in sorted(kinds, key=lambda k: -unseen[k]):
            if scores and deadline is not None and time.thread_time() > deadline:
                break
            situation = _situation(inp, opts, rs, ALL_TILES[k], hand.flowers)
            outcome, error = _score(tiles13, hand.melds, situation, rs)
            if outcome is None:
                scores[k] = (None, False, error)
            else:
                scores[k] = (outcome.total, outcome.win, error)
    rows = []
    for k in kinds:
        total, win, error = scores.get(k, (None, False, None))
        deferred = scored and k not in scores
        rows.append(WaitRow(str(ALL_TILES[k]), unseen[k], total, win, error, deferred))
    return tuple(rows)


def _useful(
    tiles13: list[Tile], hand: HandText, wild: Tile | None, rs: RuleSet
) -> tuple[int, list[int]]:
    counts, wilds = split_wilds(tiles13, wild)
    m = len(hand.melds)
    allowed = {t.index for t in rs.kinds}
    n = shanten(counts, melds=m, wilds=wilds, shapes=rs.shapes)
    kinds = useful_tiles(counts, melds=m, wilds=wilds, shapes=rs.shapes)
    return n, [k for k in kinds if k in allowed]


WILD_WAITS_BUDGET_MS = 30.0
"""Time given to scoring the waits of a hand holding 财神 (see WaitRow)."""


def calculate(
    inp: CalcInput, *, wild_waits_budget_ms: float | None = WILD_WAITS_BUDGET_MS
) -> Calculation:
    """Analyse one input; never raises for bad input (it becomes ``error``).

    Args:
        inp: the input.
        wild_waits_budget_ms: with 财神 in a 13-tile hand, stop scoring the
            waits after this many milliseconds (the rest are ``deferred``);
            None scores them all.

    Returns:
        A :class:`Calculation` (see its attributes for each mode).
    """
    try:
        rs = rulesets.get(inp.ruleset)
    except KeyError:
        rs = rulesets.get(rulesets.DEFAULT)
        return Calculation(
            replace(inp, ruleset=rs.name),
            rs,
            Options.of(rs),
            "error",
            CalcError(ErrorCode.UNKNOWN_RULESET, detail=inp.ruleset),
        )
    opts = Options.of(rs)

    def fail(error: CalcError, hand: HandText | None = None) -> Calculation:
        return Calculation(inp, rs, opts, "error", error, hand)

    text = inp.hand
    if not text.strip():
        return Calculation(inp, rs, opts, "empty")
    if len(text) > MAX_INPUT:
        return fail(CalcError(ErrorCode.TOO_LONG, count=MAX_INPUT))
    try:
        hand = parse_hand(text)
    except NotationError as exc:
        return fail(
            CalcError(
                ErrorCode.NOTATION,
                position=exc.position,
                detail=str(exc),
                problem=exc.problem.value,
            )
        )
    except InvalidHandError as exc:
        code = ErrorCode.BAD_FLOWER if "flower" in str(exc) else ErrorCode.BAD_MELD
        return fail(CalcError(code, detail=str(exc)))
    problem = _check_tiles(hand, rs)
    if problem is not None:
        return fail(problem, hand)
    try:
        wild = _one_tile(inp.wild, "wild") if opts.wild else None
        if wild is not None and wild not in rs.kinds:
            raise OptionError(
                "wild", "not_in_ruleset", f"{wild} is not in the rule set", str(wild)
            )
        _situation(inp, opts, rs, ALL_TILES[0], ())
    except OptionError as exc:
        return fail(
            CalcError(
                ErrorCode.BAD_OPTION,
                detail=str(exc),
                field=exc.field,
                problem=exc.problem,
                tile=exc.tile,
            ),
            hand,
        )

    tiles = list(hand.concealed)
    if hand.tile_count == 14:
        return _analyse_14(inp, rs, opts, hand, tiles, wild)
    return _analyse_13(inp, rs, opts, hand, tiles, wild, wild_waits_budget_ms)


def _analyse_14(
    inp: CalcInput,
    rs: RuleSet,
    opts: Options,
    hand: HandText,
    tiles: list[Tile],
    wild: Tile | None,
) -> Calculation:
    win = tiles[-1]
    situation = _situation(inp, opts, rs, win, hand.flowers)
    outcome, error = _score(tiles[:-1], hand.melds, situation, rs)
    if error is None or error.code is ErrorCode.IMPOSSIBLE:
        mode = "win" if error is None else "error"
        return Calculation(inp, rs, opts, mode, error, hand, outcome, win_tile=str(win))
    # not a win (or below the minimum): what to discard (何切)
    unseen = _unseen(tiles, hand.melds)
    rows: list[DiscardRow] = []
    for kind in sorted(set(tiles)):
        if wild is not None and kind == wild:
            continue  # 财神 cannot be discarded (seed 002)
        rest = list(tiles)
        rest.remove(kind)
        n, useful = _useful(rest, hand, wild, rs)
        left = tuple((str(ALL_TILES[k]), unseen[k]) for k in useful)
        wait_rows: tuple[WaitRow, ...] = ()
        if n == 0:
            wait_rows = _wait_rows(rest, hand, inp, opts, rs, unseen, scored=False)
        rows.append(DiscardRow(str(kind), n, left, sum(u for _, u in left), wait_rows))
    rows.sort(key=lambda r: (r.shanten, -r.useful_count, ALL_TILES_INDEX[r.tile]))
    return Calculation(
        inp,
        rs,
        opts,
        "discards",
        error,
        hand,
        outcome,
        win_tile=str(win),
        discards=tuple(rows),
    )


def _analyse_13(
    inp: CalcInput,
    rs: RuleSet,
    opts: Options,
    hand: HandText,
    tiles: list[Tile],
    wild: Tile | None,
    budget_ms: float | None,
) -> Calculation:
    unseen = _unseen(tiles, hand.melds)
    rows = _wait_rows(tiles, hand, inp, opts, rs, unseen, budget_ms=budget_ms)
    if rows:
        return Calculation(inp, rs, opts, "waits", None, hand, waits=rows)
    n, useful = _useful(tiles, hand, wild, rs)
    return Calculation(
        inp,
        rs,
        opts,
        "waits",
        None,
        hand,
        shanten=n,
        useful=tuple((str(ALL_TILES[k]), unseen[k]) for k in useful),
    )


ALL_TILES_INDEX = {str(t): t.index for t in ALL_TILES}
"""Tile notation → index (ordering of rows)."""


__all__ = [
    "CalcError",
    "CalcInput",
    "Calculation",
    "DiscardRow",
    "ErrorCode",
    "Options",
    "WaitRow",
    "calculate",
]
