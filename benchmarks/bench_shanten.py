"""Shanten and waits per second, ours beside pymahjonggb's, on seeded hands.

Run from the repository root::

    .venv/bin/python benchmarks/bench_shanten.py            # 20,000 hands
    .venv/bin/python benchmarks/bench_shanten.py --hands 50000 --seed 7

Corpora (both seeded):

* *random*: 13 tiles drawn from the 136-tile wall (no melds, no wilds);
* *tenpai*: a random four sets + pair with one tile removed, so every hand
  has waits (the expensive case for :func:`waits`);
* *1 wild*: the random corpus with its lowest tile turned into a wild
  (the oracle has no wilds).

Ours is the public API with its input checks: :func:`shanten` over all five
shapes, :func:`waits`, :func:`useful_tiles`.  The oracle is
``MahjongGB.MahjongShanten((), hand)`` (all five shapes, C++) for shanten;
for waits it has no single call, so its side is the five per-shape
``*Shanten`` functions, whose useful-tile lists are the waits at tenpai.
"Cold" is the first pass, which fills our lazily built per-suit tables;
"warm" is the best of the following passes (issue 15 target: warm shanten
≥ 100,000 hands/s, pure Python).  Rates are per CPU second of this process
(``time.process_time``); the load average before and after is printed, since
a busy shared machine slows even CPU time (caches).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.rules.shanten import shanten, useful_tiles  # noqa: E402
from games.rules.waits import waits  # noqa: E402

try:
    import MahjongGB  # type: ignore[import-not-found]
except ImportError:  # the oracle is a test dependency
    MahjongGB = None

NAMES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)


def random_corpus(rng: random.Random, n: int) -> list[list[int]]:
    wall = [k for k in range(34) for _ in range(4)]
    out: list[list[int]] = []
    for _ in range(n):
        c = [0] * 34
        for k in rng.sample(wall, 13):
            c[k] += 1
        out.append(c)
    return out


def tenpai_corpus(rng: random.Random, n: int) -> list[list[int]]:
    out: list[list[int]] = []
    while len(out) < n:
        c = [0] * 34
        for _ in range(4):
            k = rng.randrange(34)
            if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                for i in range(3):
                    c[k + i] += 1
            else:
                c[k] += 3
        c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        kinds = [k for k in range(34) if c[k]]
        c[rng.choice(kinds)] -= 1
        out.append(c)
    return out


def rate(fn: Callable[[], object], n: int, repeat: int) -> tuple[float, float]:
    """(first pass rate, best later pass rate) in calls per CPU second.

    CPU time of this process (``time.process_time``), so that the other
    processes of a shared machine do not count; the load average is printed.
    """
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(max(time.process_time() - t0, 1e-9))
    later = min(times[1:]) if len(times) > 1 else times[0]
    return n / times[0], n / later


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--repeat", type=int, default=4)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    rand = random_corpus(rng, args.hands)
    tenp = tenpai_corpus(rng, args.hands)
    n = args.hands
    print(
        f"python {sys.version.split()[0]}, seed {args.seed}, {n} hands per corpus,"
        f" {args.repeat} passes, CPU time; load average {_load()}"
    )

    oracle_rates: dict[str, float] = {}
    if MahjongGB is not None:
        ms = MahjongGB.MahjongShanten
        per_shape = (
            MahjongGB.RegularShanten,
            MahjongGB.SevenPairsShanten,
            MahjongGB.ThirteenOrphansShanten,
            MahjongGB.HonorsAndKnittedTilesShanten,
            MahjongGB.KnittedStraightShanten,
        )
        for name, corpus in (("random", rand), ("tenpai", tenp)):
            hands = [
                tuple(NAMES[k] for k in range(34) for _ in range(c[k])) for c in corpus
            ]

            def o_shanten(hands: list[tuple[str, ...]] = hands) -> object:
                return [ms((), h) for h in hands]

            def o_waits(hands: list[tuple[str, ...]] = hands) -> object:
                return [[f(h) for f in per_shape] for h in hands]

            oracle_rates[f"shanten {name}"] = rate(o_shanten, n, args.repeat)[1]
            oracle_rates[f"waits {name}"] = rate(o_waits, n, args.repeat)[1]

    rows: list[tuple[str, tuple[float, float]]] = []
    for name, corpus in (("random", rand), ("tenpai", tenp)):

        def our_shanten(corpus: list[list[int]] = corpus) -> object:
            return [shanten(c) for c in corpus]

        rows.append((f"shanten {name}", rate(our_shanten, n, args.repeat)))
    for name, corpus in (("random", rand), ("tenpai", tenp)):

        def our_waits(corpus: list[list[int]] = corpus) -> object:
            return [waits(c) for c in corpus]

        rows.append((f"waits {name}", rate(our_waits, n, args.repeat)))
    wild_corpus = []
    for c in rand:  # one tile of each hand becomes a wild (seed 002 财神)
        w = c[:]
        w[next(k for k in range(34) if w[k])] -= 1
        wild_corpus.append(w)

    def our_wild_shanten() -> object:
        return [shanten(c, wilds=1) for c in wild_corpus]

    rows.append(("shanten random 1 wild", rate(our_wild_shanten, n, args.repeat)))
    small = rand[: max(1, n // 10)]

    def our_useful() -> object:
        return [useful_tiles(c) for c in small]

    rows.append(("useful_tiles random", rate(our_useful, len(small), args.repeat)))

    print(
        f"{'measure':<24}{'ours cold/s':>14}{'ours warm/s':>14}"
        f"{'oracle/s':>14}{'ours/oracle':>13}"
    )
    for key, (cold, warm) in rows:
        o = oracle_rates.get(key)
        ostr = f"{o:14,.0f}" if o else f"{'-':>14}"
        ratio = f"{warm / o:13.2f}" if o else f"{'-':>13}"
        print(f"{key:<24}{cold:14,.0f}{warm:14,.0f}{ostr}{ratio}")
    warm_shanten = rows[0][1][1]
    verdict = "met" if warm_shanten >= 100_000 else "NOT met"
    print(
        f"target ≥ 100,000 shanten/s (random, warm): {verdict}"
        f" ({warm_shanten:,.0f}); load average {_load()}"
    )


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


if __name__ == "__main__":
    main()
