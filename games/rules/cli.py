"""Command line for tools and checks (issue 3, "A command line for tools and checks").

Usage::

    python -m games.rules score    [--ruleset NAME]   < hands.jsonl > scores.jsonl
    python -m games.rules waits    [--ruleset NAME] [--wild 5m] "<13 tiles>"
    python -m games.rules shanten  [--ruleset NAME] [--wild 5m] "<13 or 14 tiles>"
    python -m games.rules describe [--ruleset NAME] [--json]

``score`` reads one JSON object per line and writes one JSON line per input
line, in the same order (blank lines are skipped).  See :data:`SCORE_HELP`
for every input field, including the two-player situational ones.  A line
that cannot be scored gives ``{"id", "win": false, "error", "reason"}`` with
``reason`` one of ``malformed`` (bad JSON, an unknown or mistyped field, bad
notation — the message says which field and where), ``invalid`` (tiles that
cannot exist: a fifth copy, a tile outside the rule set, a wrong count),
``not_winning`` (not a complete hand in the rule set's shapes) or
``below_minimum`` (complete, but under the rule set's minimum fan).

Exit status: 0 when every line was read (even if some did not win), 2 for a
usage error (argparse).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from . import rulesets
from .api import ScoreOutcome, score_hand
from .errors import InvalidHandError, NotationError, RulesError
from .melds import Meld, MeldKind
from .rulesets.base import RuleSet
from .scoring import ScoreError
from .shanten import shanten_by_shape
from .situation import WinSituation
from .tiles import Tile, format_tiles, parse_tiles
from .waits import waits
from .wild_scoring import split_wilds

SCORE_HELP = """\
Input: one JSON object per line.  Fields (all but "concealed" and "win_tile"
are optional; unknown fields are refused so that typos do not pass silently):

  id             any JSON value, echoed back
  concealed      standing tiles WITHOUT the winning tile, e.g. "1112345678999m"
  melds          [{"type": "chi"|"pung"|"kong"|"concealed_kong",
                   "tiles": "456p", "claimed": "5p"}]   (claimed optional)
  win_tile       the winning tile, e.g. "9m"
  self_drawn     bool  自摸
  last_tile      bool  和绝张 (the 4th of its kind)
  kong           bool  杠上开花 when self-drawn, 抢杠和 when not
  wall_last      bool  妙手回春 when self-drawn, 海底捞月 when not
  seat_wind      "1z".."4z" (default "1z"; two-player seats are 1z 东 / 3z 西)
  round_wind     "1z".."4z" (default "1z")
  flowers        flowers set aside, e.g. "1f5f"

Two-player situational fields (seeds 000, 001, 002; all default false/empty):

  heavenly       bool  天胡 HEAVENLY_HAND: dealer wins on the deal
                       (after 补花, before any concealed kong)
  earthly        bool  地胡 EARTHLY_HAND: non-dealer wins on the first draw
                       (no chi/pung/kong by anyone before it)
  human          bool  人胡 HUMAN_HAND: non-dealer wins on the dealer's
                       first discard
  heavenly_ready bool  天听 HEAVENLY_READY: 报听 declared at the first chance
  ready          bool  报听 READY_HAND: the winner had declared 报听
  ready_first    bool  报听一发 READY_FIRST_DISCARD: won on the opponent's
                       first discard after 报听 (seed 000; implies ready)
  bonus_tiles    加番牌 of the hand, e.g. "5s" (seed 001, rule set jj:
                       +10 fan when the winning hand holds it, melds and
                       flowers included)
  wild           the 财神 kind, e.g. "5m" (seed 002, rule set liangren):
                       tiles of that kind in "concealed"/"win_tile" are
                       wild; 白板 "5z" stands for the wild kind's own face

