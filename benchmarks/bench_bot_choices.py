"""Figures behind the bots' 加倍 / 明牌 / 开始加倍 choices (issue 11 §2).

Plays whole hands between two bots of one level (games.engine.bots.arena),
the dealer alternating, every pre-deal and 加倍 prompt declined so the
choices change nothing, and prints:

* the dealer's share of the decided hands (the only thing a bot knows
  before the deal, when 明牌 and 开始加倍 are chosen);
* at each 加倍 prompt (rule sets with 加倍 after the deal), the hand's free
  deficiency as the bots evaluate it (tiles from waiting) and how often a
  hand of that deficiency went on to win.

Run::

    python benchmarks/bench_bot_choices.py --ruleset erren64 --hands 1500
    python benchmarks/bench_bot_choices.py --ruleset liangren --hands 1000

The thresholds in games/engine/bots (``double_deficiency``,
``predeal_as_dealer``) cite these figures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.actions import Action, Double, PreDeal  # noqa: E402
from games.engine.bots import evaluate as ev  # noqa: E402
from games.engine.bots import make_bot  # noqa: E402
from games.engine.bots.arena import play_hand  # noqa: E402
from games.engine.bots.base import PlanningBot  # noqa: E402


class Recorder:
    """A bot that declines every pre-deal and 加倍 choice and notes, at each
    加倍 prompt, how far its hand is from waiting."""

    def __init__(self, bot: PlanningBot) -> None:
        self.bot = bot
        self.level = bot.level
        self.deficiencies: list[int] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        pre = [a for a in legal if isinstance(a, PreDeal)]
        if pre:
            return next(a for a in pre if not a.open_hand and not a.double)
        doubles = [a for a in legal if isinstance(a, Double)]
        if doubles:
            obs = self.bot._observe(view)
            ctx = ev.make_context(obs, self.bot.style, self.bot.scorer, {})
            if sum(obs.hand) + 3 * len(obs.melds) >= 14:
                est = ev.rank_discards(ctx, obs.hand, obs.melds)[0][2]
            else:
                est = ev.value(ctx, obs.hand, obs.melds)
            self.deficiencies.append(est.free_deficiency)
            return next(a for a in doubles if not a.double)
        return self.bot.choose(view, legal)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="erren64")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--level", default="normal")
    args = parser.parse_args(argv)
    dealer_wins = other_wins = draws = 0
    by_deficiency: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    start = time.time()
    for i in range(args.hands):
        seed = f"{i:032x}"
        dealer = i % 2
        bots = [
            Recorder(make_bot(args.level, random.Random(f"{seed}:{s}")))  # type: ignore[arg-type]
            for s in (0, 1)
        ]
        hand = play_hand(args.ruleset, seed, bots, dealer=dealer)
        winner = (hand.state.result or {}).get("winner")
        if winner is None:
            draws += 1
        elif winner == dealer:
            dealer_wins += 1
        else:
            other_wins += 1
        for seat in (0, 1):
            for d in bots[seat].deficiencies:
                by_deficiency[d][0] += 1
                by_deficiency[d][1] += int(winner == seat)
    decided = dealer_wins + other_wins
    print(
        f"{args.ruleset} {args.level}: {args.hands} hands, {draws} draws, dealer won"
        f" {dealer_wins}/{decided} = {dealer_wins / max(decided, 1):.3f} of decided"
        f" hands ({time.time() - start:.0f} s)"
    )
    for d in sorted(by_deficiency):
        n, won = by_deficiency[d]
        print(f"  加倍 prompt {d} tiles from waiting: {n} hands, won {won / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
