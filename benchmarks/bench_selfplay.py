"""Self-play throughput of the hand engine on every rule set.

Usage: ``python benchmarks/bench_selfplay.py [HANDS] [--check]``.  Prints one
JSON line per rule set (the ``selfplay`` summary, including hands per second).
Figures depend on the machine and its load; run on a quiet machine.
"""

from __future__ import annotations

import json
import sys

from games.engine.selfplay import run
from games.rules.rulesets import NAMES


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 200
    check = "--check" in sys.argv
    for name in NAMES:
        print(json.dumps(run(name, hands, 1, check=check), ensure_ascii=False))


if __name__ == "__main__":
    main()
