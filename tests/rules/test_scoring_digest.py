"""Scores of a seeded corpus are exactly what they were (issue 15 speed work).

The scorer's speed work (per-suit tables, gates, memos) must not change a
single result.  Each rule set scores the same seeded random corpus
(:func:`tests.rules.oracle.random_hand`: winning hands of every shape, with
melds, flags, winds and flowers) and the digest of every result's full text
— win, totals, shape, the chosen split, the counted and not-counted fans in
order, the error code — must equal the one recorded before that work.

When a rule is deliberately changed, the digest changes with it: re-record it
(``python -m tests.rules.test_scoring_digest``) and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from games.rules.errors import InvalidHandError
from games.rules.rulesets import NAMES, get
from games.rules.scoring import score
from tests.rules.oracle import random_hand

HANDS = 800
SEED = 15_2026

# Recorded at 5e447b2 (before the issue 15 scoring speed work).
DIGESTS = {
    "erren": "9980700f8586e193ff68b044ae8d08d71c802460f62f3c7b6eacc9681d94d6a5",
    "mcr": "fdf1645aeabe1e14778e81b082c693f4a50229228d6ff18c8ce1bb9ad757a226",
    "erren64": "3a90fb1feb55a508a254d63faf93dfd9c1ea326f0b15f3dd4803b315eb405b06",
    "jj": "02ee75e6aeb2b53bdec4d040fb449ee358502ce7c896cd42f187779c5490d049",
    "liangren": "454adb7b40bbe143893d751277a18be9e4d228059f93c22412c04413d3fcbdf7",
    "youxi": "99d2c047f2e997251f31390314f0b99ae38240d76cc46508bc0862bf0c89d0ea",
}


def _text(name: str, n: int = HANDS) -> str:
    ruleset = get(name)
    lines = []
    for i in range(n):
        h = random_hand(random.Random(SEED * 100_003 + i), i)
        try:
            r = score(h.concealed, h.melds, h.situation, ruleset)
        except InvalidHandError as e:
            lines.append(f"{i} invalid {e}")
            continue
        fans = " ".join(f"{f.id}x{f.count}:{f.points}" for f in r.fans)
        skipped = " ".join(f"{f.id}x{f.count}:{f.reason}" for f in r.not_counted)
        lines.append(
            f"{i} {r.win} {r.total} {r.minimum_total} {r.shape} {r.code}"
            f" [{r.decomposition}] {fans} / {skipped}"
        )
    return "\n".join(lines)


def digest(name: str) -> str:
    """The sha256 of the corpus's result texts under rule set ``name``."""
    return hashlib.sha256(_text(name).encode()).hexdigest()


@pytest.mark.parametrize("name", NAMES)
def test_seeded_corpus_scores_as_recorded(name: str) -> None:
    assert digest(name) == DIGESTS[name]


if __name__ == "__main__":
    for n in NAMES:
        print(f'    "{n}": "{digest(n)}",')
