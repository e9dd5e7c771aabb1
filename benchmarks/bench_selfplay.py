"""Self-play throughput of the hand engine on every rule set.

Usage::

    python benchmarks/bench_selfplay.py [HANDS] [--check] [--bot LEVEL]
        [--rulesets NAME ...] [--seed N]

Prints one JSON line per rule set (the ``selfplay`` summary of
:func:`games.engine.selfplay.run`: wins, draws, errors, hands per second by
the wall clock and per CPU second of this process), then a summary line per
rule set against issue 15's target of 100 hands per second.  The default
player is ``normal``, the site's 托管 bot, on both seats (its decisions are
most of the time); ``--bot simple`` measures the engine with the simplest
legal player.  The CPU figure is the one to compare on a shared machine; the
load average is printed with it.  The first hands fill the rules engine's
per-suit tables, so short runs read low.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import LEVELS  # noqa: E402
from games.engine.selfplay import run  # noqa: E402
from games.rules.rulesets import NAMES  # noqa: E402

TARGET = 100.0


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", nargs="?", type=int, default=200)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bot", default="normal", choices=["simple", *LEVELS])
    ap.add_argument("--rulesets", nargs="+", default=list(NAMES))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"load average {_load()}")
    rows = []
    for name in args.rulesets:
        summary = run(name, args.hands, args.seed, check=args.check, bot=args.bot)
        print(json.dumps(summary, ensure_ascii=False))
        rows.append(summary)
    for r in rows:
        cpu = r["cpu_hands_per_second"]
        verdict = "met" if cpu >= TARGET else "NOT met"
        print(
            f"{r['ruleset']:9} bot {r['bot']:7} {cpu:8.1f} hands/CPU s"
            f" {r['hands_per_second']:8.1f} hands/s wall  target ≥ {TARGET:.0f}:"
            f" {verdict}"
        )
    print(f"load average {_load()}")
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
