"""Decision time of the bots (issue 5: median ≤ 5 ms, p99 ≤ 50 ms per action).

Plays self-play hands (the level against itself) and times every call of
``bot.choose(view, legal)`` — the bot's own work, not the engine's — then
prints, per rule set and level, the number of decisions, the median, p90,
p99 and the maximum in milliseconds.

Run::

    python benchmarks/bench_bots.py --hands 200 --rulesets erren mcr
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import LEVELS, make_bot  # noqa: E402
from games.engine.bots.arena import play_hand  # noqa: E402


def _pct(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(int(q * len(sorted_ms)), len(sorted_ms) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rulesets", nargs="+", default=["erren", "mcr"])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'rule set':8} {'level':7} {'hands':>5} {'decisions':>9} "
        f"{'median ms':>9} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7}  targets"
    )
    ok = True
    for rs in args.rulesets:
        for level in args.levels:
            timings: list[float] = []
            started = time.perf_counter()
            for i in range(args.hands):
                seed = f"{args.seed:08x}{i:024x}"
                bots = [make_bot(level, random.Random(f"{seed}:{s}")) for s in (0, 1)]
                play_hand(rs, seed, bots, dealer=i % 2, timings=timings)
            ms = sorted(t * 1000 for t in timings)
            med, p99 = _pct(ms, 0.5), _pct(ms, 0.99)
            met = med <= 5 and p99 <= 50
            ok = ok and met
            print(
                f"{rs:8} {level:7} {args.hands:5d} {len(ms):9d} {med:9.2f} "
                f"{_pct(ms, 0.9):7.2f} {p99:7.2f} {ms[-1]:7.1f}  "
                f"{'met' if met else 'MISSED'}"
                f"   ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
