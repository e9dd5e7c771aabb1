"""Rules moved out of the presentation layer (issue 15: one rule in one place):
which settlement lines are factors or coins, the 胡加倍 terms, and the tiles a
seat's view shows."""

from games.engine.settle import COIN_LINES, is_factor_line, win_double_terms
from games.engine.view import visible_counts
from games.rules.tiles import Tile


def test_factor_lines_are_the_multipliers_and_the_per_seat_choices():
    for key in (
        "multiplier",
        "self_drawn",
        "ready_win",
        "open_hand_0",
        "deal_double_1",
    ):
        assert is_factor_line(key)
    for key in ("coins_raw", "cap", "rake", "fan", "base", "win_double", "task"):
        assert not is_factor_line(key)
    assert {"coins_raw", "cap", "rake"} == COIN_LINES


def test_win_double_terms_follow_seed_000():
    # a win after n declined wins scores (底番 + 2n) × 2ⁿ
    assert [win_double_terms(n) for n in (1, 2, 3, 8)] == [
        (2, 2),
        (4, 4),
        (6, 8),
        (16, 256),
    ]


def test_visible_counts_read_both_sides_and_the_wild_indicator():
    side = {"melds": [], "discards": [], "concealed": None, "drawn": None}
    view = {
        "me": dict(side, concealed=["1m", "1m", "5p"], drawn="1m", discards=["9s"]),
        "opponent": dict(
            side,
            melds=[{"tiles": ["1m", "2m", "3m"]}, {"tiles": None}],
            discards=["9s"],
        ),
        "indicators": {"wild": "9s"},
    }
    seen = visible_counts(view)
    assert len(seen) == 34
    assert seen[Tile.parse("1m").index] == 4  # three in hand + one in a chow
    assert seen[Tile.parse("9s").index] == 3
    assert seen[Tile.parse("5p").index] == 1 and seen[Tile.parse("2m").index] == 1
    assert sum(seen) == 4 + 3 + 1 + 1 + 1