Output: {"id", "win": true, "fans": [{"id", "name", "points", "count"}],
"total"} or {"id", "win": false, "error", "reason"}; with a wild, the win
also gives "assignment" (what each wild was scored as).  "reason" is
"malformed" (bad JSON, field or notation; the error names the field and the
position), "invalid" (tiles or flags that cannot exist), "not_winning" (not
a complete hand) or "below_minimum" (then "fans" and "total" are given too).
"""

_BOOL_FIELDS = (
    "self_drawn",
    "last_tile",
    "kong",
    "wall_last",
    "heavenly",
    "earthly",
    "human",
    "heavenly_ready",
    "ready",
    "ready_first",
)
_TEXT_FIELDS = (
    "concealed",
    "win_tile",
    "seat_wind",
    "round_wind",
    "flowers",
    "bonus_tiles",
    "wild",
)
_KNOWN_FIELDS = frozenset(("id", "melds", *_BOOL_FIELDS, *_TEXT_FIELDS))


class RequestError(RulesError):
    """A request line that is malformed (bad JSON, field or notation)."""


class Request:
    """One parsed ``score`` input line."""

    __slots__ = ("concealed", "melds", "situation")

    def __init__(
        self, concealed: list[Tile], melds: list[Meld], situation: WinSituation
    ) -> None:
        self.concealed = concealed
        self.melds = melds
        self.situation = situation


def _tiles(obj: dict[str, Any], name: str) -> list[Tile]:
    value = obj.get(name, "")
    if not isinstance(value, str):
        raise RequestError(f"field {name!r} must be a string of tiles")
    try:
        return parse_tiles(value)
    except NotationError as exc:
        raise RequestError(f"field {name!r}: {exc}") from None


def _one_tile(obj: dict[str, Any], name: str, default: Tile | None) -> Tile | None:
    if name not in obj or obj[name] is None:
        return default
    tiles = _tiles(obj, name)
    if len(tiles) != 1:
        raise RequestError(f"field {name!r} must be exactly one tile, got {len(tiles)}")
    return tiles[0]


def _wind(obj: dict[str, Any], name: str) -> Tile:
    tile = _one_tile(obj, name, Tile.parse("1z"))
    assert tile is not None
    if not tile.is_wind:
        raise RequestError(f"field {name!r} must be a wind 1z–4z, got {tile}")
    return tile


def _melds(obj: dict[str, Any]) -> list[Meld]:
    raw = obj.get("melds", [])
    if not isinstance(raw, list):
        raise RequestError("field 'melds' must be a list")
    out: list[Meld] = []
    for i, m in enumerate(raw):
        where = f"melds[{i}]"
        if not isinstance(m, dict):
            raise RequestError(f"{where} must be an object")
        unknown = set(m) - {"type", "tiles", "claimed"}
        if unknown:
            raise RequestError(f"{where}: unknown field(s) {sorted(unknown)}")
        kind, tiles, claimed = m.get("type"), m.get("tiles"), m.get("claimed")
        kinds = [k.value for k in MeldKind]
        if kind not in kinds:
            raise RequestError(f"{where}.type must be one of {kinds}, got {kind!r}")
        if not isinstance(tiles, str):
            raise RequestError(f"{where}.tiles must be a string of tiles")
        if claimed is not None and not isinstance(claimed, str):
            raise RequestError(f"{where}.claimed must be a tile or null")
        try:
            out.append(Meld.parse(kind, tiles, claimed or None))
        except NotationError as exc:
            raise RequestError(f"{where}: {exc}") from None
        except InvalidHandError as exc:
            raise InvalidHandError(f"{where}: {exc}") from None
    return out


def parse_request(obj: Any) -> Request:
    """Turn one decoded JSON line into tiles, melds and a :class:`WinSituation`.

    Raises:
        RequestError: not an object, an unknown field, a wrong type or bad
            notation (the message names the field and the position).
        InvalidHandError: a meld that is not a set.
    """
    if not isinstance(obj, dict):
        raise RequestError("each line must be a JSON object")
    unknown = set(obj) - _KNOWN_FIELDS
    if unknown:
        raise RequestError(f"unknown field(s) {sorted(unknown)}; see --help")
    for name in _BOOL_FIELDS:
        if name in obj and not isinstance(obj[name], bool):
            raise RequestError(f"field {name!r} must be true or false")
    for name in ("concealed", "win_tile"):
        if name not in obj:
            raise RequestError(f"missing field {name!r}")
    win_tile = _one_tile(obj, "win_tile", None)
    assert win_tile is not None
    flowers = _tiles(obj, "flowers")
    if any(not t.is_flower for t in flowers):
        raise RequestError("field 'flowers' may only hold 1f–8f")
    situation = WinSituation(
        win_tile=win_tile,
        self_drawn=obj.get("self_drawn", False),
        last_tile=obj.get("last_tile", False),
        kong=obj.get("kong", False),
        wall_last=obj.get("wall_last", False),
        seat_wind=_wind(obj, "seat_wind"),
        round_wind=_wind(obj, "round_wind"),
        flowers=tuple(flowers),
        heavenly=obj.get("heavenly", False),
        earthly=obj.get("earthly", False),
        human=obj.get("human", False),
        heavenly_ready=obj.get("heavenly_ready", False),
        ready=obj.get("ready", False),
        ready_first=obj.get("ready_first", False),
        bonus_tiles=tuple(_tiles(obj, "bonus_tiles")),
        wild=_one_tile(obj, "wild", None),
    )
    return Request(_tiles(obj, "concealed"), _melds(obj), situation)


def _fan_rows(outcome: ScoreOutcome) -> list[dict[str, Any]]:
    return [
        {"id": line.id, "name": line.zh, "points": line.points, "count": line.count}
        for line in outcome.lines
        if line.counted
    ]


def score_line(line: str, ruleset: RuleSet, lineno: int) -> dict[str, Any]:
    """Score one input line; never raises for bad input (it becomes the answer)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return {
            "id": None,
            "win": False,
            "reason": "malformed",
            "error": f"line {lineno}: bad JSON at column {exc.colno}: {exc.msg}",
        }
    ident = obj.get("id") if isinstance(obj, dict) else None
    try:
        req = parse_request(obj)
        outcome = score_hand(req.concealed, req.melds, req.situation, ruleset)
    except RequestError as exc:
        return {"id": ident, "win": False, "reason": "malformed", "error": str(exc)}
    except RulesError as exc:  # InvalidHandError and any other refusal
        return {"id": ident, "win": False, "reason": "invalid", "error": str(exc)}
    result = outcome.result
    if not result.win:
        error = result.error or "not a winning hand"
        below = result.code is ScoreError.BELOW_MINIMUM
        reason = "below_minimum" if below else "not_winning"
        out_lose: dict[str, Any] = {
            "id": ident,
            "win": False,
            "reason": reason,
            "error": error,
        }
        if below:
            out_lose["fans"] = _fan_rows(outcome)
            out_lose["total"] = result.total
        return out_lose
    out: dict[str, Any] = {
        "id": ident,
        "win": True,
        "fans": _fan_rows(outcome),
        "total": outcome.total,
    }
    if outcome.assignment:
        out["assignment"] = format_tiles(outcome.assignment, sort=False)
    return out


