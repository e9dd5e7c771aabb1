"""Decompositions of complete hands (seed 003 和牌的基本牌型 / 特殊牌型)."""

from __future__ import annotations

import random

import pytest

from games.rules.decompose import (
    KNITTED_PATTERNS,
    GroupKind,
    decompose,
    has_other_regular_wait,
    has_other_wait_of_complete,
    is_regular_complete,
    regular_waits,
    seven_pairs_waits,
)
from games.rules.melds import Meld
from games.rules.shanten import Shape
from games.rules.tiles import parse_tiles, to_counts


def _splits(tiles: str, melds: tuple[Meld, ...] = ()) -> list[str]:
    return sorted(str(d) for d in decompose(to_counts(parse_tiles(tiles)), melds))


def test_regular_hand_has_one_split() -> None:
    assert _splits("123m456p789s11122z") == ["123m 456p 789s 111z 22z"]


def test_three_equal_chows_are_also_three_pungs() -> None:
    assert _splits("111222333m45699p") == [
        "111m 222m 333m 456p 99p",
        "123m 123m 123m 456p 99p",
    ]


def test_pair_choice_gives_several_splits() -> None:
    # 1112345678999m + 2m: the only split; + 5m: one split; nine gates shapes.
    assert _splits("11122345678999m") == ["111m 345m 678m 999m 22m"]
    assert _splits("11112345678999m") == ["123m 111m 456m 789m 99m"]


def test_seven_pairs_and_regular_both_listed() -> None:
    got = _splits("11223344556677m")
    assert "11m 22m 33m 44m 55m 66m 77m" in got
    assert "123m 123m 456m 456m 77m" in got
    assert len(got) == 4


def test_four_of_a_kind_is_two_pairs() -> None:
    ds = decompose(to_counts(parse_tiles("1111m2233p4455s6z6z")))
    assert [d.shape for d in ds] == [Shape.SEVEN_PAIRS]
    assert sum(1 for g in ds[0].groups if g.tile.index == 0) == 2


def test_thirteen_orphans() -> None:
    ds = decompose(to_counts(parse_tiles("19m19p19s12345677z")))
    assert [d.shape for d in ds] == [Shape.THIRTEEN_ORPHANS]


def test_honors_and_knitted() -> None:
    ds = decompose(to_counts(parse_tiles("147m258p3s1234567z")))
    assert [d.shape for d in ds] == [Shape.HONORS_AND_KNITTED]
    # a tile outside the knitted pattern breaks it
    assert decompose(to_counts(parse_tiles("147m258p5s1234567z"))) == []


def test_knitted_straight_with_set_and_pair() -> None:
    ds = decompose(to_counts(parse_tiles("147m258p369s234m55z")))
    assert [d.shape for d in ds] == [Shape.KNITTED_STRAIGHT]
    (d,) = ds
    assert d.knitted in KNITTED_PATTERNS
    assert [g.kind for g in d.groups] == [
        GroupKind.KNITTED,
        GroupKind.CHOW,
        GroupKind.PAIR,
    ]
    assert str(d) == "147m258p369s 234m 55z"


def test_knitted_straight_with_a_declared_set() -> None:
    melds = (Meld.parse("pung", "777z", "7z"),)
    ds = decompose(to_counts(parse_tiles("147m258p369s22z")), melds)
    assert [str(d) for d in ds] == ["147m258p369s [777z] 22z"]
    assert ds[0].groups[1].declared and not ds[0].groups[1].concealed


def test_melds_are_sets_and_special_shapes_need_none() -> None:
    melds = (Meld.parse("chi", "123m", "1m"), Meld.parse("concealed_kong", "5555p"))
    assert _splits("789s11z", melds) == ["[123m] [5555p]暗 789s 11z"]
    # with a meld there is no 七对 reading of the concealed part
    assert _splits("1122z", (*melds, Meld.parse("pung", "777z", "7z"))) == []


def test_shapes_filter() -> None:
    counts = to_counts(parse_tiles("11223344556677m"))
    only = decompose(counts, (), frozenset({Shape.SEVEN_PAIRS}))
    assert [d.shape for d in only] == [Shape.SEVEN_PAIRS]


@pytest.mark.parametrize(
    ("tiles", "complete"),
    [
        ("123m456p789s11122z", True),
        ("123m456p789s11123z", False),
        ("11m", True),
        ("111m", False),
        ("11111m", True),  # a formal fifth copy (supply is not checked here)
        ("11124m", False),
        ("11123444m", True),
    ],
)
def test_is_regular_complete(tiles: str, complete: bool) -> None:
    assert is_regular_complete(to_counts(parse_tiles(tiles))) is complete


