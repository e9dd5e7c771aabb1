"""Server time per fan-calculator request (/calculator/), target p99 < 50 ms.

Run from the repository root::

    .venv/bin/python benchmarks/bench_calculator.py               # 2,000 requests
    .venv/bin/python benchmarks/bench_calculator.py --requests 5000 --seed 3

Each request goes through Django in this process (test client: URL routing,
the view, the calculator, the engine, the template, the htmx partial), on
the embedded SQLite database (the stake table reads the rooms).  The inputs
are drawn per request from a seeded mix over every rule set, as the page
sends them:

* 35 % a complete winning hand (14 tiles, melds now and then, situation
  flags and flowers where the rule set has them) — scored;
* 25 % the same minus one tile (13 tiles) — waits, each scored;
* 15 % 14 random tiles that do not win — the best discards (何切);
* 15 % a click on a palette tile added to a 13-tile hand (the htmx request
  a click sends);
* 10 % ``liangren`` with a 财神 kind turned up at random, as the table
  does (so the hand holds none, one, sometimes more) — scored or waits.

Figures: CPU time of this process per request (``time.process_time``: the
server's own work, which other processes on a shared machine do not
inflate; wall time is printed too) after a warm-up of ``--warm`` requests (a
server that has run a while: the engine's per-suit tables are filled),
p50 / p90 / p99 / max overall and per kind, and the share spent in
:func:`games.rulesite.calculator.calculate`.  A separate stress line times
``liangren`` hands that hold two or more wilds (every wait is then tried
with every assignment of them; past 30 ms the remaining waits are listed
unscored, see ``calculator.WILD_WAITS_BUDGET_MS``): not part of the mix.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.rules import rulesets  # noqa: E402
from games.rules.tiles import Tile  # noqa: E402
from games.rulesite import calculator as calc_module  # noqa: E402


def _sets(rng: random.Random, kinds: list[Tile], counts: dict[Tile, int]) -> list:
    """Four sets and a pair of ``kinds`` with at most four copies of a tile."""
    out: list[list[Tile]] = []
    tries = 0
    while len(out) < 4 and tries < 200:
        tries += 1
        t = rng.choice(kinds)
        if t.is_suited and t.rank <= 7 and rng.random() < 0.6:
            run = [t, Tile(t.index + 1), Tile(t.index + 2)]
            if all(x in kinds and counts[x] < 4 for x in run):
                for x in run:
                    counts[x] += 1
                out.append(run)
        elif counts[t] <= 1:
            counts[t] += 3
            out.append([t] * 3)
    while True:
        t = rng.choice(kinds)
        if counts[t] <= 2:
            counts[t] += 2
            return out, [t, t]


def winning_hand(rng: random.Random, name: str) -> tuple[str, dict[str, str]]:
    """A random complete hand of rule set ``name`` in notation, and its flags."""
    rs = rulesets.get(name)
    kinds = list(rs.kinds)
    counts: dict[Tile, int] = defaultdict(int)
    sets, pair = _sets(rng, kinds, counts)
    melds, concealed = "", []
    for s in sets:
        if rng.random() < 0.25:
            melds += "[" + "".join(str(t.rank) for t in s) + s[0].suit + "]"
        else:
            concealed += s
    concealed += pair
    rng.shuffle(concealed)
    hand = melds + "".join(str(t) for t in concealed)
    if rs.flowers and rng.random() < 0.3:
        hand += "+" + "".join(str(f) for f in rng.sample(rs.flowers, rng.randint(1, 3)))
    flags: dict[str, str] = {}
    if rng.random() < 0.4:
        flags["self_drawn"] = "1"
    if rng.random() < 0.2:
        flags["seat"] = "3z"
    return hand, flags


def random_hand(rng: random.Random, name: str, n: int = 14) -> str:
    rs = rulesets.get(name)
    pool = [t for t in rs.kinds for _ in range(4)]
    return "".join(str(t) for t in rng.sample(pool, n))


def drop_one(hand: str) -> str:
    """The hand without its last concealed tile (13 tiles: waits)."""
    body, plus, flowers = hand.partition("+")
    i = len(body) - 2
    return body[:i] + (plus + flowers if plus else "")


def make_request(rng: random.Random) -> tuple[str, dict[str, str], bool]:
    r = rng.random()
    name = rng.choice(rulesets.NAMES)
    if r < 0.35:
        hand, flags = winning_hand(rng, name)
        return "win", {"ruleset": name, "hand": hand, **flags}, False
    if r < 0.60:
        hand, flags = winning_hand(rng, name)
        return "waits", {"ruleset": name, "hand": drop_one(hand), **flags}, False
    if r < 0.75:
        return "discards", {"ruleset": name, "hand": random_hand(rng, name)}, False
    if r < 0.90:
        hand, _ = winning_hand(rng, name)
        tile = str(rng.choice(rulesets.get(name).kinds))
        return "click", {"ruleset": name, "hand": drop_one(hand), "tap": tile}, True
    hand, flags = winning_hand(rng, "liangren")
    wild = str(rng.choice(rulesets.get("liangren").kinds))  # turned up at random
    if rng.random() < 0.5:
        hand = drop_one(hand)
    return "wild", {"ruleset": "liangren", "hand": hand, "wild": wild, **flags}, False


def wild_stress(rng: random.Random) -> dict[str, str]:
    """A ``liangren`` hand holding two or more of its 财神 kind."""
    while True:
        hand, flags = winning_hand(rng, "liangren")
        body = hand.split("]")[-1].split("+")[0]
        kinds = [body[i : i + 2] for i in range(0, len(body), 2)]
        held = [k for k in set(kinds) if kinds.count(k) >= 2]
        if held:
            if rng.random() < 0.5:
                hand = drop_one(hand)
            return {"ruleset": "liangren", "hand": hand, "wild": rng.choice(held)}


def pct(values: list[float], p: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--warm", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    setup_test_environment()
    call_command("migrate", verbosity=0)
    client = Client()
    rng = random.Random(args.seed)

    inner = calc_module.calculate
    spent = [0.0]

    def timed(inp: Any, **kw: Any) -> Any:
        t0 = time.process_time()
        try:
            return inner(inp, **kw)
        finally:
            spent[0] += time.process_time() - t0

    from games.rulesite import views

    views.calculate = timed  # count the calculator's share

    by_kind: dict[str, list[float]] = defaultdict(list)
    total: list[float] = []
    walls: list[float] = []
    errors = 0
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "calc-out"}
    for i in range(args.warm + args.requests):
        kind, query, htmx = make_request(rng)
        if i == args.warm:
            spent[0] = 0.0
        t0, w0 = time.process_time(), time.perf_counter()
        response = client.get("/calculator/", query, **(headers if htmx else {}))
        dt = (time.process_time() - t0) * 1000
        if response.status_code not in (200, 302):
            errors += 1
        if i >= args.warm:
            total.append(dt)
            walls.append((time.perf_counter() - w0) * 1000)
            by_kind[kind].append(dt)
    cpu = sum(total) / 1000
    stress: list[float] = []
    for _ in range(max(20, args.requests // 50)):
        query = wild_stress(rng)
        t0 = time.process_time()
        client.get("/calculator/", query)
        stress.append((time.process_time() - t0) * 1000)

    def line(name: str, xs: list[float]) -> str:
        return (
            f"{name:<9} n={len(xs):>5}  p50 {statistics.median(xs):6.1f}  "
            f"p90 {pct(xs, 90):6.1f}  p99 {pct(xs, 99):6.1f}  max {max(xs):6.1f} ms"
        )

    print(f"/calculator/ server CPU time per request, seed {args.seed}")
    print(line("all", total))
    for kind in ("win", "waits", "discards", "click", "wild"):
        if by_kind[kind]:
            print(line(kind, by_kind[kind]))
    print(line("wall", walls) + "  (wall clock, all requests)")
    print(line("2+ wilds", stress) + "  (stress, not in the mix)")
    print(
        f"calculate() share: {spent[0] / cpu:.0%} of {cpu:.1f} s CPU;"
        f" non-200 answers: {errors}"
    )
    verdict = "OK" if pct(total, 99) < 50 else "OVER"
    print(f"p99 {pct(total, 99):.1f} ms (target < 50 ms): {verdict}")


if __name__ == "__main__":
    main()
