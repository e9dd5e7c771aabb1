"""Review time per hand (issue 12: a whole hand in under 2 s, all levels).

Plays hands between bots of each level (easy, normal, hard against
themselves) in every rule set, then times :func:`games.engine.review.review_hand`
on each finished log — the whole review the Celery task computes: the replay
of seed + log, the hard bot at every discard and claim decision of both
seats, shanten and useful tiles after both choices.  Prints, per rule set and
level, the hands, decisions per hand, the median, p90 and maximum seconds per
hand, and whether the maximum is under the target.

Run::

    python benchmarks/bench_review.py --hands 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import LEVELS, make_bot  # noqa: E402
from games.engine.bots.arena import play_hand  # noqa: E402
from games.engine.review import review_hand  # noqa: E402
from games.rules.rulesets import NAMES  # noqa: E402

TARGET = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--rulesets", nargs="+", default=list(NAMES))
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'rule set':8} {'players':7} {'hands':>5} {'decisions':>9} "
        f"{'median s':>8} {'p90 s':>6} {'max s':>6}  target {TARGET:.0f} s"
    )
    ok = True
    worst = 0.0
    for rs in args.rulesets:
        for level in args.levels:
            times: list[float] = []
            decisions = 0
            for i in range(args.hands):
                seed = f"{args.seed:08x}{i:024x}"
                bots = [make_bot(level, random.Random(f"{seed}:{s}")) for s in (0, 1)]
                hand = play_hand(rs, seed, bots, dealer=i % 2)
                start = time.perf_counter()
                review = review_hand(seed, hand.events)
                times.append(time.perf_counter() - start)
                decisions += len(review.decisions)
            times.sort()
            p90 = times[min(int(0.9 * len(times)), len(times) - 1)]
            met = times[-1] < TARGET
            ok = ok and met
            worst = max(worst, times[-1])
            print(
                f"{rs:8} {level:7} {len(times):5d} {decisions / len(times):9.1f} "
                f"{statistics.median(times):8.3f} {p90:6.3f} {times[-1]:6.3f}  "
                f"{'met' if met else 'MISSED'}",
                flush=True,
            )
    print(f"slowest hand: {worst:.3f} s ({'met' if ok else 'MISSED'})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
