"""The documented shuffle (version 2) and the old one (version 1) side by side."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from games.engine.actions import PreDeal
from games.engine.hand import Hand
from games.engine.wall import (
    CURRENT_SHUFFLE,
    SHUFFLE_MT,
    SHUFFLE_SHA256,
    SeedStream,
    build_wall,
    commitment,
    wall_tiles,
)
from games.rules.rulesets import NAMES, get
from tests.engine.helpers import available_rulesets


def _u32s(seed: str, block: int) -> list[int]:
    digest = hashlib.sha256(f"erren2-wall-v2:{seed}:{block}".encode()).digest()
    return [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]


class Scripted(SeedStream):
    """A stream that returns the given numbers (to check the arithmetic)."""

    def __init__(self, numbers: list[int]) -> None:
        super().__init__("x")
        self.numbers = list(numbers)

    def next_u32(self) -> int:
        return self.numbers.pop(0)


def test_the_stream_is_sha256_of_prefix_seed_and_block_big_endian():
    s = SeedStream("abc")
    got = [s.next_u32() for _ in range(17)]
    assert got == _u32s("abc", 0) + _u32s("abc", 1) + _u32s("abc", 2)[:1]


def test_below_rejects_the_top_of_the_range_so_every_value_is_equally_likely():
    # 2**32 = 1431655765 * 3 + 1: the last value (2**32 - 1) is rejected for n = 3
    s = Scripted([2**32 - 1, 2**32 - 2, 7])
    assert s.below(3) == (2**32 - 2) % 3
    assert s.numbers == [7]
    assert Scripted([5]).below(1) == 0
    # a power of two never rejects
    assert Scripted([2**32 - 1]).below(8) == 7
    with pytest.raises(ValueError):
        SeedStream("a").below(0)


def test_shuffle_is_fisher_yates_from_the_end():
    # 4 items: j = below(4), below(3), below(2) from 10, 4, 7
    s = Scripted([10, 4, 7])
    items = ["a", "b", "c", "d"]
    s.shuffle(items)
    # i=3: j=10%4=2 -> a b d c; i=2: j=4%3=1 -> a d b c; i=1: j=7%2=1 -> same
    assert items == ["a", "d", "b", "c"]
    assert Scripted([5]).choice(["x", "y", "z"]) == "z"


def test_choices_are_uniform_enough():
    s = SeedStream("uniform")
    counts = Counter(s.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < n < 1150 for n in counts.values())
    assert 0 <= s.random() < 1
    assert 0 <= s.randrange(10) < 10
    assert s.getrandbits(40) < 2**40


@pytest.mark.parametrize("name", NAMES)
def test_version_2_wall_is_a_permutation_of_the_rule_sets_tiles(name):
    rs = get(name)
    wall, rng = build_wall(rs, "perm")
    assert sorted(wall) == sorted(wall_tiles(rs))
    assert wall != wall_tiles(rs)
    assert isinstance(rng, SeedStream)
    again, _ = build_wall(rs, "perm", SHUFFLE_SHA256)
    assert again == wall
    expected = wall_tiles(rs)
    SeedStream("perm").shuffle(expected)
    assert wall == expected


def test_version_1_is_pythons_random_shuffle_for_stored_hands():
    rs = get("erren")
    wall, rng = build_wall(rs, "old", SHUFFLE_MT)
    expected = wall_tiles(rs)
    random.Random("old").shuffle(expected)
    assert wall == expected and type(rng) is random.Random
    with pytest.raises(ValueError):
        build_wall(rs, "old", 3)
    with pytest.raises(ValueError):
        commitment("old", 3)


@pytest.mark.parametrize("name", available_rulesets())
def test_new_hands_log_version_2_and_old_logs_replay_with_version_1(name):
    new = Hand.new(name, now=0.0, seed="fair")
    assert CURRENT_SHUFFLE == SHUFFLE_SHA256
    assert new.events[0].payload["shuffle"] == 2
    assert new.state.commitment == commitment("fair", 2)
    assert Hand.replay("fair", new.events).events == new.events
    # a hand stored before version 2: no "shuffle" key, the old commitment
    old = Hand.new(name, now=0.0, seed="fair", shuffle=SHUFFLE_MT)
    assert "shuffle" not in old.events[0].payload
    assert (
        old.events[0].payload["commitment"]
        == hashlib.sha256(b"erren2:fair").hexdigest()
    )
    assert old.state.wall == build_wall(get(name), "fair", SHUFFLE_MT)[0]
    assert Hand.replay("fair", old.events).events == old.events
    assert old.state.wall != new.state.wall


def test_the_seed_decides_the_bonus_tile_and_the_task_too():
    jj = [Hand.new("jj", now=0.0, seed=f"b{i}").state.bonus_tile for i in range(40)]
    assert len(set(jj)) > 5
    assert jj == [
        Hand.new("jj", now=0.0, seed=f"b{i}").state.bonus_tile for i in range(40)
    ]
    kinds = set()
    for i in range(30):
        hand = Hand.new("erren", now=0.0, seed=f"t{i}")
        for seat in (0, 1):  # 开始加倍 comes before the deal
            hand.apply(PreDeal(seat, hand.seq), now=1.0)
        assert hand.state.task is not None
        kinds.add(hand.state.task.kind)
    assert len(kinds) >= 3
