"""``score_counts`` (standing tiles as counts) against ``score_hand`` (as tiles).

The engine and the bots score hands they hold as 34 counts; issue 15 gave
them :func:`games.rules.api.score_counts`, which leaves out the tile
checks a wall of every kind makes moot and scores a 财神 hand from its
counts.  It must give what :func:`games.rules.api.score_hand` gives for the
same hand: the same result, or the same error.  Hands here are random
waiting hands completed by each of their waits (wins, hands below the
minimum, formal waits on a fifth copy), with and without claimed melds,
a 财神 kind and a self-draw.
"""

from __future__ import annotations

import random

import pytest

from games.rules import rulesets
from games.rules.api import score_counts, score_hand
from games.rules.errors import InvalidHandError
from games.rules.melds import Meld, MeldKind
from games.rules.situation import EAST, WEST, WinSituation
from games.rules.tiles import ALL_TILES, NUM_KINDS, Tile
from games.rules.waits import waits
from games.rules.wild_scoring import split_counts


def _hands(
    rng: random.Random, wild: int | None, n: int
) -> list[tuple[list[int], list[Meld]]]:
    """``n`` hands of 13 - 3m tiles (counts, melds): a complete hand of
    random sets less one tile, some of its tiles then made the 财神 kind."""
    out: list[tuple[list[int], list[Meld]]] = []
    while len(out) < n:
        c = [0] * NUM_KINDS
        melds: list[Meld] = []
        n_melds = rng.choice((0, 0, 1, 2))
        sets = []
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.randrange(NUM_KINDS)
                sets.append([k] * 3)
            else:
                k = rng.randrange(3) * 9 + rng.randrange(7)
                sets.append([k, k + 1, k + 2])
        pair = rng.randrange(NUM_KINDS)
        for i, ks in enumerate(sets):
            if i < n_melds and ks[0] == ks[1] and ks[0] != wild:
                t = ALL_TILES[ks[0]]
                melds.append(Meld(MeldKind.PUNG, (t, t, t), t))
                c[ks[0]] += 3  # counted for the check below, taken out after
                continue
            for k in ks:
                c[k] += 1
        c[pair] += 2
        if max(c) > 4 or (wild is not None and c[wild] > 2):
            continue
        for m in melds:
            c[m.first.index] -= 3
        held = [k for k in range(NUM_KINDS) for _ in range(c[k])]
        c[rng.choice(held)] -= 1
        if wild is not None:
            for _ in range(rng.choice((0, 1, 1, 2))):
                held = [k for k in range(NUM_KINDS) if c[k] and k != wild]
                k = rng.choice(held)
                if c[wild] < 4:
                    c[k] -= 1
                    c[wild] += 1
        out.append((c, melds))
    return out


def _outcome(f, *args):  # type: ignore[no-untyped-def]
    try:
        r = f(*args)
    except InvalidHandError as exc:
        return ("error", str(exc))
    r = getattr(r, "result", r)
    return (r.win, r.total, r.fans, r.not_counted, r.minimum_total, r.shape, r.code)


@pytest.mark.parametrize("name", ["liangren", "youxi", "mcr", "erren"])
def test_score_counts_equals_score_hand(name: str) -> None:
    rs = rulesets.get(name)
    rng = random.Random(15)
    kinds = sorted(rs.kind_indices)
    compared = wins = 0
    for _ in range(150):
        wild = rng.choice(kinds) if rs.name == "liangren" else None
        for c, melds in _hands(rng, wild, 1):
            faces, wilds = split_counts(c, wild)
            tried = waits(faces, melds=len(melds), wilds=wilds) or kinds[:3]
            for k in tried:
                if k not in rs.kind_indices:
                    continue
                for drawn in (False, True):
                    sit = WinSituation(
                        win_tile=Tile(k),
                        self_drawn=drawn,
                        seat_wind=rng.choice((EAST, WEST)),
                        round_wind=EAST,
                        wild=None if wild is None else Tile(wild),
                    )
                    tiles = [ALL_TILES[i] for i, n in enumerate(c) for _ in range(n)]
                    want = _outcome(score_hand, tiles, melds, sit, rs)
                    got = _outcome(score_counts, c, tuple(melds), sit, rs)
                    assert got == want, (name, c, melds, sit)
                    compared += 1
                    wins += want[0] is True
    assert compared > 200 and wins > 5


