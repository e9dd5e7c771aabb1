"""Shanten numbers: golden hands per shape and level, wilds, input errors,
and a seeded property test against pymahjonggb (ChineseOfficialMahjongHelper).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations_with_replacement

import MahjongGB
import pytest

from games.rules.errors import InvalidHandError
from games.rules.shanten import (
    ALL_SHAPES,
    ORPHANS,
    Shape,
    _run_vector,
    deficiency_each,
    kinds_below,
    knitted_tiles,
    min_deficiency,
    shanten,
    shanten_by_shape,
    special_floor,
    useful_tiles,
)
from games.rules.tiles import parse_tiles, to_counts
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

INF = 99


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def oracle_hand(c: list[int]) -> tuple[str, ...]:
    return tuple(ORACLE_NAMES[k] for k in range(34) for _ in range(c[k]))


def oracle(shape: Shape, c: list[int]) -> tuple[int, list[int]]:
    """(shanten, sorted useful kinds) from the oracle for a 13−3m-tile hand."""
    value, useful = ORACLE_BY_SHAPE[shape](oracle_hand(c))
    return value, sorted(ORACLE_INDEX[u] for u in useful)


# -- golden hands ----------------------------------------------------------
# Every value below was also checked against pymahjonggb when written (for
# 14-tile hands: the best of its 13-tile numbers over all discards).

GOLDEN: list[tuple[str, dict[Shape, int]]] = [
    # regular, from complete down to five away
    ("123m456p789s111z22z", {R: -1, P7: 4, TO: 8, HK: 8, KS: 5}),
    ("123m456p789s111z2z", {R: 0, P7: 5, TO: 8, HK: 8, KS: 6}),
    ("123m456p789s11z24z", {R: 1, P7: 5, TO: 7, HK: 7, KS: 6}),
    ("123m456p78s11z246z", {R: 2, P7: 5, TO: 7, HK: 6, KS: 6}),
    ("123m456p79s13z246z", {R: 3, P7: 6, TO: 6, HK: 5, KS: 7}),
    ("123m46p79s135z246z", {R: 4, P7: 6, TO: 5, HK: 4, KS: 7}),
    ("13m46p79s1357z246z", {R: 5, P7: 6, TO: 4, HK: 4, KS: 8}),
    ("1m4m7m2p5p8p3s6s9s1z2z3z4z", {R: 8, P7: 6, TO: 7, HK: 0, KS: 2}),
    ("12m45m78m12p45p123z", {R: 4, P7: 6, TO: 8, HK: 5, KS: 6}),
    ("1234567m123456p", {R: 0, P7: 6, TO: 11, HK: 8, KS: 5}),
    ("1112223334445m", {R: 0, P7: 2, TO: 11, HK: 11, KS: 6}),
    # seven pairs; four of a kind is two pairs (MCR)
    ("11223344556677m", {R: -1, P7: -1, TO: 11, HK: 10, KS: 5}),
    ("1111m2233p4455s66z", {R: 2, P7: -1, TO: 10, HK: 9, KS: 5}),
    ("1122m3344p5566s7z", {R: 3, P7: 0, TO: 10, HK: 9, KS: 6}),
    ("1122m3344p556s67z", {R: 3, P7: 1, TO: 9, HK: 8, KS: 6}),
    ("1122m334p557s567z", {R: 4, P7: 2, TO: 8, HK: 7, KS: 6}),
    ("1111m2233p4455s6z", {R: 2, P7: 0, TO: 10, HK: 9, KS: 5}),
    ("1111m1111p1111s1z", {R: 2, P7: 0, TO: 8, HK: 11, KS: 7}),
    ("1111222233334p", {R: 0, P7: 0, TO: 11, HK: 11, KS: 6}),
    # thirteen orphans
    ("19m19p19s1234567z", {R: 8, P7: 6, TO: 0, HK: 4, KS: 9}),
    ("19m19p19s1234566z", {R: 7, P7: 5, TO: 0, HK: 5, KS: 8}),
    ("19m19p18s1234556z", {R: 7, P7: 5, TO: 1, HK: 4, KS: 7}),
    ("19m11p18s1234556z", {R: 6, P7: 4, TO: 2, HK: 4, KS: 7}),
    ("159m159p159s1234z", {R: 8, P7: 6, TO: 3, HK: 6, KS: 8}),
    # honours and knitted (全不靠; with all seven honours it is 七星不靠)
    ("147m258p369s1237z", {R: 8, P7: 6, TO: 7, HK: 0, KS: 2}),
    ("14m258p369s12345z", {R: 8, P7: 6, TO: 6, HK: 0, KS: 3}),
    ("14m258p369s12355z", {R: 7, P7: 5, TO: 6, HK: 1, KS: 2}),
    ("14m258p368s12355z", {R: 6, P7: 5, TO: 7, HK: 2, KS: 3}),
    ("147m25p36s1234567z", {R: 8, P7: 6, TO: 5, HK: -1, KS: 4}),  # 七星不靠
    ("14m258p369s123456z", {R: 8, P7: 6, TO: 5, HK: -1, KS: 3}),
    # knitted straight (组合龙) + set + pair
    ("147m258p36s789m11z", {R: 5, P7: 4, TO: 9, HK: 4, KS: 0}),
    ("147m258p369s789m1z", {R: 6, P7: 5, TO: 9, HK: 3, KS: 0}),
    ("147m258p36s789m12z", {R: 6, P7: 5, TO: 9, HK: 3, KS: 1}),
    ("147m25p36s789m123z", {R: 6, P7: 5, TO: 8, HK: 3, KS: 2}),
    ("14m28p36s789m1234z", {R: 6, P7: 6, TO: 7, HK: 2, KS: 3}),
    ("147m258p369s789m11z", {R: 5, P7: 4, TO: 8, HK: 3, KS: -1}),
]


@pytest.mark.parametrize(("text", "expected"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_shanten_by_shape(text: str, expected: dict[Shape, int]) -> None:
    c = counts(text)
    got = shanten_by_shape(c)
    assert {s: got[s] for s in expected} == expected
    assert shanten(c) == min(got.values())
    for s, v in expected.items():
        assert shanten(c, shapes={s}) == v


def test_thirteen_tile_goldens_agree_with_oracle() -> None:
    for text, expected in GOLDEN:
        c = counts(text)
        if sum(c) != 13:
            continue
        for s, v in expected.items():
            assert oracle(s, c)[0] == v, (text, s)


def test_melds_shrink_the_regular_target() -> None:
    # one meld declared: 10 concealed tiles make three sets + a pair
    assert shanten(counts("123m456p789s1z"), melds=1) == 0
    assert shanten(counts("123m456p78s12z"), melds=1, shapes={R}) == 1
    # four melds: a single tile waits for its pair; two tiles win or not
    assert shanten(counts("5z"), melds=4) == 0
    assert shanten(counts("55z"), melds=4) == -1
    assert shanten(counts("56z"), melds=4) == 0
    # only the regular and knitted-straight shapes exist with melds
    assert set(shanten_by_shape(counts("147m258p369s1z"), melds=1)) == {R, KS}
    assert shanten_by_shape(counts("147m258p369s1z"), melds=1)[KS] == 0
    assert set(shanten_by_shape(counts("123m456p1z"), melds=2)) == {R}


def test_no_allowed_shape_with_melds_is_an_error() -> None:
    with pytest.raises(InvalidHandError, match="no allowed shape"):
        shanten(counts("123m456p789s1z"), melds=1, shapes={P7, TO})


def test_fourteen_tiles_mean_shanten_after_best_discard() -> None:
    rng = random.Random(20261130)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(300):
        c = [0] * 34
        for k in rng.sample(wall, 14):
            c[k] += 1
        by_shape = shanten_by_shape(c)
        for s, v in by_shape.items():
            after = []
            for k in range(34):
                if c[k]:
                    c[k] -= 1
                    after.append(shanten(c, shapes={s}))
                    c[k] += 1
            best = min(after)
            # complete (-1) only when a discard leaves tenpai
            assert v == best or (v == -1 and best == 0), (c, s)


def reference_vector(c: Sequence[int], chows: bool) -> tuple[int, ...]:
    """Least tiles to add for j sets + q pairs (index j + 5q), by a position DP.

    An independent formulation of what ``_run_vector`` computes by its cover
    search: walk the ranks, placing chows/pungs/pairs on held tiles and
    paying for each missing tile; blocks on no held tile are added at the end
    (3 for a set, 2 for a pair).
    """
    n = len(c)
    # state: (tiles still needed at kind i, at kind i+1) by chows already
    # started -> best cost per (j, q); chows are counted in j when started.
    start = [INF] * 10
    start[0] = 0
    states: dict[tuple[int, int], list[int]] = {(0, 0): start}
    for i in range(n):
        ci = c[i]
        # more chows from one rank than tiles held there would be fresh
        max_x = max(ci, c[i + 1], c[i + 2]) if chows and i <= n - 3 else 0
        # pungs: a second pung of one kind only pays off with 4+ held
        max_p = (2 if ci >= 4 else 1) if ci else 0
        max_r = 1 if ci else 0
        new: dict[tuple[int, int], list[int]] = {}
        for (need_i, need_next), vec in states.items():
            for x in range(max_x + 1):
                key = (need_next + x, x)
                tgt = new.get(key)
                if tgt is None:
                    tgt = new[key] = [INF] * 10
                for p in range(max_p + 1):
                    add_j = x + p
                    if add_j > 4:
                        break
                    for r in range(max_r + 1):
                        need = need_i + x + 3 * p + 2 * r
                        miss = need - ci if need > ci else 0
                        for q in range(2 - r):
                            base = 5 * q
                            shift = add_j + 5 * r
                            for j in range(5 - add_j):
                                v = vec[base + j]
                                if v < INF:
                                    v += miss
                                    idx = base + j + shift
                                    if v < tgt[idx]:
                                        tgt[idx] = v
        states = new
    out = states.get((0, 0), [INF] * 10)
    for q in range(2):
        for j in range(5):
            idx = j + 5 * q
            v = out[idx]
            if j and out[idx - 1] + 3 < v:
                v = out[idx - 1] + 3
            if q and out[idx - 5] + 2 < v:
                v = out[idx - 5] + 2
            out[idx] = v
    return tuple(out)


def test_suit_vectors_match_a_position_dp() -> None:
    rng = random.Random(909)
    for _ in range(1500):
        c = [0] * 9
        for _ in range(rng.randint(1, 14)):
            k = rng.randrange(9)
            if c[k] < 4:
                c[k] += 1
        if rng.random() < 0.2:  # a formal fifth copy, as waits can make
            c[rng.randrange(9)] = 5
        lo = next(i for i, x in enumerate(c) if x)
        hi = max(i for i, x in enumerate(c) if x)
        assert _run_vector(tuple(c[lo : hi + 1])) == reference_vector(c, True), c
    for x in range(1, 6):
        assert _run_vector((x,)) == reference_vector((x,), False)


# -- wilds -------------------------------------------------------------------


def test_wild_completes_a_pair_or_set() -> None:
    # four sets + one wild (13 tiles): tenpai; a wild and any tile is a pair
    assert shanten(counts("123m456p789s111z"), wilds=1) == 0
    assert shanten(counts("123m456p789s111z"), wilds=2) == -1
    assert shanten(counts("123m456p789s11z"), wilds=2, shapes={R}) == 0
    assert shanten(counts("123m456p789s11z"), wilds=3, shapes={R}) == -1
    assert shanten(counts("123m456p789s1z"), wilds=4, shapes={R}) == -1
    assert shanten(counts("13m456p789s111z22z"), wilds=1) == -1  # wild = 2m
    assert shanten(counts("13m456p789s111z2z"), wilds=1, shapes={R}) == 0
    assert shanten(counts("13m46p789s111z25z"), wilds=1, shapes={R}) == 1


def test_wild_in_seven_pairs_pairs_a_single() -> None:
    assert shanten(counts("1122m3344p55s67z"), wilds=1, shapes={P7}) == 0
    assert shanten(counts("1122m3344p55s667z"), wilds=1, shapes={P7}) == -1
    # a wild can pair a fourth copy (four of a kind = two pairs)
    assert shanten(counts("1111m2233p4455s6z"), wilds=1, shapes={P7}) == -1
    # two wilds with no single left make a pair of their own
    assert shanten(counts("1122m3344p5566s"), wilds=2, shapes={P7}) == -1
    assert shanten(counts("1122m3344p5566s"), wilds=1, shapes={P7}) == 0


def test_wilds_in_thirteen_orphans_and_knitted_shapes() -> None:
    assert shanten(counts("19m19p19s12345z"), wilds=2, shapes={TO}) == 0
    assert shanten(counts("19m19p19s12345z"), wilds=3, shapes={TO}) == -1
    assert shanten(counts("19m19p19s1234567z"), wilds=1, shapes={TO}) == -1
    assert shanten(counts("147m258p369s123z"), wilds=2, shapes={HK}) == -1
    assert shanten(counts("147m258p369s12z"), wilds=2, shapes={HK}) == 0
    assert shanten(counts("147m258p36s789m1z"), wilds=2, shapes={KS}) == -1


def test_wild_shanten_is_the_minimum_over_assignments() -> None:
    """w wilds must equal the best of all ways to turn them into tiles.

    Assignments may give a kind a fifth copy (unbounded supply, the formal
    convention), so the brute force goes through the oracle, which accepts
    that, rather than through our own validated entry point.
    """
    rng = random.Random(2002)
    wall = [k for k in range(34) for _ in range(4)]
    for trial in range(120):
        w = 1 if trial % 3 else 2
        c = [0] * 34
        for k in rng.sample(wall, 13 - w):
            c[k] += 1
        for s in ALL_SHAPES:
            best = 99
            for extra in combinations_with_replacement(range(34), w):
                full = c[:]
                for k in extra:
                    full[k] += 1
                best = min(best, oracle(s, full)[0])
            assert shanten(c, wilds=w, shapes={s}) == best, (trial, c, w, s)


# -- useful tiles --------------------------------------------------------------


def test_useful_tiles_of_a_one_away_hand() -> None:
    # three sets, 11z, singles 2z 4z: pairing a single leaves 11z + pair
    # waiting; a third 1z makes a set and leaves a single wait
    c = counts("123m456p789s11z24z")
    assert useful_tiles(c, shapes={R}) == [27, 28, 30]
    # at tenpai the useful tiles are the waits (formal waits included)
    assert useful_tiles(counts("1112345678999m")) == list(range(9))


def test_useful_tiles_skip_kinds_held_four_times_before_tenpai() -> None:
    # a fifth 1m would formally lower the shanten (111m + 11m) but cannot
    # be drawn, so it is not useful
    c = counts("1111m579p159s123z")
    assert shanten(c, shapes={R}) == 5
    useful = useful_tiles(c, shapes={R})
    assert 0 not in useful
    assert useful == [1, 2, *range(11, 30)]


def test_useful_tiles_need_a_hand_waiting_to_draw() -> None:
    with pytest.raises(InvalidHandError, match="expected 13"):
        useful_tiles(counts("123m456p789s111z22z"))


# -- input errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "kwargs", "message"),
    [
        ([0] * 33, {}, "34 entries"),
        ([5] + [1] * 8 + [0] * 25, {}, "count 5 for tile index 0"),
        ([-1] + [2] * 7 + [0] * 26, {}, "count -1 for tile index 0"),
        ([1] * 12 + [0] * 22, {}, "12 concealed tiles"),
        ([1] * 13 + [0] * 21, {"melds": 1}, "with 1 meld"),
        ([1] * 13 + [0] * 21, {"melds": 5}, "melds must be 0–4"),
        ([1] * 13 + [0] * 21, {"wilds": -1}, "wilds must be >= 0"),
        ([1] * 13 + [0] * 21, {"wilds": 2}, r"15 concealed tiles \(13 \+ 2 wild\)"),
    ],
)
def test_bad_input_raises_invalid_hand_error(
    vector: list[int], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(InvalidHandError, match=message):
        shanten(vector, **kwargs)
    with pytest.raises(InvalidHandError, match=message):
        shanten_by_shape(vector, **kwargs)


@pytest.mark.parametrize(
    "vector",
    [[1.5] + [1] * 12 + [0] * 21, [None] + [1] * 13 + [0] * 20],
)
def test_counts_that_are_not_small_integers_are_refused(vector: list[object]) -> None:
    with pytest.raises(InvalidHandError, match="for tile index 0 is outside 0–4"):
        shanten(vector)  # type: ignore[arg-type]


# -- kinds_below: min_deficiency one kind at a time --------------------------------


@pytest.mark.parametrize("melds", [0, 1, 2])
def test_kinds_below_agrees_with_min_deficiency_per_kind(melds: int) -> None:
    """The incremental question (one suit changes per kind) gives exactly the
    kinds whose one-tile addition :func:`min_deficiency` puts below the cutoff,
    for every shape set and several cutoffs, on seeded random hands."""
    rng = random.Random(SEED + melds)
    wall = [k for k in range(34) for _ in range(4)]
    shape_sets = (
        ALL_SHAPES,
        frozenset({Shape.REGULAR}),
        frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS}),
        frozenset({Shape.REGULAR, Shape.KNITTED_STRAIGHT}),
        [Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS],  # a list, as waits() passes
    )
    checked = 0
    for _ in range(300):
        c = [0] * 34
        for k in rng.sample(wall, 13 - 3 * melds):
            c[k] += 1
        for shapes in shape_sets:
            base = min_deficiency(c, melds, shapes)
            for cutoff in {base, base + 1, 2}:
                want = []
                for k in range(34):
                    c[k] += 1
                    if min_deficiency(c, melds, shapes, cutoff) < cutoff:
                        want.append(k)
                    c[k] -= 1
                assert kinds_below(c, melds, shapes, range(34), cutoff) == want
                checked += 1
    assert checked >= 300 * len(shape_sets)


@pytest.mark.parametrize("melds", [0, 1])
def test_deficiency_each_removing_a_tile_agrees_with_min_deficiency(
    melds: int,
) -> None:
    """One tile fewer of each held kind (the discards of a 14-tile hand)."""
    rng = random.Random(SEED - melds)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(300):
        c = [0] * 34
        for k in rng.sample(wall, 14 - 3 * melds):
            c[k] += 1
        held = [k for k in range(34) if c[k]]
        for shapes in (ALL_SHAPES, frozenset({Shape.REGULAR})):
            want = []
            for k in held:
                c[k] -= 1
                want.append(min_deficiency(c, melds, shapes))
                c[k] += 1
            assert deficiency_each(c, melds, shapes, held, -1) == want


@pytest.mark.parametrize("melds", [0, 1])
def test_deficiency_each_on_pair_and_knitted_rich_hands(melds: int) -> None:
    """Hands drawn from a few kinds (many pairs: seven pairs complete or
    close; orphans; knitted tiles), one tile more and one fewer of each kind,
    against min_deficiency (deficiency_each sums the special shapes'
    counters over the unchanged suits)."""
    rng = random.Random(SEED + 11 + melds)
    pools = (
        list(ORPHANS),
        [k for perm in ((0, 1, 2), (2, 0, 1)) for k in knitted_tiles(perm)],
        list(range(27, 34)) + [0, 4, 8, 10],
    )
    shape_sets = (
        ALL_SHAPES,
        frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS}),
        frozenset({Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS}),
        frozenset({Shape.HONORS_AND_KNITTED, Shape.KNITTED_STRAIGHT}),
    )
    for _ in range(200):
        pool = rng.choice(pools) + rng.sample(range(34), rng.randint(0, 6))
        wall = [k for k in set(pool) for _ in range(4)]
        c = [0] * 34
        for k in rng.sample(wall, 14 - 3 * melds):
            c[k] += 1
        for shapes in shape_sets:
            for delta, kinds in (
                (-1, [k for k in range(34) if c[k]]),
                (1, [k for k in range(34) if c[k] < 4]),
            ):
                out = next(k for k in range(34) if c[k])
                if delta == 1:  # a waiting hand: take one tile out first
                    c[out] -= 1
                want = []
                for k in kinds:
                    c[k] += delta
                    want.append(min_deficiency(c, melds, shapes))
                    c[k] -= delta
                assert deficiency_each(c, melds, shapes, kinds, delta) == want
                if delta == 1:
                    c[out] += 1


# -- property test against the oracle --------------------------------------------

SEED = 3_1415


def _random_hand(
    rng: random.Random, tiles: int, melds: int
) -> tuple[list[int], tuple[tuple[str, str, int], ...]]:
    """Random concealed counts plus oracle packs; at most 4 copies overall."""
    pool = [k for k in range(34) for _ in range(4)]
    rng.shuffle(pool)
    left = [4] * 34
    packs: list[tuple[str, str, int]] = []
    while len(packs) < melds:
        k = rng.randrange(34)
        if k < 27 and k % 9 < 7 and rng.random() < 0.5:
            if all(left[k + i] for i in range(3)):
                for i in range(3):
                    left[k + i] -= 1
                packs.append(("CHI", ORACLE_NAMES[k + 1], 1))
        elif left[k] >= 3:
            left[k] -= 3
            packs.append(("PENG", ORACLE_NAMES[k], 1))
    c = [0] * 34
    placed = 0
    for k in pool:
        if placed == tiles:
            break
        if c[k] < left[k]:
            c[k] += 1
            placed += 1
    return c, tuple(packs)


def test_random_hands_agree_with_oracle_by_shape() -> None:
    """≥ 5,000 seeded random hands: shanten per shape, overall, useful tiles.

    Convention differences (documented, not bugs):
    * The oracle refuses 14−3m-tile hands; there we compare with the best of
      its 13-tile numbers over all discards (our 14-tile convention).
    * Before tenpai the oracle's knitted-straight useful list may include a
      kind held four times (when the rest of the hand is tenpai); we leave
      out kinds that cannot be drawn, so such kinds are dropped from the
      oracle's list before comparing.
    """
    rng = random.Random(SEED)
    for n in range(5200):
        melds = rng.choice((0, 0, 0, 1, 2))
        fourteen = n % 4 == 3
        size = (14 if fourteen else 13) - 3 * melds
        c, packs = _random_hand(rng, size, melds)
        ctx = f"seed={SEED} n={n} melds={melds} hand={oracle_hand(c)}"
        ours = shanten_by_shape(c, melds=melds)
        if not fourteen:
            assert shanten(c, melds=melds) == MahjongGB.MahjongShanten(
                packs, oracle_hand(c)
            ), ctx
        for s, v in ours.items():
            if fourteen:
                best = 99
                for k in range(34):
                    if c[k]:
                        c[k] -= 1
                        best = min(best, oracle(s, c)[0])
                        c[k] += 1
                if best == 0:  # complete when some discard leaves a wait on it
                    for k in range(34):
                        if c[k]:
                            c[k] -= 1
                            value, useful = oracle(s, c)
                            c[k] += 1
                            if value == 0 and k in useful:
                                best = -1
                                break
                assert v == best, (ctx, s)
            else:
                value, useful = oracle(s, c)
                assert v == value, (ctx, s)
                if n % 5 == 0:
                    if v > 0:
                        useful = [k for k in useful if c[k] < 4]
                    assert useful_tiles(c, melds=melds, shapes={s}) == useful, (
                        ctx,
                        s,
                    )


# -- special_floor -------------------------------------------------------------


def test_special_floor_of_known_hands() -> None:
    six_pairs = to_counts(parse_tiles("1122m3344p5566s17z"))
    # 七对 one pair short; the other special shapes are further
    assert special_floor(six_pairs, 0, ALL_SHAPES) == 1
    assert special_floor(six_pairs, 0, {Shape.THIRTEEN_ORPHANS}) == 10
    # no special shape allowed or possible with the melds
    assert special_floor(six_pairs, 0, {Shape.REGULAR}) == 99
    assert special_floor(six_pairs, 2, ALL_SHAPES) == 99
    orphans = to_counts(parse_tiles("19m19p19s1234567z5m"))
    assert special_floor(orphans, 0, ALL_SHAPES) == 1
    assert special_floor(orphans, 0, {Shape.SEVEN_PAIRS}) == 7
    knitted = to_counts(parse_tiles("147m258p369s12345z"))
    assert special_floor(knitted, 0, ALL_SHAPES) == 0
    # with a meld only 组合龙 is left: nine knitted tiles held
    assert special_floor(knitted, 1, ALL_SHAPES) == 0


@pytest.mark.parametrize("seed", range(3))
def test_special_floor_bounds_the_hand_and_every_discard(seed: int) -> None:
    rng = random.Random(seed)
    special = [s for s in Shape if s is not Shape.REGULAR]
    shape_sets = [ALL_SHAPES, frozenset(special[:1]), frozenset(special[1:])]
    wall = [k for k in range(34) for _ in range(4)]
    tight = 0
    for _ in range(400):
        melds = rng.choice((0, 0, 0, 1, 2))
        t = [0] * 34
        for k in rng.sample(wall, 14 - 3 * melds):
            t[k] += 1
        for shapes in shape_sets:
            floor = special_floor(t, melds, shapes)
            rest = [s for s in shapes if s is not Shape.REGULAR]
            least = min_deficiency(t, melds, rest)
            assert floor <= least
            for k in range(34):
                if t[k]:
                    t[k] -= 1
                    assert floor <= min_deficiency(t, melds, rest)
                    t[k] += 1
            tight += floor == least < 99
    assert tight > 100  # a bound that is often the hand's own least
