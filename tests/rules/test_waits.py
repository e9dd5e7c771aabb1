"""Win test, waits and unseen counts: classic hands, wilds, errors, and a
seeded property test against pymahjonggb (ChineseOfficialMahjongHelper)."""

from __future__ import annotations

import random

import pytest

from games.rules.errors import InvalidHandError
from games.rules.shanten import KNITTED_STRAIGHTS, ORPHANS, Shape
from games.rules.tiles import parse_tiles, to_counts
from games.rules.waits import is_winning, unseen_counts, waits, waits_remaining
from tests.rules.oracle import (
    HK,
    KS,
    ORACLE_BY_SHAPE,
    ORACLE_INDEX,
    ORACLE_NAMES,
    P7,
    TO,
    R,
)


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def idx(text: str) -> list[int]:
    return sorted({t.index for t in parse_tiles(text)})


def oracle_hand(c: list[int]) -> tuple[str, ...]:
    return tuple(ORACLE_NAMES[k] for k in range(34) for _ in range(c[k]))


def oracle_waits(shape: Shape, c: list[int]) -> list[int]:
    """The oracle's useful tiles at shanten 0 are its waits (formal ones too)."""
    value, useful = ORACLE_BY_SHAPE[shape](oracle_hand(c))
    return sorted(ORACLE_INDEX[u] for u in useful) if value == 0 else []


def shapes_for(melds: int) -> list[Shape]:
    if melds == 0:
        return list(Shape)
    return [R, KS] if melds == 1 else [R]


# -- classic waits -------------------------------------------------------------


def test_nine_gates_waits_on_all_nine() -> None:
    assert waits(counts("1112345678999m")) == list(range(9))


def test_thirteen_orphans_thirteen_sided_wait() -> None:
    assert waits(counts("19m19p19s1234567z")) == list(ORPHANS)
    assert waits(counts("19m19p19s1234566z")) == idx("7z")


def test_knitted_straight_waits() -> None:
    # missing 9s of 147m258p369s; 789m + 11z complete the rest
    assert waits(counts("147m258p36s789m11z")) == idx("9s")
    # knitted straight complete: single wait on the pair
    assert waits(counts("147m258p369s789m1z")) == idx("1z")
    # with a meld: 10 concealed tiles, knitted straight + pair wait
    assert waits(counts("147m258p369s5z"), melds=1) == idx("5z")


def test_honors_and_knitted_waits() -> None:
    # 全不靠 with 13 of the 16 tiles: each of the 3 missing completes it
    assert waits(counts("147m258p369s1237z")) == idx("456z")
    # 七星不靠 candidates: all honours, 6 knitted, waits on the other 3
    assert waits(counts("14m25p36s1234567z")) == idx("7m8p9s")


def test_seven_pairs_waits_and_four_of_a_kind() -> None:
    assert waits(counts("1122m3344p5566s7z")) == idx("7z")
    # four of a kind counts as two pairs (MCR)
    assert waits(counts("1111m2233p4455s6z")) == idx("6z")
    # also a regular wait: 1122334455667m waits 1m 4m 7m
    assert waits(counts("1122334455667m")) == idx("147m")
    assert waits(counts("1122334455667m"), shapes={P7}) == idx("7m")


def test_formal_wait_on_a_kind_held_four_times() -> None:
    c = counts("1111m456p789p123s")
    assert waits(c) == idx("1m")
    visible = c[:]
    assert waits_remaining(c, visible) == {0: 0}


def test_shapes_restrict_waits() -> None:
    c = counts("19m19p19s1234567z")
    assert waits(c, shapes={R, P7}) == []
    assert waits(counts("1112345678999m"), shapes={P7, TO}) == []


def test_regular_waits_with_melds() -> None:
    assert waits(counts("2345m"), melds=3) == idx("25m")
    assert waits(counts("5z"), melds=4) == idx("5z")
    assert waits(counts("13m456p11z"), melds=2) == idx("2m")


def test_not_tenpai_gives_no_waits() -> None:
    assert waits(counts("123m456p789s11z24z")) == []


# -- wilds ---------------------------------------------------------------------


def test_wild_single_wait_is_any_kind() -> None:
    assert waits(counts("123m456p789s111z"), wilds=1) == list(range(34))


def test_wild_waits_seven_pairs_and_orphans() -> None:
    # the wild pairs one single, the other single is the wait
    assert waits(counts("1122m3344p55s67z"), wilds=1, shapes={P7}) == idx("67z")
    # two wilds fill two missing orphans: any orphan completes
    assert waits(counts("19m19p19s12345z"), wilds=2, shapes={TO}) == list(ORPHANS)
    # one wild: the missing 7z, or a duplicate with the wild as 7z
    assert waits(counts("19m19p19s123456z"), wilds=1, shapes={TO}) == list(ORPHANS)


