"""The wall: a seeded shuffle with a SHA-256 commitment (provably fair).

The seed is a string from :func:`new_seed` (``secrets``, 128 bits).  The wall
is ``random.Random(seed)``'s shuffle of the rule set's tiles in index order
(4 copies of each kind, then one of each flower), so anyone who learns the
seed after the hand can rebuild it.  At the start the log shows only
:func:`commitment` — ``sha256("erren2:" + seed)`` in hex — and the seed
itself appears in the last event.

Tiles are drawn from the front (index 0 upward); replacement draws after a
kong or a flower (补花) and the 财神 indicator come from the back.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Sequence

from ..rules.rulesets.base import RuleSet

COMMIT_PREFIX = "erren2:"


def new_seed() -> str:
    """Return a fresh 128-bit seed as 32 hex digits, from :mod:`secrets`."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """Return the hex SHA-256 of ``"erren2:" + seed`` (published at the start)."""
    return hashlib.sha256((COMMIT_PREFIX + seed).encode("utf-8")).hexdigest()


def wall_tiles(ruleset: RuleSet) -> list[int]:
    """Return the unshuffled wall: tile indices, 4 of each kind then the flowers."""
    out = [t.index for t in ruleset.kinds for _ in range(4)]
    out.extend(f.index for f in ruleset.flowers)
    return out


def build_wall(ruleset: RuleSet, seed: str) -> tuple[list[int], random.Random]:
    """Shuffle the rule set's wall with ``random.Random(seed)``.

    Returns the wall (tile indices, front first) and the generator, which
    the hand keeps using for its other random choices (加番牌, 任务), so
    one seed determines everything.
    """
    rng = random.Random(seed)
    tiles = wall_tiles(ruleset)
    rng.shuffle(tiles)
    return tiles, rng


def stacked_wall(
    ruleset: RuleSet,
    *,
    dealer: Sequence[int],
    other: Sequence[int],
    draws: Sequence[int] = (),
    tail: Sequence[int] = (),
) -> list[int]:
    """Return a wall that deals the given tiles (for tests and puzzles).

    ``dealer`` (14 tiles) and ``other`` (13) are laid in the deal order of
    :class:`~games.engine.hand.Hand` (blocks of four, dealer first, then one
    each and the dealer's 14th); ``draws`` follow from the front; ``tail``
    are the replacement draws from the back, first one last in the wall.
    The remaining tiles fill the middle in index order.

    Raises:
        ValueError: wrong hand sizes, or tiles the rule set's wall lacks.
    """
    if len(dealer) != 14 or len(other) != 13:
        raise ValueError("the dealer gets 14 tiles and the other seat 13")
    front: list[int] = []
    d, o = list(dealer), list(other)
    for _ in range(3):
        front += d[:4] + o[:4]
        d, o = d[4:], o[4:]
    front += [d[0], o[0], d[1]]
    front += list(draws)
    back = list(reversed(tail))
    rest = Counter(wall_tiles(ruleset))
    rest.subtract(front + back)
    if any(n < 0 for n in rest.values()):
        raise ValueError(
            f"tiles not in the wall: {[k for k, n in rest.items() if n < 0]}"
        )
    middle = sorted(rest.elements())
    return front + middle + back