def _flowered(name: str, flowers: tuple[Tile, ...], seed: int) -> tuple[int, int]:
    """Compare :func:`score_counts` with :func:`score_hand` on random hands
    won with ``flowers``; return (hands compared, wins)."""
    rs = rulesets.get(name)
    rng = random.Random(seed)
    compared = wins = 0
    for c, melds in _hands(rng, None, 120):
        for k in waits(c, melds=len(melds)) or [0, 1]:
            for drawn in (False, True):
                sit = WinSituation(
                    win_tile=Tile(k),
                    self_drawn=drawn,
                    seat_wind=rng.choice((EAST, WEST)),
                    round_wind=EAST,
                    flowers=flowers,
                )
                tiles = [ALL_TILES[i] for i, n in enumerate(c) for _ in range(n)]
                want = _outcome(score_hand, tiles, melds, sit, rs)
                got = _outcome(score_counts, c, tuple(melds), sit, rs)
                assert got == want, (name, c, melds, sit)
                compared += 1
                wins += want[0] is True
    return compared, wins


def test_score_counts_with_flowers_equals_score_hand() -> None:
    """MCR wins with flowers (seed 003 花牌), the same as by tiles: the
    flower fan counted, the minimum without it."""
    flowers = (Tile.parse("1f"), Tile.parse("6f"), Tile.parse("8f"))
    compared, wins = _flowered("mcr", flowers, 3)
    assert compared > 200 and wins > 5


@pytest.mark.parametrize(
    ("name", "flowers", "error"),
    [
        ("liangren", ("2f",), "flowers: tile 2f is not in rule set 'liangren'"),
        ("mcr", ("1f", "5m"), "flowers must be 1f–8f"),
        ("mcr", ("3f", "3f"), "each flower exists once"),
    ],
)
def test_score_counts_refuses_flowers_as_score_hand(
    name: str, flowers: tuple[str, ...], error: str
) -> None:
    """A flower outside the rule set's wall, a kind listed as a flower and
    a flower listed twice: the same error by counts as by tiles."""
    rs = rulesets.get(name)
    c = [0] * NUM_KINDS
    for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12):
        c[k] += 1
    sit = WinSituation(
        win_tile=Tile(12),
        self_drawn=False,
        seat_wind=EAST,
        round_wind=EAST,
        flowers=tuple(Tile.parse(f) for f in flowers),
    )
    tiles = [ALL_TILES[i] for i, n in enumerate(c) for _ in range(n)]
    want = _outcome(score_hand, tiles, [], sit, rs)
    assert want[0] == "error" and error in want[1]
    assert _outcome(score_counts, c, (), sit, rs) == want


def test_score_counts_with_flowers_leaves_out_the_tile_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An MCR hand with flowers of the wall is scored from its counts
    without :func:`games.rules.api.check_tiles` (the by-tiles path)."""
    from games.rules import api

    def refuse(*args: object) -> None:
        raise AssertionError("check_tiles called")

    monkeypatch.setattr(api, "check_tiles", refuse)
    c = [0] * NUM_KINDS
    for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 33):
        c[k] += 1
    sit = WinSituation(
        win_tile=Tile(33),
        self_drawn=True,
        seat_wind=EAST,
        round_wind=EAST,
        flowers=(Tile.parse("2f"), Tile.parse("5f")),
    )
    result = score_counts(c, (), sit, rulesets.get("mcr"))
    assert result.fan_ids().get("FLOWER_TILES") == 2
    assert result.minimum_total == result.total - 2


@pytest.mark.parametrize("name", ["mcr", "youxi", "liangren"])
def test_score_from_counts_equals_score_of_the_tiles(name: str) -> None:
    """:func:`games.rules.scoring.score_from_counts` against
    :func:`~games.rules.scoring.score` of the same tiles: random waiting
    hands completed by each wait and by a non-wait, and input both refuse
    (a fifth copy, a wrong count, a negative count, a flower won on, 和绝张
    with a copy held): the same result or the same error."""
    from games.rules.scoring import score, score_from_counts
    from games.rules.tiles import from_counts

    rs = rulesets.get(name)
    rng = random.Random(7)
    compared = wins = errors = 0
    for c, melds in _hands(rng, None, 150):
        variants = [list(c)]
        odd = list(c)
        odd[rng.randrange(NUM_KINDS)] += rng.choice((-1, 1, 4))
        variants.append(odd)
        for counts in variants:
            for k in [*waits(c, melds=len(melds)), 0]:
                for win, last in ((Tile(k), False), (Tile(k), True), (Tile(35), False)):
                    sit = WinSituation(
                        win_tile=win,
                        self_drawn=rng.random() < 0.5,
                        seat_wind=EAST,
                        round_wind=WEST,
                        last_tile=last,
                    )
                    tiles = from_counts(counts)
                    want = _outcome(score, tiles, tuple(melds), sit, rs)
                    got = _outcome(score_from_counts, counts, tuple(melds), sit, rs)
                    assert got == want, (name, counts, melds, sit)
                    compared += 1
                    wins += want[0] is True
                    errors += want[0] == "error"
    assert compared > 500 and wins > 5 and errors > 50