def test_wild_is_winning() -> None:
    assert is_winning(counts("1122m3344p55s667z"), wilds=1)
    assert is_winning(counts("123m456p789s11z"), wilds=3)
    assert is_winning(counts("147m258p36s789m11z"), wilds=1)  # wild = 9s
    assert not is_winning(counts("147m258p36s789m12z"), wilds=1, shapes={KS})
    assert is_winning(counts("147m258p369s1234z"), wilds=1, shapes={HK})
    assert not is_winning(counts("147m258p369s1134z"), wilds=1, shapes={HK})


# -- win test ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "melds", "shapes", "expected"),
    [
        ("11123456789999m", 0, set(Shape), True),
        ("11223344556677m", 0, {P7}, True),
        ("11223344556677m", 0, {R}, True),
        ("11112233445566m", 0, {R}, True),  # 11 123 123 456 456
        ("1111m2233p4455s66z", 0, {P7}, True),  # four of a kind = two pairs
        ("1111m2233p4455s66z", 0, {R, TO, HK, KS}, False),
        ("19m19p19s12345677z", 0, {TO}, True),
        ("19m19p19s12345677z", 0, {R, P7, HK, KS}, False),
        ("147m258p369s12345z", 0, {HK}, True),
        ("147m25p36s1234567z", 0, {HK}, True),  # 七星不靠
        ("147m258p369s789m11z", 0, {KS}, True),
        ("147m258p369s789m11z", 0, {R, P7}, False),
        ("147m258p369s11z", 1, {KS}, True),
        ("147m258p369s11z", 1, {R}, False),
        ("123m456p11z", 2, {R}, True),
        ("123m456p12z", 2, set(Shape), False),
        ("55z", 4, set(Shape), True),
    ],
)
def test_is_winning(text: str, melds: int, shapes: set[Shape], expected: bool) -> None:
    assert is_winning(counts(text), melds=melds, shapes=shapes) is expected


def test_win_test_needs_fourteen_minus_three_per_meld() -> None:
    with pytest.raises(InvalidHandError, match="expected 14"):
        is_winning(counts("1112345678999m"))
    with pytest.raises(InvalidHandError, match="expected 11"):
        is_winning(counts("123m456p789s1z"), melds=1)
    with pytest.raises(InvalidHandError, match="expected 13"):
        waits(counts("11123456789999m"))
    with pytest.raises(InvalidHandError, match="count 5"):
        waits([5] + [1] * 8 + [0] * 25)


# -- unseen counts -------------------------------------------------------------


def test_unseen_counts() -> None:
    visible = counts("1112345678999m5m5m5m1z")
    got = unseen_counts(visible)
    assert got[0] == 1 and got[4] == 0 and got[1] == 3 and got[27] == 3
    assert got[9:27] == [4] * 18
    # impossible overcounts (a caller's double count) clamp at 0
    assert unseen_counts([6] + [0] * 33)[0] == 0


def test_unseen_counts_errors() -> None:
    with pytest.raises(InvalidHandError, match="34 entries"):
        unseen_counts([0] * 42)
    with pytest.raises(InvalidHandError, match="index 3 is < 0"):
        unseen_counts([0, 0, 0, -1] + [0] * 30)


def test_waits_remaining() -> None:
    hand = counts("1112345678999m")
    visible = hand[:]
    visible[4] += 2  # two more 5m discarded
    visible[27] += 4  # irrelevant
    remaining = waits_remaining(hand, visible)
    assert remaining == {0: 1, 1: 3, 2: 3, 3: 3, 4: 1, 5: 3, 6: 3, 7: 3, 8: 1}


# -- property tests against the oracle -------------------------------------------

SEED = 2718


def _take(rng: random.Random, left: list[int], kind: str) -> list[int] | None:
    """Random set ("set"), pair or chow-or-pung from the remaining copies."""
    k = rng.randrange(34)
    if kind == "pair":
        need = {k: 2}
    elif k < 27 and k % 9 < 7 and rng.random() < 0.6:
        need = {k: 1, k + 1: 1, k + 2: 1}
    else:
        need = {k: 3}
    if any(left[t] < n for t, n in need.items()):
        return None
    for t, n in need.items():
        left[t] -= n
    return [t for t, n in need.items() for _ in range(n)]


def _complete_hand(rng: random.Random, shape: Shape, melds: int) -> list[int]:
    """Random complete concealed tiles of ``shape`` (list of kinds)."""
    left = [4] * 34
    while True:
        tiles: list[int] = []
        if shape is R or shape is KS:
            if shape is KS:
                tiles = list(rng.choice(KNITTED_STRAIGHTS))
                for t in tiles:
                    left[t] -= 1
            sets = (4 - melds) if shape is R else (1 - melds)
            while sets:
                got = _take(rng, left, "set")
                if got:
                    tiles += got
                    sets -= 1
            while True:
                got = _take(rng, left, "pair")
                if got:
                    return tiles + got
        if shape is P7:
            while len(tiles) < 14:
                got = _take(rng, left, "pair")
                if got:
                    tiles += got
            return tiles
        if shape is TO:
            return list(ORPHANS) + [rng.choice(ORPHANS)]
        pool = list(rng.choice(KNITTED_STRAIGHTS)) + list(range(27, 34))
        return rng.sample(pool, 14)


