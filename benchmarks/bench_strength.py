"""Bot strength in duplicate format (issue 5).

For each pairing A vs B and each rule set, every wall seed is played twice:
A on seat 0 and B on seat 1, then the seats swapped (same seed, same dealer),
so both bots get the same tiles.  Reported per pairing:

* win rate of A and of B over all hands, and draws;
* A's average 游戏币 change per hand (stake 1, no coin cap, rake included)
  with a 95 % confidence interval — the unit of sampling is the seed (the
  mean of A's two results on it), so the interval is
  ``mean ± 1.96 · sd / √seeds``;
* A's win-rate edge (A's wins − B's wins per hand) with its 95 % interval.

A beats B at 95 % confidence when the coin interval lies above 0; the exit
status is 0 only when every A beats its B.

Run (2 worker processes, progress on stderr)::

    python benchmarks/bench_strength.py --seeds 1000 --rulesets erren mcr \
        --pairings hard:normal normal:easy

``--seeds 1000`` plays 2,000 hands per pairing and rule set.

Like a server process, the benchmark tunes Python's garbage collector after
start-up, before the workers fork (:func:`mahjong_site.process.tune_gc`; the
first line says ``gc: tuned``); ``--default-gc`` leaves CPython's defaults.

Besides the levels of :data:`games.engine.bots.LEVELS`, a pairing may name
``normal-before15``: the ``normal`` bot as it was before issue 15 let it do
less work (its old :class:`~games.engine.bots.evaluate.Style`, kept only
here), to check that the cheaper ``normal`` is not weaker::

    python benchmarks/bench_strength.py --seeds 400 --rulesets mcr \
        --pairings normal:normal-before15
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import Bot, NormalBot, make_bot  # noqa: E402
from games.engine.bots import evaluate as ev  # noqa: E402
from games.engine.bots.arena import coin_deltas, play_hand  # noqa: E402
from mahjong_site.process import tune_gc  # noqa: E402


class NormalBefore15(NormalBot):
    """``normal`` before issue 15's cheaper decisions (benchmark only)."""

    level = "normal-before15"
    style = ev.Style(
        plans=False,
        max_plans=1,
        deep=3,
        ukeire=True,
        score_waits=True,
        tempo=4.0,
        defence=0.0,
    )
    throw_lone_draw = False


def _bot(level: str, rng: random.Random) -> Bot:
    if level == NormalBefore15.level:
        return NormalBefore15(rng)
    return make_bot(level, rng)


@dataclass(frozen=True)
class Job:
    ruleset: str
    a: str
    b: str
    index: int
    base_seed: int


def _one(job: Job) -> tuple[str, str, str, int, float, int, int, int]:
    """Play one seed both ways; return A's mean coins, A/B wins, draws."""
    seed = f"{job.base_seed:08x}{job.index:024x}"
    dealer = job.index % 2
    coins = 0
    wins_a = wins_b = draws = 0
    for a_seat in (0, 1):
        levels = [job.a, job.b] if a_seat == 0 else [job.b, job.a]
        bots = [
            _bot(levels[s], random.Random(f"{seed}:{s}:{levels[s]}")) for s in (0, 1)
        ]
        hand = play_hand(job.ruleset, seed, bots, dealer=dealer)
        deltas = coin_deltas(hand)
        coins += deltas[a_seat]
        winner = (hand.state.result or {}).get("winner")
        if winner is None:
            draws += 1
        elif winner == a_seat:
            wins_a += 1
        else:
            wins_b += 1
    return (job.ruleset, job.a, job.b, job.index, coins / 2, wins_a, wins_b, draws)


def _ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds per pairing")
    parser.add_argument("--rulesets", nargs="+", default=["erren", "mcr"])
    parser.add_argument("--pairings", nargs="+", default=["hard:normal", "normal:easy"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--base-seed", type=int, default=20261130)
    parser.add_argument(
        "--default-gc", action="store_true", help="leave the collector untuned"
    )
    args = parser.parse_args(argv)
    if not args.default_gc:
        tune_gc()
    print(f"gc: {'default' if args.default_gc else 'tuned'}", flush=True)
    jobs = [
        Job(rs, *pair.split(":"), i, args.base_seed)
        for rs in args.rulesets
        for pair in args.pairings
        for i in range(args.seeds)
    ]
    results: dict[tuple[str, str, str], list[tuple[float, int, int, int]]] = {}
    started = time.perf_counter()
    step = max(len(jobs) // 20, 1)
    with mp.get_context("fork").Pool(args.workers) as pool:
        for done, r in enumerate(pool.imap_unordered(_one, jobs, chunksize=8), 1):
            results.setdefault((r[0], r[1], r[2]), []).append(r[4:])
            if done % step == 0 or done == len(jobs):
                el = time.perf_counter() - started
                print(
                    f"  {done}/{len(jobs)} seeds, {el:.0f} s, "
                    f"{2 * done / el:.1f} hands/s",
                    file=sys.stderr,
                    flush=True,
                )
    print(
        f"duplicate format, {args.seeds} seeds × 2 seatings per row, stake 1, "
        "no coin cap, 5 % rake"
    )
    header = (
        f"{'rule set':8} {'A vs B':14} {'hands':>5} {'A win%':>7} {'B win%':>7} "
        f"{'draw%':>6} {'A coins/hand (95% CI)':>24} {'A−B win/hand (95% CI)':>24}  "
        "A beats B?"
    )
    print(header)
    print("-" * len(header))
    all_beat = True
    for rs in args.rulesets:
        for pair in args.pairings:
            a, b = pair.split(":")
            rows = results.get((rs, a, b), [])
            if not rows:
                continue
            hands = 2 * len(rows)
            wa = sum(r[1] for r in rows)
            wb = sum(r[2] for r in rows)
            dr = sum(r[3] for r in rows)
            mean, half = _ci([r[0] for r in rows])
            emean, ehalf = _ci([(r[1] - r[2]) / 2 for r in rows])
            verdict = (
                "yes"
                if mean - half > 0
                else ("no (B)" if mean + half < 0 else "not sig.")
            )
            print(
                f"{rs:8} {a + ' vs ' + b:14} {hands:5d} {100 * wa / hands:6.1f}% "
                f"{100 * wb / hands:6.1f}% {100 * dr / hands:5.1f}% "
                f"{mean:+9.2f} ± {half:6.2f}          "
                f"{emean:+7.3f} ± {ehalf:5.3f}       {verdict}"
            )
    return 0 if all_beat else 1


if __name__ == "__main__":
    raise SystemExit(main())
