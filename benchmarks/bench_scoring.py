"""MCR scoring per second, ours beside pymahjonggb's, on seeded corpora.

Run from the repository root::

    .venv/bin/python benchmarks/bench_scoring.py              # 10,000 hands/pass
    .venv/bin/python benchmarks/bench_scoring.py --hands 20000 --passes 5 --seed 7

The corpora come from the property test's generator
(:func:`tests.rules.oracle.random_hand`): random legal winning hands of every
shape with melds, flags, winds and flowers.  Ours is the public
:func:`games.rules.scoring.score` with its input checks, under the ``mcr``
rule set.  The oracle is ``MahjongGB.MahjongFanCalculator`` with its
arguments converted beforehand (so only the C++ call is timed).

Figures (hands per second):

* **cold** — our first pass, in a process whose tables are empty (with
  ``--warm N``, after N other unseen hands: a server that has run a while).
* **unseen** — each pass scores hands never scored before in the process
  (a new corpus per pass, drawn from other seeds), after the cold pass: a
  long-running server meeting new hands.  Only the per-suit tables are warm;
  nothing is memoised per whole hand.  This is the figure that counts.
* **repeated** — the cold pass's hands scored again (per-suit tables and
  the per-split analyses' memos all hit).
* **oracle** — the C++ calculator over the cold pass's hands (it keeps no
  memo, so its rate is the same on any hands).

Time is this process's CPU time (``time.process_time``), so that other
processes on a shared machine do not skew one side; the passes alternate
ours and the oracle's, and each figure is the best pass (the median is shown
too).  The ratio is ours / oracle's best.  The corpora are moved out of the
garbage collector's sight (``gc.freeze``) once built, as a server would do
after start-up; our own allocations are still collected as usual.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
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


def _rate(fn: Callable[[], None], n: int) -> float:
    t0 = time.process_time()
    fn()
    return n / max(time.process_time() - t0, 1e-9)


def _corpus(seed: int, first: int, n: int) -> list[Hand]:
    return [
        random_hand(random.Random(seed * 1_000_003 + first + i), first + i)
        for i in range(n)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000, help="hands per pass")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--passes", type=int, default=4, help="passes per figure")
    ap.add_argument(
        "--warm",
        type=int,
        default=0,
        help="unseen hands scored before the figures (a server that has run a while)",
    )
    args = ap.parse_args()
    mcr = get("mcr")
    n = args.hands
    seen = _corpus(args.seed, 0, n)
    unseen = [_corpus(args.seed, (k + 1) * n, n) for k in range(args.passes)]
    calls = [_oracle_args(h) for h in seen]
    for i in range(args.warm):  # string seeds: none is a corpus's seed
        h = random_hand(random.Random(f"warm {args.seed} {i}"), i)
        score(h.concealed, h.melds, h.situation, mcr)
    gc.collect()
    gc.freeze()
    calc = MahjongGB.MahjongFanCalculator if MahjongGB is not None else None

    def ours(corpus: list[Hand]) -> Callable[[], None]:
        def go() -> None:
            for h in corpus:
                score(h.concealed, h.melds, h.situation, mcr)

        return go

    def oracle() -> None:
        assert calc is not None
        for a in calls:
            calc(*a)

    cold = _rate(ours(seen), n)
    fresh: list[float] = []
    again: list[float] = []
    orates: list[float] = []
    for k in range(args.passes):
        fresh.append(_rate(ours(unseen[k]), n))
        if calc:
            orates.append(_rate(oracle, n))
        again.append(_rate(ours(seen), n))

    def fig(rates: list[float]) -> str:
        return f"best {max(rates):>9,.0f}/s  median {statistics.median(rates):>9,.0f}/s"

    print(
        f"corpus: {n} winning hands of every shape per pass, seed {args.seed},"
        f" {args.passes} passes, {args.warm} unseen hands scored first; CPU time;"
        f" load average {_load()}"
    )
    print(f"ours   cold     {cold:>9,.0f}/s")
    print(f"ours   unseen   {fig(fresh)}")
    print(f"ours   repeated {fig(again)}")
    if not calc:
        print("pymahjonggb is not installed; no comparison")
        return
    best = max(orates)
    print(f"oracle (MahjongFanCalculator, C++) {fig(orates)}")
    print(
        f"ratio ours/oracle: unseen {max(fresh) / best:.3f}"
        f" (median {statistics.median(fresh) / best:.3f}),"
        f" repeated {max(again) / best:.3f}, cold {cold / best:.3f}"
    )
    verdict = "met" if max(fresh) >= 30_000 else "NOT met"
    print(
        f"target ≥ 30,000 unseen hands/s (issue 15): {verdict}"
        f" ({max(fresh):,.0f}); load average {_load()}"
    )


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


if __name__ == "__main__":
    main()