def run_score(lines: Iterable[str], ruleset: RuleSet, out: TextIO) -> int:
    """Score every non-blank line; return how many lines were answered."""
    n = 0
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        answer = score_line(line, ruleset, lineno)
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
        n += 1
    return n


# -- waits / shanten ---------------------------------------------------------


def _hand_counts(
    text: str, ruleset: RuleSet, wild: str | None
) -> tuple[list[Tile], list[int], int]:
    tiles = parse_tiles(text)
    allowed = set(ruleset.kinds)
    for t in tiles:
        if t not in allowed:
            raise InvalidHandError(f"tile {t} is not in rule set {ruleset.name!r}")
    wild_tile = Tile.parse(wild) if wild else None
    counts, wilds = split_wilds(tiles, wild_tile)
    return tiles, counts, wilds


def run_waits(text: str, ruleset: RuleSet, wild: str | None) -> dict[str, Any]:
    """Waits of a 13-tile concealed hand, with copies not in the hand."""
    tiles, counts, wilds = _hand_counts(text, ruleset, wild)
    kinds = waits(counts, wilds=wilds, shapes=ruleset.shapes)
    allowed = {t.index for t in ruleset.kinds}
    return {
        "tiles": format_tiles(tiles),
        "ruleset": ruleset.name,
        "waits": [
            {"tile": str(Tile.from_index(k)), "remaining": max(0, 4 - counts[k])}
            for k in kinds
            if k in allowed
        ],
    }


def run_shanten(text: str, ruleset: RuleSet, wild: str | None) -> dict[str, Any]:
    """Shanten (best over the rule set's shapes, and per shape)."""
    tiles, counts, wilds = _hand_counts(text, ruleset, wild)
    by_shape = shanten_by_shape(counts, wilds=wilds)
    mine = {s.value: n for s, n in by_shape.items() if s in ruleset.shapes}
    return {
        "tiles": format_tiles(tiles),
        "ruleset": ruleset.name,
        "shanten": min(mine.values()),
        "by_shape": mine,
    }


# -- describe ----------------------------------------------------------------


