#!/usr/bin/env python3
"""Verify an exported 二人麻将 hand file offline, with the standard library only.

    python3 tools/verify_hand.py hand-123.json      # exit 0: verified, 1: not

The file is the replay page's JSON download (schema: docs/hand-export.md).
The check is the one the replay page's 验证 button makes in the browser,
following the shuffle described in docs/fairness.md:

1. the revealed seed hashes to the commitment published in the hand's first
   event (``hand_started``);
2. the wall rebuilt from the seed — the rule set's tiles in index order,
   shuffled by the documented algorithm — deals exactly the tiles of the
   ``deal`` events, and every ``draw`` (from the front, or from the back for
   replacement draws) takes exactly the tile the log shows, leaving the
   logged number of tiles;
3. the 财神 indicator, the 加番牌 and the 任务 are the ones the same seed
   gives;
4. the result: the file's ``result`` and ``settlement`` are the ones the
   log's last event (``hand_ended``) carries; the winner, the loser, how the
   hand was won (self-drawn, on a discard, robbing a kong) and the winning
   tile are the ones the log's actions and tiles give; the fan total is the
   sum of the fans listed; the settlement's winner, loser and coin changes
   agree with it (the loser pays ``coins``, the winner receives ``coins``
   less ``rake``).  A hand with no ``hand_ended`` (annulled) names no winner
   and moves no coins.

It does not re-check the rules (what was legal, which fans a hand has), and
its output says so on every run: the site's engine does that when it
replays the log — the replay page's 验证 fails a file whose log the rules do
not give — and it refuses an imported file whose result differs from the
log's.  This file deliberately shares no code with the site (standard
library only, downloadable from /fair/), so that it can be read and run on
its own; that is why it cannot replay through the engine.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

SCHEMA = "erren2-hand"
SCHEMA_VERSIONS = (1,)

# Rule set -> (its kinds in index order, its flowers, the fans a 任务 may ask
# for, in order).  Must match the site's rule-set data (a test checks it).
RULESETS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "erren": (
        "123456789m1234567z",
        "12345678f",
        (
            "ALL_PUNGS",
            "HALF_FLUSH",
            "FULL_FLUSH",
            "ALL_SIMPLES",
            "SEVEN_PAIRS",
            "PURE_STRAIGHT",
            "CONCEALED_HAND",
            "FULLY_CONCEALED_HAND",
            "DRAGON_PUNG",
        ),
    ),
    "erren64": ("123456789m1234567z", "", ()),
    "jj": ("123456789s1234567z", "12345678f", ()),
    "mcr": ("123456789m123456789p123456789s1234567z", "12345678f", ()),
    "liangren": ("123456789m123456789p123456789s1234567z", "", ()),
    "youxi": ("123456789m123456789p123456789s1234567z", "", ()),
}

RULES_NOT_CHECKED = (
    "NOT CHECKED  the rules of play (legal moves, claims, fans): this script"
    " checks the seed, the wall and the result only; the site's replay page"
    " (/replay/import/ takes this file) replays the log through the rules engine"
)
VERDICT_OK = "VERIFIED (seed, wall and result; the rules were not checked)"

PREFIXES = {1: "erren2:", 2: "erren2-wall-v2:"}
"""Shuffle version -> the text before the seed (commitment and stream)."""

TWO32 = 1 << 32


def tiles_of(text: str) -> list[str]:
    """``"123m45z"`` -> ``["1m", "2m", "3m", "4z", "5z"]``."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out.extend(d + ch for d in digits)
            digits = ""
    return out


def tile_index(code: str) -> int:
    """Index of a tile in the wall's order: 1m = 0 … 7z = 33, 1f = 34 …"""
    start = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}[code[1]]
    return start + int(code[0]) - 1


def is_flower(code: str) -> bool:
    return code.endswith("f")


def commitment(seed: str, version: int) -> str:
    return hashlib.sha256((PREFIXES[version] + seed).encode("utf-8")).hexdigest()


class Stream:
    """Version 2's numbers: SHA-256 of ``prefix + seed + ":" + block``,
    read 4 bytes at a time, big-endian."""

    def __init__(self, seed: str) -> None:
        self.prefix = PREFIXES[2] + seed + ":"
        self.block = 0
        self.words: list[int] = []

    def u32(self) -> int:
        if not self.words:
            digest = hashlib.sha256(
                (self.prefix + str(self.block)).encode("utf-8")
            ).digest()
            self.words = [
                int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)
            ]
            self.block += 1
        return self.words.pop(0)

    def below(self, n: int) -> int:
        limit = TWO32 - TWO32 % n
        while True:
            u = self.u32()
            if u < limit:
                return u % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[Any]) -> Any:
        return items[self.below(len(items))]


