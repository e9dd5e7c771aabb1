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
