"""Self-play: a bot on both seats, for checks and figures.

``python -m games.engine selfplay --ruleset NAME --hands N --seed S [--check]
[--bot LEVEL]`` prints one JSON line: hands, wins by self-draw and by discard, draws,
average fan of the wins, errors, hands per second (wall clock, and per CPU
second of this process).  ``--bot`` picks the
player: ``normal`` (the default, the site's 托管 bot), ``easy``, ``hard``
(games/engine/bots, issue 5) or ``simple`` (bots/default.py, the engine's
simplest legal player).

To cover more of the machine than the bot alone would, a seeded generator
replaces about one bot move in five: by a ``timeout`` at the deadline (9 %),
a uniformly random legal action (10 %: swaps, 明牌, 加倍, chews, kongs, 报听
without a discard …) or a 托管 toggle (3 %).

``--check`` verifies after every event batch: tile conservation, that no
``view`` shows a hidden tile, and at the end of each hand that the replay of
seed + log equals the live state after every action, that balances are
conserved and that every discard / 加杠 opened its claim window whether or
not a claim was possible (``checks.check_claim_windows``, issue 6).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rules.rulesets import get as get_ruleset
from ..rules.rulesets.base import RuleSet
from . import checks
from .actions import Action, AutoPlay, Timeout
from .bots import LEVELS, make_bot
from .bots.default import choose as simple_choose
from .hand import Hand

Chooser = Callable[[Hand, int], Action | None]
"""``(hand, seat) -> action``: how a self-play seat decides."""


def make_chooser(level: str, rng: random.Random) -> Chooser:
    """Return a chooser for ``level`` (``simple`` or a :data:`bots.LEVELS` name).

    A leveled bot sees only ``view(seat)`` and ``legal_actions(seat)``
    (read from the state without rendering the view: ``PlanningBot.choose_in``).

    Raises:
        KeyError: unknown level.
    """
    if level == "simple":
        return simple_choose
    return make_bot(level, rng).choose_in


@dataclass
class Stats:
    """Totals of a self-play run."""

    hands: int = 0
    self_drawn: int = 0
    by_discard: int = 0
    draws: int = 0
    fan_sum: int = 0
    errors: int = 0
    messages: list[str] = field(default_factory=list)


def play_hand(
    ruleset: RuleSet,
    seed: str,
    *,
    check: bool,
    rng: random.Random,
    now: float = 0.0,
    choose: Chooser = simple_choose,
    prompt_locked: bool = False,
) -> Hand:
    """Play one hand to its end and return it.

    ``prompt_locked``: the hand option of the same name (:meth:`Hand.new`):
    a locked 报听 seat is prompted for its forced discard.

    Raises:
        checks.InvariantError: with ``check``, a broken invariant.
        ActionError: the bot or the engine produced an illegal action (a bug).
    """
    hand = Hand.new(
        ruleset,
        now=now,
        seed=seed,
        balances=(rng.randint(0, 3000), 2000),
        prompt_locked=prompt_locked,
    )
    snapshots: list[tuple[int, dict[str, Any]]] = []
    clock = now
    steps = 0
    while not hand.ended:
        steps += 1
        if steps > 2000:
            raise RuntimeError("hand did not end after 2000 actions")
        s = hand.state
        pending = s.pending
        seat = 0 if pending[0] else 1 if pending[1] else None
        action: Action | None
        roll = rng.random()
        if seat is None:
            raise RuntimeError("no seat is asked to act in an unfinished hand")
        if roll < 0.03:
            action = AutoPlay(seat, s.seq, not s.auto[seat])
        elif roll < 0.12:
            action = Timeout(seat, s.seq)
            clock = max(clock, s.deadline or clock)
        elif roll < 0.22:
            choices = [a for a in hand.legal_actions(seat) if a.kind != "auto_play"]
            action = rng.choice(choices)
        else:
            action = choose(hand, seat)
        assert action is not None
        clock += 0.5
        start = len(hand.events)
        hand.apply(action, now=clock)
        if check:
            snapshots.append((start, hand.state.snapshot()))
            checks.check_conservation(hand)
            checks.check_view(hand, 0)
            checks.check_view(hand, 1)
    if check:
        checks.check_settlement(hand)
        checks.check_claim_windows(hand)
        checks.check_replay(hand, snapshots)
    return hand


def run(
    ruleset_name: str,
    hands: int,
    seed: int,
    *,
    check: bool,
    bot: str = "normal",
    prompt_locked: bool = False,
) -> dict[str, Any]:
    """Play ``hands`` hands and return the summary dict printed by the CLI.

    Raises:
        KeyError: unknown rule set or bot level.
    """
    ruleset = get_ruleset(ruleset_name)
    rng = random.Random(seed)
    choose = make_chooser(bot, random.Random(seed + 1))
    stats = Stats()
    started = time.perf_counter()
    cpu_started = time.process_time()
    for _ in range(hands):
        hand_seed = f"{rng.getrandbits(128):032x}"
        stats.hands += 1
        try:
            hand = play_hand(
                ruleset,
                hand_seed,
                check=check,
                rng=rng,
                choose=choose,
                prompt_locked=prompt_locked,
            )
        except Exception as exc:  # noqa: BLE001 - counted and reported
            stats.errors += 1
            if len(stats.messages) < 5:
                stats.messages.append(f"{hand_seed}: {type(exc).__name__}: {exc}")
            continue
        result = hand.state.result or {}
        if result.get("winner") is None:
            stats.draws += 1
        else:
            stats.fan_sum += int(result.get("fan_total", 0))
            if result.get("self_drawn"):
                stats.self_drawn += 1
            else:
                stats.by_discard += 1
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    wins = stats.self_drawn + stats.by_discard
    out: dict[str, Any] = {
        "ruleset": ruleset_name,
        "bot": bot,
        "hands": stats.hands,
        "self_drawn": stats.self_drawn,
        "by_discard": stats.by_discard,
        "draws": stats.draws,
        "average_fan": round(stats.fan_sum / wins, 2) if wins else 0,
        "errors": stats.errors,
        "hands_per_second": round(stats.hands / elapsed, 1) if elapsed else 0,
        "cpu_hands_per_second": round(stats.hands / cpu, 1) if cpu else 0,
        "check": check,
        "prompt_locked": prompt_locked,
    }
    if stats.messages:
        out["first_errors"] = stats.messages
    return out


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the exit status (1 when any hand errored)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m games.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play hands with a bot on both seats")
    sp.add_argument("--ruleset", default="erren")
    sp.add_argument("--hands", type=int, default=100)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--check", action="store_true")
    sp.add_argument("--bot", default="normal", choices=["simple", *LEVELS])
    sp.add_argument(
        "--prompt-locked",
        action="store_true",
        help="prompt a locked 报听 seat for its forced discard (as the live table)",
    )
    args = parser.parse_args(argv)
    summary = run(
        args.ruleset,
        args.hands,
        args.seed,
        check=args.check,
        bot=args.bot,
        prompt_locked=args.prompt_locked,
    )
    sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    return 1 if summary["errors"] else 0
