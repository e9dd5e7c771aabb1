"""Skill rating: do bot ratings order hard > normal > easy, and how fast is a replay?

Usage::

    python benchmarks/bench_rating.py [--hands 2400] [--ruleset erren] [--workers 2]
        [--replay 200000]

1. **Ordering.** The three bot levels play ``--hands`` hands of self-play in
   rotation (hard–normal, normal–easy, hard–easy; seats alternate; every wall
   seed is random), each hand rated in order with the site's own
   ``leaderboard.rating.rate_hand`` (流局 not rated), all three starting at
   1500 ± 350.  Prints the ratings every 100 hands and the hand count after
   which hard > normal > easy held at every later checkpoint, plus each
   pairing's win rate (what the ratings must reflect).
2. **Replay speed.** Times ``rate_hand`` over ``--replay`` synthetic decided
   hands (twice per hand, as the settlement rates overall and in the rule
   set), and extrapolates to 1,000,000 hands: the cost of rebuilding every
   rating from scratch.  The site never needs that nightly — ratings are
   updated incrementally in each settlement's transaction.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import make_bot  # noqa: E402
from games.engine.bots.arena import play_hand  # noqa: E402

PAIRS = (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))


def _one(job: tuple[str, int, int]) -> tuple[str, str, str | None]:
    """Play hand ``i``; return (seat 0 level, seat 1 level, winning level)."""
    ruleset, i, base = job
    a, b = PAIRS[i % 3]
    if (i // 3) % 2:
        a, b = b, a
    rng = random.Random(base * 1_000_003 + i)
    seed = f"{rng.getrandbits(128):032x}"
    bots = [
        make_bot(a, random.Random(rng.random())),
        make_bot(b, random.Random(rng.random())),
    ]
    hand = play_hand(ruleset, seed, bots, dealer=i % 2)
    winner = (hand.state.result or {}).get("winner")
    return a, b, (None if winner is None else (a, b)[winner])


def ordering(hands: int, ruleset: str, workers: int, base: int) -> dict[str, object]:
    from leaderboard.rating import Rating, rate_hand

    jobs = [(ruleset, i, base) for i in range(hands)]
    t0 = time.perf_counter()
    with mp.Pool(workers) as pool:
        results = pool.map(_one, jobs, chunksize=8)
    play_seconds = time.perf_counter() - t0
    ratings = {lv: Rating() for lv in ("hard", "normal", "easy")}
    wins: dict[tuple[str, str], list[int]] = {}
    checkpoints = []
    ordered_since = None
    for n, (a, b, w) in enumerate(results, start=1):
        key = tuple(sorted((a, b), key=("hard", "normal", "easy").index))
        tally = wins.setdefault(key, [0, 0, 0])  # first wins, second wins, draws
        tally[2 if w is None else key.index(w)] += 1
        after = rate_hand(
            ratings=(ratings[a], ratings[b]),
            winner=None if w is None else (0 if w == a else 1),
        )
        if after is not None:
            ratings[a], ratings[b] = after
        if n % 100 == 0 or n == len(results):
            ok = ratings["hard"].mu > ratings["normal"].mu > ratings["easy"].mu
            checkpoints.append(
                {
                    "hands": n,
                    **{lv: [round(r.mu), round(r.sigma)] for lv, r in ratings.items()},
                    "ordered": ok,
                }
            )
            if ok and ordered_since is None:
                ordered_since = n
            if not ok:
                ordered_since = None
    return {
        "ruleset": ruleset,
        "hands": len(results),
        "play_seconds": round(play_seconds, 1),
        "win_rates": {
            f"{k[0]}-{k[1]}": {
                k[0]: round(v[0] / sum(v), 3),
                k[1]: round(v[1] / sum(v), 3),
                "draw": round(v[2] / sum(v), 3),
            }
            for k, v in wins.items()
        },
        "final": {lv: [round(r.mu), round(r.sigma)] for lv, r in ratings.items()},
        "ordered_hard_normal_easy": ratings["hard"].mu
        > ratings["normal"].mu
        > ratings["easy"].mu,
        "ordered_from_hand": ordered_since,
        "checkpoints": checkpoints,
    }


def replay(hands: int) -> dict[str, object]:
    from leaderboard.rating import Rating, rate_hand

    rng = random.Random(1)
    players = [Rating() for _ in range(1000)]
    t0 = time.perf_counter()
    for _ in range(hands):
        i, j = rng.randrange(1000), rng.randrange(1000)
        if i == j:
            continue
        for _scope in range(2):  # overall and within the rule set
            after = rate_hand(ratings=(players[i], players[j]), winner=rng.randrange(2))
            assert after is not None
        players[i], players[j] = after
    seconds = time.perf_counter() - t0
    return {
        "replay_hands": hands,
        "replay_seconds": round(seconds, 1),
        "microseconds_per_hand": round(seconds / hands * 1e6, 1),
        "estimated_seconds_for_1M_hands": round(seconds / hands * 1_000_000),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2400)
    parser.add_argument("--ruleset", default="erren")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--replay", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    result = ordering(args.hands, args.ruleset, args.workers, args.seed)
    checkpoints = result.pop("checkpoints")
    for c in checkpoints:
        print(json.dumps(c), flush=True)
    print(json.dumps(result, ensure_ascii=False), flush=True)
    if args.replay:
        print(json.dumps(replay(args.replay)), flush=True)


if __name__ == "__main__":
    main()