def describe_dict(rs: RuleSet) -> dict[str, Any]:
    """Everything a rule set decides, as plain JSON-able data."""
    return {
        "name": rs.name,
        "zh": rs.zh,
        "en": rs.en,
        "sources": list(rs.sources),
        "tiles": format_tiles(rs.kinds) + format_tiles(rs.flowers),
        "kinds": len(rs.kinds),
        "flowers": len(rs.flowers),
        "wall_size": rs.wall_size,
        "min_fan": rs.min_fan,
        "shapes": sorted(s.value for s in rs.shapes),
        "claims": sorted(c.value for c in rs.claims),
        "systems": sorted(s.value for s in rs.systems),
        "multipliers": dict(rs.multipliers),
        "rake_percent": rs.rake_percent,
        "self_drawn_factor": rs.self_drawn_factor,
        "kong_payments": rs.kong_payments,
        "max_win_doubles": rs.max_win_doubles,
        "max_swaps": rs.max_swaps,
        "full_discard_pool": rs.full_discard_pool,
        "timers": {
            "discard": rs.timers.discard,
            "claim": rs.timers.claim,
            "pre_deal": rs.timers.pre_deal,
            "settlement": rs.timers.settlement,
        },
        "fans": [
            {
                "id": f.id,
                "zh": f.zh,
                "en": f.en,
                "points": f.points,
                "excludes": sorted(f.excludes),
                "counts_toward_minimum": f.counts_toward_minimum,
                "source": f.source,
            }
            for f in rs.fans
        ],
        "notes": rs.notes,
    }


def describe_text(rs: RuleSet) -> str:
    """A readable description of a rule set (``describe`` without ``--json``)."""
    d = describe_dict(rs)
    t = d["timers"]
    lines = [
        f"{rs.name} — {rs.zh} ({rs.en})",
        f"sources:      {', '.join(rs.sources)}",
        f"tiles:        {d['tiles']}"
        f"  ({d['kinds']} kinds × 4 + {d['flowers']} flowers)",
        f"wall size:    {rs.wall_size}",
        f"minimum fan:  {rs.min_fan}",
        f"shapes:       {', '.join(d['shapes'])}",
        f"claims:       {', '.join(d['claims'])}",
        f"systems:      {', '.join(d['systems']) or '-'}",
        f"multipliers:  {d['multipliers'] or '-'}",
        f"settlement:   rake {rs.rake_percent}%, self-drawn ×{rs.self_drawn_factor}, "
        f"kong payments {'yes' if rs.kong_payments else 'no'}, "
        f"win doubles ≤{rs.max_win_doubles}, swaps ≤{rs.max_swaps}, "
        f"full discard pool {rs.full_discard_pool or '-'}",
        f"timers:       discard {t['discard']} s, claim {t['claim']} s, "
        f"pre-deal {t['pre_deal']} s, settlement {t['settlement']} s",
        f"fans ({len(rs.fans)}):",
    ]
    for f in rs.fans:
        extra = "" if f.counts_toward_minimum else "  [not toward minimum]"
        excl = f"  不计: {', '.join(sorted(f.excludes))}" if f.excludes else ""
        lines.append(f"  {f.points:>3}  {f.id:<28} {f.zh} / {f.en}{extra}{excl}")
        lines.append(f"       source: {f.source}")
    if rs.notes:
        lines.append("notes:")
        lines.extend(f"  {n}" for n in rs.notes.splitlines())
    return "\n".join(lines)


# -- entry point -------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m games.rules",
        description="Mahjong rules engine: score hands, list waits, shanten, "
        "describe rule sets.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)

    def add_ruleset(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--ruleset",
            default=rulesets.DEFAULT,
            choices=rulesets.NAMES,
            help=f"rule set (default {rulesets.DEFAULT})",
        )

    sp = sub.add_parser(
        "score",
        help="score JSON lines from stdin",
        description=SCORE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_ruleset(sp)
    for name, what in (("waits", "13 tiles"), ("shanten", "13 or 14 tiles")):
        sp = sub.add_parser(name, help=f"{name} of a concealed hand ({what})")
        add_ruleset(sp)
        sp.add_argument("tiles", help=f"{what} in notation, e.g. 1112345678999m")
        sp.add_argument("--wild", help="财神 kind (rule set liangren), e.g. 5m")
    sp = sub.add_parser("describe", help="print a rule set")
    add_ruleset(sp)
    sp.add_argument("--json", action="store_true", help="print JSON")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    rs = rulesets.get(args.ruleset)
    if args.command == "score":
        run_score(sys.stdin, rs, sys.stdout)
        return 0
    if args.command == "describe":
        if args.json:
            print(json.dumps(describe_dict(rs), ensure_ascii=False, indent=2))
        else:
            print(describe_text(rs))
        return 0
    try:
        if args.command == "waits":
            result = run_waits(args.tiles, rs, args.wild)
        else:
            result = run_shanten(args.tiles, rs, args.wild)
    except RulesError as exc:
        print(json.dumps({"error": str(exc)}, ensure_ascii=False))
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


__all__ = ["SCORE_HELP", "main", "parse_request", "run_score", "score_line"]
