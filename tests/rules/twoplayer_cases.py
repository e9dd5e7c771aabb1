"""Shared helpers for the per-rule-set fan tests (test_<name>_fans.py).

A :class:`Case` is a golden hand in tile notation with the exact fans it
must score (``{fan id: count}``).  Totals are checked against a value table
typed from the seed in each test module (not read from the rule set), so a
wrong value in a rule-set module fails the test as well as a wrong fan.
``near`` names fans the hand is a near miss for: present in the rule set,
close to the hand, and not scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.api import ScoreOutcome, score_hand
from games.rules.cli import parse_request
from games.rules.rulesets.base import RuleSet


@dataclass(frozen=True)
class Case:
    """One golden hand.

    ``hand`` holds the CLI's input fields (``concealed``, ``win_tile``,
    ``melds``, flags …); ``expect`` the counted fans; ``win`` whether it
    reaches the minimum; ``near`` fans it must not score.
    """

    name: str
    hand: dict[str, Any]
    expect: dict[str, int]
    near: tuple[str, ...] = ()
    win: bool = True
    note: str = ""
    assignment: str | None = None  # 财神: expected assignment, kind order

    @property
    def id(self) -> str:
        return self.name


def C(
    name: str,
    concealed: str,
    win_tile: str,
    expect: dict[str, int],
    *,
    melds: Sequence[tuple[str, str] | tuple[str, str, str]] = (),
    near: Sequence[str] = (),
    win: bool = True,
    note: str = "",
    assignment: str | None = None,
    **flags: Any,
) -> Case:
    """Build a :class:`Case`; ``melds`` as ``(type, tiles[, claimed])``."""
    hand: dict[str, Any] = {"concealed": concealed, "win_tile": win_tile, **flags}
    if melds:
        hand["melds"] = [
            {"type": m[0], "tiles": m[1], **({"claimed": m[2]} if len(m) > 2 else {})}
            for m in melds
        ]
    return Case(name, hand, expect, tuple(near), win, note, assignment)


def run(case: Case, ruleset: RuleSet) -> ScoreOutcome:
    """Score a case's hand under ``ruleset`` through the public entry point."""
    req = parse_request(case.hand)
    return score_hand(req.concealed, req.melds, req.situation, ruleset)


def expected_total(case: Case, values: Mapping[str, int]) -> int:
    """Sum of ``values[fan] * count`` over the expected fans."""
    return sum(values[f] * n for f, n in case.expect.items())


def check(case: Case, ruleset: RuleSet, values: Mapping[str, int]) -> ScoreOutcome:
    """Assert the exact fans, total, win flag and near misses of a case."""
    out = run(case, ruleset)
    got = out.result.fan_ids()
    assert got == case.expect, (
        f"{case.name}: fans {got} != {case.expect}; "
        f"not counted: {[(f.id, f.reason) for f in out.result.not_counted]}"
    )
    assert out.result.total == expected_total(case, values), case.name
    assert out.result.win is case.win, (case.name, out.result.error)
    for fan in case.near:
        assert fan not in got, f"{case.name}: near miss {fan} was scored"
    if case.assignment is not None:
        from games.rules.tiles import format_tiles

        assert format_tiles(out.assignment, sort=False) == case.assignment
    return out


@dataclass
class Coverage:
    """Which fans the cases score and which they are near misses for."""

    scored: set[str] = field(default_factory=set)
    near: set[str] = field(default_factory=set)


def coverage(cases: Sequence[Case]) -> Coverage:
    cov = Coverage()
    for c in cases:
        cov.scored.update(c.expect)
        cov.near.update(c.near)
    return cov


def uncovered(
    ruleset: RuleSet, cases: Sequence[Case], never_counted: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """Return (fans no case scores, fans no case is a near miss for), sorted.

    ``never_counted`` lists fans the rule set's own 不计 rules make unscorable
    (each file explains and tests its own); both lists must come back empty.
    """
    cov = coverage(cases)
    ids = {f.id for f in ruleset.fans}
    return sorted(ids - cov.scored - set(never_counted)), sorted(ids - cov.near)