def shuffled(wall: list[str], seed: str, version: int) -> tuple[list[str], Any]:
    """The wall after the shuffle, and the generator for the later choices.

    Version 1 (hands stored before version 2) is Python's own
    ``random.Random(seed).shuffle``.
    """
    out = list(wall)
    rng: Any = random.Random(seed) if version == 1 else Stream(seed)
    rng.shuffle(out)
    return out, rng


@dataclass
class Report:
    """The outcome: ``ok`` and the lines to print."""

    ok: bool = True
    lines: list[str] = field(default_factory=list)
    tiles: int = 0

    def good(self, text: str) -> None:
        self.lines.append("ok    " + text)

    def bad(self, text: str) -> None:
        self.ok = False
        self.lines.append("FAIL  " + text)


class BadFile(ValueError):
    """The file is not an exported hand."""


def _need(data: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise BadFile(f"missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise BadFile(f"field {key!r} has the wrong type")
    return value


def _task(rng: Any, ruleset: str, systems: list[str]) -> dict[str, Any]:
    kinds_text, _flowers, fans = RULESETS[ruleset]
    kinds = ["pung", "kong", "fan"]
    if "start_double" in systems or "deal_double" in systems:
        kinds.append("double")
    kind = rng.choice(kinds)
    if kind == "pung":
        return {"kind": "pung", "tile": rng.choice(tiles_of(kinds_text))}
    if kind == "fan":
        if fans:
            return {"kind": "fan", "fan": rng.choice(list(fans))}
        return {"kind": "kong"}
    return {"kind": kind}


_LOG_ONLY = ("melds", "swapped", "seed", "commitment")


def _differs(a: Any, b: Any) -> bool:
    """JSON values differ (``1`` and ``True`` and ``1.0`` are different)."""
    return json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True)


def check_result(data: dict[str, Any], events: list[Any], report: Report) -> None:
    """Step 4 of the module docstring: the result against the log."""
    stored = data.get("result")
    settlement = data.get("settlement")
    last = events[-1] if events and isinstance(events[-1], dict) else {}
    if last.get("kind") != "hand_ended":
        st = settlement if isinstance(settlement, dict) else {}
        named = isinstance(stored, dict) and stored.get("winner") is not None
        if named or any(
            st.get(k) not in (None, 0, [0, 0]) for k in ("coins", "deltas")
        ):
            report.bad(
                "result: the log has no end, yet the file names a winner or coins"
            )
        else:
            report.good("result: the log has no end (annulled); no winner, no coins")
        return
    payload = last.get("payload") if isinstance(last.get("payload"), dict) else {}
    logged = {k: v for k, v in payload.items() if k not in _LOG_ONLY}
    bad = 0

    def fail(text: str) -> None:
        nonlocal bad
        bad += 1
        report.bad("result: " + text)

    if not isinstance(stored, dict):
        fail("the file has no result")
        return
    for key in sorted(set(stored) | set(logged)):
        if key not in stored or key not in logged or _differs(stored[key], logged[key]):
            fail(f"the file's result.{key} is not the log's ({stored.get(key)!r:.60})")
    st_log = (
        logged.get("settlement") if isinstance(logged.get("settlement"), dict) else {}
    )
    st = settlement if isinstance(settlement, dict) else {}
    for key in sorted(set(st) | set(st_log)):
        if key == "skill":  # the site's points rule (0 in practice), not the log's
            continue
        if key not in st or key not in st_log or _differs(st[key], st_log[key]):
            fail(f"the file's settlement.{key} is not the log's ({st.get(key)!r:.60})")
    # what the log itself says: who won, how, on which tile
    action = last.get("action") if isinstance(last.get("action"), dict) else None
    winner = action.get("seat") if action and action.get("kind") == "win" else None
    if logged.get("winner") != winner:
        said = logged.get("winner")
        fail(f"winner {said!r}, but the log's winning move is by {winner!r}")
    if winner is None:
        if logged.get("reason") == "win":
            fail("reason 'win' without a winning move")
    else:
        prompts = [
            e.get("payload") or {}
            for e in events[:-1]
            if isinstance(e, dict) and e.get("kind") == "prompt"
        ]
        phase = prompts[-1].get("phase") if prompts else None
        self_drawn = phase == "turn"
        robbed = phase == "rob"
        if logged.get("reason") != "win":
            fail(f"reason {logged.get('reason')!r} after a winning move")
        if logged.get("loser") != 1 - winner:
            fail(f"loser {logged.get('loser')!r}, seat {1 - winner} expected")
        if logged.get("self_drawn") is not self_drawn:
            fail(f"self_drawn {logged.get('self_drawn')!r}, the log says {self_drawn}")
        if bool(logged.get("robbed_kong")) is not robbed:
            fail(f"robbed_kong {logged.get('robbed_kong')!r}, the log says {robbed}")
        # the winning tile: the last discard, the kong robbed, or the winner's
        # last draw after the first discard (天胡 wins on the dealt tiles)
        kinds = ("draw",) if self_drawn else ("added_kong",) if robbed else ("discard",)
        tiles, played = [], False
        for e in events[:-1]:
            if not isinstance(e, dict):
                continue
            played = played or e.get("kind") == "discard"
            if e.get("kind") in kinds and (
                not self_drawn or (e.get("seat") == winner and played)
            ):
                tiles.append((e.get("payload") or {}).get("tile"))
        if tiles and logged.get("win_tile") != tiles[-1]:
            fail(f"win_tile {logged.get('win_tile')!r}, the log's is {tiles[-1]!r}")
        fans = logged.get("fans") if isinstance(logged.get("fans"), list) else []
        try:
            total = sum(
                int(f["points"]) * int(f.get("count", 1))
                for f in fans
                if f.get("counted", True)
            )
        except (TypeError, ValueError, KeyError, AttributeError):
            total = None
        if total != logged.get("fan_total"):
            fail(f"fan_total {logged.get('fan_total')!r}, the fans add up to {total!r}")
    sw, sl = st_log.get("winner"), st_log.get("loser")
    if sw != winner or (winner is not None and sl != 1 - winner):
        fail("the settlement's winner or loser is not the result's")
    deltas = st_log.get("deltas")
    coins, rake = st_log.get("coins", 0), st_log.get("rake", 0)
    if winner is None:
        want = [0, 0]
    elif isinstance(coins, int) and isinstance(rake, int):
        want = [0, 0]
        want[winner], want[1 - winner] = coins - rake, -coins
    else:
        want = None
    if deltas != want:
        fail(f"the coin changes {deltas!r} do not follow from coins and rake")
    if not bad:
        how = "self-drawn" if logged.get("self_drawn") else "on a discard"
        what = (
            f"seat {winner} won ({how}, {logged.get('fan_total')} fan)"
            if winner is not None
            else f"no winner ({logged.get('reason')})"
        )
        report.good(f"result: the file's result and settlement are the log's; {what}")


def verify(data: Any) -> Report:
    """Check an exported hand (the parsed JSON); see the module docstring.

    Raises:
        BadFile: not an exported hand (wrong schema, missing fields).
    """
    report = Report()
    if _need(data, "schema", str) != SCHEMA:
        raise BadFile(f"not a {SCHEMA} file")
    if _need(data, "schema_version", int) not in SCHEMA_VERSIONS:
        raise BadFile(f"unknown schema_version {data['schema_version']}")
    fair = _need(data, "fairness", dict)
    seed = _need(fair, "seed", str)
    events = _need(data, "events", list)
    if not events:
        raise BadFile("no events")
    first = events[0]
    if _need(first, "kind", str) != "hand_started":
        raise BadFile("the first event is not hand_started")
    start = _need(first, "payload", dict)
    ruleset = _need(start, "ruleset", str)
    if ruleset not in RULESETS:
        raise BadFile(f"unknown rule set {ruleset!r}")
    version = start.get("shuffle", 1)
    if version not in PREFIXES:
        raise BadFile(f"unknown shuffle version {version!r}")
    systems = start.get("systems") or []

    # 1. the commitment
    published = _need(start, "commitment", str)
    computed = commitment(seed, version)
    if computed == published:
        report.good(f"commitment: sha256({PREFIXES[version]!r} + seed) = {published}")
    else:
        report.bad(
            f"commitment: the seed gives {computed}, the hand published {published}"
        )
    if fair.get("commitment") not in (None, published):
        report.bad("the file's fairness.commitment differs from the hand's first event")

    # 2. the wall, the deal and every draw
    kinds_text, flowers_text, _fans = RULESETS[ruleset]
    wall0 = [t for t in tiles_of(kinds_text) for _ in range(4)] + tiles_of(flowers_text)
    wall, rng = shuffled(wall0, seed, version)
    head, tail = 0, len(wall)
    dealer = start.get("dealer", 0)
    dealt: dict[int, list[str]] = {dealer: [], 1 - dealer: []}
    for _ in range(3):
        for seat in (dealer, 1 - dealer):
            dealt[seat] += wall[head : head + 4]
            head += 4
    for seat in (dealer, 1 - dealer, dealer):
        dealt[seat].append(wall[head])
        head += 1
    wrong = 0
    for ev in events[1:]:
        kind = ev.get("kind")
        payload = ev.get("payload") or {}
        seq = ev.get("seq")
        if kind == "deal":
            seat = ev.get("seat")
            got = sorted(payload.get("tiles") or [], key=tile_index)
            want = sorted(dealt.get(seat, []), key=tile_index)
            report.tiles += len(want)
            if got != want:
                wrong += 1
                report.bad(f"#{seq} deal to seat {seat}: log {got}, wall {want}")
        elif kind == "draw":
            if head >= tail:
                wrong += 1
                report.bad(f"#{seq} draw from an empty wall")
                continue
            if payload.get("replacement"):
                tail -= 1
                want_tile = wall[tail]
            else:
                want_tile = wall[head]
                head += 1
            report.tiles += 1
            if payload.get("tile") != want_tile:
                wrong += 1
                report.bad(f"#{seq} draw: log {payload.get('tile')}, wall {want_tile}")
            if "wall" in payload and payload["wall"] != tail - head:
                wrong += 1
                report.bad(
                    f"#{seq} draw: log leaves {payload['wall']}, wall {tail - head}"
                )
        elif kind == "indicator" and "wild" in payload:
            i = tail - 1
            while is_flower(wall[i]):
                i -= 1
            wall[i], wall[tail - 1] = wall[tail - 1], wall[i]
            tail -= 1
            report.tiles += 1
            if payload.get("wild") != wall[tail]:
                wrong += 1
                report.bad(f"#{seq} 财神: log {payload.get('wild')}, wall {wall[tail]}")
        elif kind == "indicator" and "bonus_tile" in payload:
            want_tile = rng.choice(tiles_of(kinds_text))
            if payload.get("bonus_tile") != want_tile:
                wrong += 1
                report.bad(
                    f"#{seq} 加番牌: log {payload.get('bonus_tile')}, seed {want_tile}"
                )
        elif kind == "task":
            want_task = _task(rng, ruleset, systems)
            got_task = {k: payload.get(k) for k in want_task}
            if got_task != want_task:
                wrong += 1
                report.bad(f"#{seq} 任务: log {got_task}, seed {want_task}")
        elif kind == "hand_ended" and payload.get("seed") not in (None, seed):
            wrong += 1
            report.bad("the seed revealed in hand_ended differs from the file's")
    if not wrong:
        report.good(
            f"wall: shuffle version {version}, {len(wall)} tiles; "
            f"{report.tiles} dealt or drawn tiles match the log"
        )
    # 4. the result
    check_result(data, events, report)
    return report


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.split("\n\n")[1])
        return 2
    path = args[0]
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        report = verify(data)
    except RecursionError:
        print("FAIL  cannot read the hand: arrays or objects nested too deep")
        return 1
    except UnicodeDecodeError:
        print("FAIL  cannot read the hand: not a UTF-8 text file")
        return 1
    except (OSError, ValueError, BadFile) as exc:  # JSONDecodeError is a ValueError
        print(f"FAIL  cannot read the hand: {str(exc)[:200]}")
        return 1
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        print(f"FAIL  not a hand file this script understands: {exc!r:.200}")
        return 1
    for line in report.lines:
        print(line)
    # standard library only, so no rules engine here: say so every time, so
    # that nobody reads VERIFIED as "the moves were legal"
    print(RULES_NOT_CHECKED)
    print(VERDICT_OK if report.ok else "NOT VERIFIED")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
