"""Property test: our ``mcr`` scoring agrees with pymahjonggb on random hands.

10,000 seeded random legal winning hands of every shape (regular with
chi/pung/kong/concealed-kong melds, 七对, 连七对, 十三幺, 全不靠/七星不靠,
组合龙 + set + pair, 九莲宝灯, 双龙会 patterns), with random flags consistent
with the tiles, winds and flowers (:func:`tests.rules.oracle.random_hand`).

Agreement means the same ``{fan id: count}`` and the same total, after the
documented translations of :func:`tests.rules.oracle.oracle_score`.  When
the totals agree but the fans differ, the oracle's list must be the breakdown
of one of our other decompositions with the same total (equal-total splits,
ORACLE-NOTES.md).  The 8-fan minimum is not compared (the oracle does not
apply it); it is tested in ``test_mcr_fans.py``.
"""

from __future__ import annotations

import random

from games.rules.rulesets import get
from games.rules.scoring import score, score_all
from tests.rules.oracle import ORACLE_EXCEPTIONS, oracle_score, random_hand

N_HANDS = 10_000
MCR = get("mcr")


def _check(seed: int) -> str | None:
    hand = random_hand(random.Random(seed), seed)
    if str(hand) in ORACLE_EXCEPTIONS:
        return None
    ofans, ototal = oracle_score(hand)
    res = score(hand.concealed, hand.melds, hand.situation, MCR)
    ours = res.fan_ids()
    if ours == ofans and res.total == ototal:
        return None
    if res.total == ototal:
        alts = score_all(hand.concealed, hand.melds, hand.situation, MCR)
        if any(a.fan_ids() == ofans and a.total == ototal for a in alts):
            return None
    return (
        f"{hand}\n  ours:   {res.total} {res.decomposition} {ours}"
        f"\n  oracle: {ototal} {ofans}"
    )


def test_random_hands_agree_with_oracle() -> None:
    failures = []
    for seed in range(N_HANDS):
        msg = _check(seed)
        if msg is not None:
            failures.append(msg)
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:20])


def test_random_hands_cover_every_shape_and_fan() -> None:
    """The generator reaches every shape and every one of the 81 fans."""
    seen: set[str] = set()
    shapes: set[str] = set()
    for seed in range(4000):
        hand = random_hand(random.Random(seed), seed)
        res = score(hand.concealed, hand.melds, hand.situation, MCR)
        seen.update(res.fan_ids())
        shapes.add(res.shape)
    assert shapes == {
        "regular",
        "seven_pairs",
        "thirteen_orphans",
        "honors_and_knitted",
        "knitted_straight",
    }
    missing = {f.id for f in MCR.fans} - seen
    assert missing <= {"CHICKEN_HAND"}, missing


def test_declared_requirements_are_kept() -> None:
    """A condition skipped for a missing feature (``Fan.needs``) would be 0."""
    from games.rules import scoring as sc
    from games.rules import scoring_features
    from games.rules.decompose import decompositions

    gated = 0
    for seed in range(3000):
        hand = random_hand(random.Random(seed), seed)
        standing = sc._validate(hand.concealed, hand.melds, hand.situation)
        facts = sc.HandFacts(standing, hand.melds, hand.situation)
        for d in decompositions(facts.concealed, facts.melds, MCR.shapes):
            ctx = sc.ScoringContext(facts, d)
            feats = scoring_features._features(ctx)
            for fan in MCR.fans:
                need = sc.needs_mask(fan)
                if need & feats != need:
                    gated += 1
                    assert fan.condition(ctx) == 0, (str(hand), fan.id)
    assert gated > 3000 * 20  # the gates do skip most of the table