def test_regular_waits_include_a_fifth_copy() -> None:
    # 1111m + three sets: the only wait is a fifth 1m (formal; four held).
    waits = regular_waits(tuple(to_counts(parse_tiles("1111m234p567s789s"))))
    assert waits == frozenset({0})
    nine_gates = regular_waits(tuple(to_counts(parse_tiles("1112345678999m"))))
    assert nine_gates == frozenset(range(9))


def test_seven_pairs_wait() -> None:
    assert seven_pairs_waits(to_counts(parse_tiles("1122334455667m"))) == {6}
    assert seven_pairs_waits(to_counts(parse_tiles("1122334455678m"))) == set()


def test_fit_table_agrees_with_the_search_on_random_suit_patterns() -> None:
    # The import-time table of fitting suit patterns (suits._FITS) answers
    # for every pattern of at most 14 tiles; the greedy search is the rule.
    from games.rules import suits

    assert len(suits._SUITED_FITS) == 21_743
    assert len(suits._HONOR_FITS) == 498
    rng = random.Random(15)
    kinds = {suits._NO: 0, suits._FITS_PLAIN: 0, suits._FITS_PAIR: 0}
    for _ in range(20_000):
        seg = rng.randrange(4)
        n = 7 if seg == 3 else 9
        pat = [0] * n
        for _ in range(rng.choice((2, 3, 5, 6, 8, 9, 11, 12, 13, 14))):
            pat[rng.randrange(n)] += 1
        got = suits._fit(seg, tuple(pat))
        assert got == suits._fit_of(seg, tuple(pat)), pat
        kinds[got] += 1
    assert all(kinds.values())  # each answer was met


def test_split_table_agrees_with_the_search_on_every_pattern() -> None:
    # suits._SPLITS lists each fitting pattern's splits in the search's order
    # (the order decides which split wins a tie, so it is part of the rule).
    from games.rules import suits

    for seg, table in ((0, suits._SPLITS[0]), (3, suits._SPLITS[1])):
        for pat, splits in table.items():
            assert suits._search_splits(seg, pat) == splits, pat
    # outside the table's bounds (a fifth copy, 15 tiles) the search answers
    assert suits._splits_of(0, (5, 0, 0, 0, 0, 0, 0, 0, 1)) == (0, 2, (), ())
    assert suits._splits_of(1, (0, 0, 0, 0, 4, 4, 4, 0, 3)) == (
        0,
        4,
        ((8, 9, 11, 13, 17), (8, 8, 8, 8, 17)),  # 15 tiles: searched
        (),
    )


def test_other_wait_of_a_complete_hand_agrees_with_the_general_test() -> None:
    # has_other_wait_of_complete looks at the winning tile's suit and the
    # pair's only; on random complete regular hands it answers as the
    # four-suit has_other_regular_wait does, for every tile taken as the win.
    from tests.rules.oracle import random_hand

    rng = random.Random(15)
    both = {True: 0, False: 0}
    for seed in range(3_000):
        h = random_hand(rng, seed)
        conc = list(to_counts([*h.concealed, h.situation.win_tile]))
        for d in decompose(conc, shapes=frozenset({Shape.REGULAR}))[:1]:
            assert d.pair is not None
            for win in {t.index for t in (*h.concealed, h.situation.win_tile)}:
                standing = list(conc)
                standing[win] -= 1
                want = has_other_regular_wait(standing, win)
                got = has_other_wait_of_complete(standing, win, d.pair.index)
                assert got == want, (h, win)
                both[got] += 1
    assert all(both.values())


def test_adds_agree_with_fit_tile_by_tile() -> None:
    # suits._adds (which reads the fit table inline) lists exactly the tiles
    # whose addition suits._fit says fits, on random 3k+1 / 3k+2 patterns.
    from games.rules import suits

    rng = random.Random(16)
    for _ in range(5_000):
        seg = rng.randrange(4)
        n = 7 if seg == 3 else 9
        pat = [0] * n
        for _ in range(rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))):
            pat[rng.randrange(n)] += 1
        want = []
        for t in range(n):
            q = list(pat)
            q[t] += 1
            f = suits._fit(seg, tuple(q))
            if f != suits._NO:
                want.append((t, f == suits._FITS_PAIR))
        assert suits._adds(seg, tuple(pat)) == tuple(want), (seg, pat)
