"""The fans' quoted descriptions (games.rules.fan_texts)."""

from __future__ import annotations

import pytest

from games.rules.fan_texts import seed000, seed001, seed002, seed003, seed004


@pytest.mark.parametrize("seed", [seed000, seed001, seed002, seed003, seed004])
def test_nine_gates_names_its_tiles(seed):
    """Issue 12 tester fault 13: seed 000's text read "按9组成", its tile list
    lost; every seed's description gives the shape 1112345678999."""
    assert "按1112345678999组成" in seed.TEXTS["NINE_GATES"]