def _to_counts(kinds: list[int]) -> list[int]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


def test_waits_and_wins_agree_with_oracle() -> None:
    """≥ 5,000 seeded hands: tenpai hands made from complete hands of every
    shape (0–2 melds for the regular shape) plus random hands.  For each we
    compare the waits per shape and overall with the oracle's, and the win
    test of every hand + wait and of 2,500 random 14-tile hands."""
    rng = random.Random(SEED)
    wall = [k for k in range(34) for _ in range(4)]
    shapes = list(Shape)
    for n in range(5000):
        shape = shapes[n % 5]
        melds = 0
        if shape is R:
            melds = rng.choice((0, 0, 1, 2))
        elif shape is KS:
            melds = rng.choice((0, 1))
        if n % 7 == 6:  # a plain random hand now and then
            c = _to_counts(rng.sample(wall, 13 - 3 * melds))
        else:
            kinds = _complete_hand(rng, shape, melds)
            kinds.remove(rng.choice(kinds))
            c = _to_counts(kinds)
        ctx = f"seed={SEED} n={n} melds={melds} hand={oracle_hand(c)}"
        union: set[int] = set()
        for s in shapes_for(melds):
            expected = oracle_waits(s, c)
            assert waits(c, melds=melds, shapes={s}) == expected, (ctx, s)
            union.update(expected)
        got = waits(c, melds=melds)
        assert got == sorted(union), ctx
        for k in got:
            c[k] += 1
            if c[k] <= 4:
                assert is_winning(c, melds=melds), (ctx, k)
            c[k] -= 1
        if n % 2:
            continue
        # a 14-tile random hand wins iff some discard leaves a wait on it
        h = _to_counts(rng.sample(wall, 14))
        won = False
        for k in range(34):
            if h[k]:
                h[k] -= 1
                won = won or any(k in oracle_waits(s, h) for s in shapes)
                h[k] += 1
        assert is_winning(h) is won, f"seed={SEED} n={n} hand14={oracle_hand(h)}"


def test_wild_waits_are_the_union_over_the_wild_assignments() -> None:
    """With one wild, the waits are the union of the waits of the hand with
    the wild replaced by each kind; and 13 tiles + a wild win exactly when
    the 13 tiles are tenpai."""
    rng = random.Random(SEED + 1)
    wall = [k for k in range(34) for _ in range(4)]
    for n in range(150):
        shape = list(Shape)[n % 5]
        kinds = _complete_hand(rng, shape, 0)
        kinds.remove(rng.choice(kinds))
        kinds.remove(rng.choice(kinds))  # one tile becomes the wild
        c = _to_counts(kinds)
        expected: set[int] = set()
        for a in range(34):
            c[a] += 1
            expected.update(oracle_waits(shape, c))
            c[a] -= 1
        ctx = f"seed={SEED + 1} n={n} hand={oracle_hand(c)} + 1 wild"
        assert waits(c, wilds=1, shapes={shape}) == sorted(expected), ctx
        h = _to_counts(rng.sample(wall, 13))
        tenpai = any(oracle_waits(s, h) for s in Shape)
        assert is_winning(h, wilds=1) is tenpai, oracle_hand(h)


def _waits_kind_by_kind(c, melds, shapes):
    """The answer waits() gave before its regular shape used the per-suit
    tables: every kind tested against every shape within reach."""
    from games.rules.shanten import deficiencies, kinds_below

    by_shape = deficiencies(c, melds, shapes, 2)
    ready = [s for s, d in by_shape.items() if d <= 1]
    return kinds_below(c, melds, ready, list(range(34)), 1) if ready else []


@pytest.mark.parametrize(
    "shapes",
    [frozenset(Shape), frozenset({Shape.REGULAR}), frozenset({R, P7})],
)
def test_waits_from_the_suit_tables_equal_the_kind_by_kind_answer(shapes):
    # issue 15, one waits function: waits() answers the regular shape from
    # games.rules.suits (the scorer's 独听 tables); the same kinds as before
    from tests.rules.oracle import random_hand

    rng = random.Random(15)
    checked = 0
    for i in range(1500):
        hand = random_hand(random.Random(7000 + i), i)
        c = [0] * 34
        for t in hand.concealed:
            c[t.index] += 1
        melds = len(hand.melds)
        if rng.random() < 0.5:  # a waiting hand: one tile off a complete one
            held = [k for k in range(34) if c[k]]
            c[rng.choice(held)] -= 1
            c[rng.randrange(34)] += 1
            if max(c) > 4:
                continue
        want = _waits_kind_by_kind(c, melds, shapes)
        assert waits(c, melds=melds, shapes=shapes) == want, (hand, c)
        checked += 1
    assert checked > 1000
