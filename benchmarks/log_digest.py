"""SHA-256 of the event logs of self-played hands, per rule set and bot.

Usage::

    python benchmarks/log_digest.py [HANDS] [--bots simple easy normal hard]
        [--rulesets NAME ...] [--seed N]

Plays ``HANDS`` hands (default 15) per rule set and bot exactly as
``games.engine.selfplay.run`` does (same seeds, same random 托管/timeout/
random-action mix) and prints one line per pair: the SHA-256 of the JSON of
every event of every hand (server form, :meth:`Event.to_json`), then one
digest over all lines.  Run it before and after an engine change that must
not change behaviour (issue 15 §"Behaviour is unchanged"): the digests must
be equal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.selfplay import make_chooser, play_hand  # noqa: E402
from games.rules.rulesets import NAMES  # noqa: E402
from games.rules.rulesets import get as get_ruleset  # noqa: E402


def digest(ruleset_name: str, bot: str, hands: int, seed: int) -> str:
    """Return the hex SHA-256 of ``hands`` self-played hands' event logs."""
    ruleset = get_ruleset(ruleset_name)
    rng = random.Random(seed)
    choose = make_chooser(bot, random.Random(seed + 1))
    h = hashlib.sha256()
    for _ in range(hands):
        hand_seed = f"{rng.getrandbits(128):032x}"
        try:
            hand = play_hand(ruleset, hand_seed, check=False, rng=rng, choose=choose)
        except Exception as exc:  # noqa: BLE001 - an error is part of the digest
            h.update(f"error {hand_seed} {type(exc).__name__}: {exc}\n".encode())
            continue
        for event in hand.events:
            h.update(json.dumps(event.to_json(), sort_keys=True).encode())
            h.update(b"\n")
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", nargs="?", type=int, default=15)
    ap.add_argument("--bots", nargs="+", default=["simple", "easy", "normal", "hard"])
    ap.add_argument("--rulesets", nargs="+", default=list(NAMES))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    total = hashlib.sha256()
    for name in args.rulesets:
        for bot in args.bots:
            line = f"{name:9} {bot:7} {digest(name, bot, args.hands, args.seed)}"
            print(line, flush=True)
            total.update(line.encode())
    print(f"all {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
