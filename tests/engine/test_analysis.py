"""games.engine.analysis: the engine's door into the rules engine."""

from __future__ import annotations

import random

import pytest

from games.engine import analysis
from games.rules.rulesets import get


@pytest.mark.parametrize(
    ("name", "wild"),
    [("mcr", None), ("erren", None), ("liangren", 4), ("liangren", 31)],
)
def test_shanten_after_discards_equals_one_shanten_per_discard(
    name: str, wild: int | None
) -> None:
    """Each discard of random 14-tile hands, wilds and 白板 included (liangren:
    财神 5m, where 白板 plays 5m; and 财神 白板 itself)."""
    rs = get(name)
    kinds = [t.index for t in rs.kinds]
    rng = random.Random(f"{name}-{wild}")
    wall = [k for k in kinds for _ in range(4)]
    for _ in range(200):
        c = [0] * 34
        for k in rng.sample(wall, 14):
            c[k] += 1
        held = [k for k in range(34) if c[k]]
        want = []
        for k in held:
            c[k] -= 1
            want.append(analysis.hand_shanten(c, 0, wild, rs))
            c[k] += 1
        assert analysis.shanten_after_discards(c, 0, wild, rs, held) == want
