"""The marks of a seat's own tiles (moved from the table's template tag into
the engine, issue 15: the 财神 and 白板 rules live with the engine)."""

from __future__ import annotations

import pytest

from games.engine.view import tile_mark


@pytest.mark.parametrize(
    ("code", "wild", "bonus", "mark"),
    [
        ("3m", "3m", None, "wild"),  # 财神 (seed 002)
        ("5z", "3m", None, "standin"),  # 白板 plays the 财神 kind's face
        ("5z", "5z", None, "wild"),  # 白板 is itself the 财神: no stand-in
        ("7p", None, "7p", "bonus"),  # 加番牌 (seed 001)
        ("5z", None, None, ""),  # no 财神: 白板 is a plain tile
        ("", "3m", "7p", ""),
    ],
)
def test_tile_mark(code, wild, bonus, mark):
    assert tile_mark(code, wild, bonus) == mark
