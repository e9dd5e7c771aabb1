"""Self-play throughput of the hand engine on every rule set.

Usage::

    python benchmarks/bench_selfplay.py [HANDS] [--check] [--bot LEVEL]
        [--rulesets NAME ...] [--seed N] [--default-gc]

Prints one JSON line per rule set (the ``selfplay`` summary of
:func:`games.engine.selfplay.run`: wins, draws, errors, hands per second by
the wall clock and per CPU second of this process), then a summary line per
rule set against issue 15's target of 100 hands per second.  The default
player is ``normal``, the site's 托管 bot, on both seats (its decisions are
most of the time); ``--bot simple`` measures the engine with the simplest
legal player.  The CPU figure is the one to compare on a shared machine; the
load average is printed with it.  The first hands fill the rules engine's
per-suit tables, so short runs read low.

Like a server process, the benchmark tunes Python's garbage collector after
start-up (:func:`mahjong_site.process.tune_gc`; ``"gc": "tuned"``);
``--default-gc`` leaves CPython's defaults (``"gc": "default"``).  Each line
also gives the collector's own time (``gc_s``, from ``gc.callbacks``: steady on
a loaded machine, unlike the CPU total) and its collections per generation.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import LEVELS  # noqa: E402
from games.engine.selfplay import run  # noqa: E402
from games.rules.rulesets import NAMES  # noqa: E402
from mahjong_site.process import tune_gc  # noqa: E402

TARGET = 100.0


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


class _GcClock:
    """CPU time spent in the collector and collections per generation."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = [0, 0, 0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started
            self.collections[info["generation"]] += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", nargs="?", type=int, default=200)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bot", default="normal", choices=["simple", *LEVELS])
    ap.add_argument("--rulesets", nargs="+", default=list(NAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--default-gc", action="store_true", help="leave the collector untuned"
    )
    args = ap.parse_args(argv)
    if not args.default_gc:
        tune_gc()
    print(f"load average {_load()}")
    rows = []
    for name in args.rulesets:
        clock = _GcClock()
        gc.callbacks.append(clock)
        summary = run(name, args.hands, args.seed, check=args.check, bot=args.bot)
        gc.callbacks.remove(clock)
        summary["gc"] = "default" if args.default_gc else "tuned"
        summary["gc_s"] = round(clock.seconds, 3)
        summary["gc_collections"] = clock.collections
        print(json.dumps(summary, ensure_ascii=False))
        rows.append(summary)
    for r in rows:
        cpu = r["cpu_hands_per_second"]
        verdict = "met" if cpu >= TARGET else "NOT met"
        print(
            f"{r['ruleset']:9} bot {r['bot']:7} {cpu:8.1f} hands/CPU s"
            f" {r['hands_per_second']:8.1f} hands/s wall  target ≥ {TARGET:.0f}:"
            f" {verdict}  gc {r['gc']} {r['gc_s']:.3f} s"
        )
    print(f"load average {_load()}")
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
