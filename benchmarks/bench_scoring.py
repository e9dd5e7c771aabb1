"""MCR scoring per second, ours beside pymahjonggb's, on one seeded corpus.

Run from the repository root::

    .venv/bin/python benchmarks/bench_scoring.py              # 20,000 hands
    .venv/bin/python benchmarks/bench_scoring.py --hands 50000 --seed 7

The corpus is the property test's generator
(:func:`tests.rules.oracle.random_hand`): random legal winning hands of every
shape with melds, flags, winds and flowers.  Ours is the public
:func:`games.rules.scoring.score` with its input checks, under the ``mcr``
rule set.  The oracle is ``MahjongGB.MahjongFanCalculator`` with its
arguments converted beforehand (so only the C++ call is timed).  "Cold" is
the first pass (our memo tables empty); "warm" the best of the next passes
over the *same* hands (whole-hand decompositions memoised); "fresh" is a
first pass over *new* hands after the warm-up, i.e. a long-running server
meeting hands it has not seen (per-suit tables warm, no whole-hand hits).
Both sides score the same hands in the same process; the ratio is ours /
oracle.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.rules.rulesets import get  # noqa: E402
from games.rules.scoring import score  # noqa: E402
from tests.rules.oracle import Hand, opack, otile, random_hand  # noqa: E402

try:
    import MahjongGB  # type: ignore[import-not-found]
except ImportError:  # the oracle is a test dependency
    MahjongGB = None


def _oracle_args(h: Hand) -> tuple[object, ...]:
    s = h.situation
    return (
        tuple(opack(m) for m in h.melds),
        tuple(otile(t) for t in h.concealed),
        otile(s.win_tile),
        len(s.flowers),
        s.self_drawn,
        s.last_tile,
        s.kong,
        s.wall_last,
        s.seat_wind.index - 27,
        s.round_wind.index - 27,
    )


def _time(fn: Callable[[], None], n: int) -> float:
    t0 = time.perf_counter()
    fn()
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--passes", type=int, default=3, help="warm passes per side")
    args = ap.parse_args()
    mcr = get("mcr")
    n = args.hands
    hands = [random_hand(random.Random(args.seed * 1_000_003 + i), i) for i in range(n)]
    fresh_hands = [
        random_hand(random.Random(args.seed * 1_000_003 + n + i), i) for i in range(n)
    ]

    def run(corpus: list[Hand]) -> Callable[[], None]:
        def go() -> None:
            for h in corpus:
                score(h.concealed, h.melds, h.situation, mcr)

        return go

    calls = [_oracle_args(h) for h in hands]
    calc = MahjongGB.MahjongFanCalculator if MahjongGB is not None else None

    def oracle() -> None:
        assert calc is not None
        for a in calls:
            calc(*a)

    cold = _time(run(hands), n)
    ocold = _time(oracle, n) if calc else 0.0
    # Warm passes alternate ours and the oracle's, so that a change of load on
    # a shared machine hits both sides; each side keeps its best pass.
    warm = owarm = 0.0
    for _ in range(args.passes):
        warm = max(warm, _time(run(hands), n))
        if calc:
            owarm = max(owarm, _time(oracle, n))
    fresh = _time(run(fresh_hands), n)
    print(f"corpus: {n} winning hands of every shape, seed {args.seed}")
    print(
        f"ours   (games.rules.scoring.score): cold {cold:>9,.0f}/s  "
        f"warm {warm:>9,.0f}/s  fresh {fresh:>9,.0f}/s"
    )
    if not calc:
        print("pymahjonggb is not installed; no comparison")
        return
    print(
        f"oracle (MahjongFanCalculator, C++):  cold {ocold:>9,.0f}/s  "
        f"warm {owarm:>9,.0f}/s"
    )
    print(
        f"ratio ours/oracle: warm {warm / owarm:.3f}, fresh {fresh / owarm:.3f}"
        "  (target ≥ 0.333)"
    )


if __name__ == "__main__":
    main()
