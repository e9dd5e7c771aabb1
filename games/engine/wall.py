"""The wall: a seeded shuffle with a SHA-256 commitment (provably fair).

The seed is a string from :func:`new_seed` (``secrets``, 128 bits).  At the
start the log shows only the :func:`commitment` (a SHA-256 of the seed); the
seed itself appears in the last event, and anyone can then rebuild the wall
and check every tile that was dealt and drawn.

The unshuffled wall (:func:`wall_tiles`) is the rule set's tiles in index
order (4 copies of each kind, ``1m``…``9m``, ``1p``…, ``1s``…, ``1z``…``7z``,
then one of each flower ``1f``…``8f``).  Tiles are drawn from the front
(index 0 upward); replacement draws after a kong or a flower (补花) and the
财神 indicator come from the back.

Two shuffles exist, and a hand's ``hand_started`` event says which one it
used (``"shuffle"``; absent in logs written before version 2 = version 1):

* **Version 2** (:data:`SHUFFLE_SHA256`, every new hand) — documented so that
  anyone can implement it (docs/shuffle.md, the site's /fair/ page, the
  browser's 验证 button, ``tools/verify_hand.py``):

  - commitment = hex SHA-256 of the UTF-8 bytes of ``"erren2-wall-v2:" + seed``;
  - a stream of 32-bit numbers: block *i* (i = 0, 1, 2 …) is the SHA-256 of
    ``"erren2-wall-v2:" + seed + ":" + str(i)``; the stream is block 0,
    block 1, … read 4 bytes at a time as big-endian unsigned integers;
  - ``below(n)``: take the next number *u* until *u* < 2³² − (2³² mod n),
    return *u* mod n (rejection, so every value is equally likely);
  - the shuffle is Fisher–Yates from the end: for *i* = len − 1 down to 1,
    swap positions *i* and ``below(i + 1)``;
  - the hand's other random choices continue the same stream:
    ``choice(list)`` = ``list[below(len(list))]`` (加番牌, 任务).

* **Version 1** (:data:`SHUFFLE_MT`, hands stored before) — Python's
  ``random.Random(seed).shuffle`` (Mersenne Twister), commitment SHA-256 of
  ``"erren2:" + seed``.  Kept so that those hands replay exactly.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

from ..rules.rulesets.base import RuleSet

T = TypeVar("T")

SHUFFLE_MT = 1
"""Version 1: ``random.Random(seed)`` (hands stored before version 2)."""

SHUFFLE_SHA256 = 2
"""Version 2: the documented SHA-256 stream and Fisher–Yates shuffle."""

CURRENT_SHUFFLE = SHUFFLE_SHA256
"""The shuffle of every new hand."""

COMMIT_PREFIXES = {SHUFFLE_MT: "erren2:", SHUFFLE_SHA256: "erren2-wall-v2:"}
"""Shuffle version → the text put before the seed (commitment and stream)."""

COMMIT_PREFIX = COMMIT_PREFIXES[SHUFFLE_MT]
"""The version 1 prefix (kept for callers of the old name)."""

_TWO32 = 1 << 32


def new_seed() -> str:
    """Return a fresh 128-bit seed as 32 hex digits, from :mod:`secrets`."""
    return secrets.token_hex(16)


def _check_version(version: int) -> str:
    try:
        return COMMIT_PREFIXES[version]
    except KeyError:
        raise ValueError(
            f"unknown shuffle version {version!r}; known: {sorted(COMMIT_PREFIXES)}"
        ) from None


def commitment(seed: str, version: int = CURRENT_SHUFFLE) -> str:
    """Return the hex SHA-256 published at the start: of ``prefix + seed``.

    ``prefix`` is ``"erren2-wall-v2:"`` (version 2) or ``"erren2:"``
    (version 1).

    Raises:
        ValueError: unknown ``version``.
    """
    prefix = _check_version(version)
    return hashlib.sha256((prefix + seed).encode("utf-8")).hexdigest()


class SeedStream(random.Random):
    """Version 2's random numbers: SHA-256 blocks of ``prefix + seed + ":" + i``.

    A :class:`random.Random` (the hand keeps one generator for all its random
    choices), but every method the engine uses is defined here by the
    documented rules (module docstring), not by Python's implementation:
    :meth:`below`, :meth:`shuffle`, :meth:`choice`, :meth:`randrange`,
    :meth:`random` and :meth:`getrandbits` read the same stream.
    """

    def __init__(self, seed: str = "") -> None:
        self._prefix = ""
        self._block = 0
        self._words: list[int] = []
        self._pos = 0
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start the stream of ``a`` (a string seed) from block 0."""
        self._prefix = COMMIT_PREFIXES[SHUFFLE_SHA256] + str(a) + ":"
        self._block = 0
        self._words = []
        self._pos = 0

    def getstate(self) -> tuple[Any, ...]:
        return (self._prefix, self._block, tuple(self._words), self._pos)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._prefix, self._block, words, self._pos = state
        self._words = list(words)

    def next_u32(self) -> int:
        """The stream's next 32-bit number (0 ≤ u < 2³²)."""
        if self._pos >= len(self._words):
            data = (self._prefix + str(self._block)).encode("utf-8")
            digest = hashlib.sha256(data).digest()
            self._words = [
                int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)
            ]
            self._block += 1
            self._pos = 0
        u = self._words[self._pos]
        self._pos += 1
        return u

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection (``1 ≤ n ≤ 2³²``).

        Raises:
            ValueError: ``n`` out of range.
        """
        if not 1 <= n <= _TWO32:
            raise ValueError(f"below(n) needs 1 <= n <= 2**32, got {n}")
        limit = _TWO32 - (_TWO32 % n)
        while True:
            u = self.next_u32()
            if u < limit:
                return u % n

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher–Yates from the end: swap ``x[i]`` and ``x[below(i + 1)]``."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        """``seq[below(len(seq))]``.

        Raises:
            IndexError: ``seq`` is empty.
        """
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``start + step * below(count)`` over the range's values."""
        values = range(start) if stop is None else range(start, stop, step)
        if not values:
            raise ValueError("empty range for randrange")
        return values[self.below(len(values))]

    def getrandbits(self, k: int) -> int:
        """``k`` bits from the stream's next ⌈k/32⌉ numbers (first = highest)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out = 0
        for _ in range((k + 31) // 32):
            out = (out << 32) | self.next_u32()
        return out >> ((32 - k % 32) % 32)

    def random(self) -> float:
        """53 bits of the stream as a float in ``[0, 1)``."""
        return self.getrandbits(53) / (1 << 53)


def wall_tiles(ruleset: RuleSet) -> list[int]:
    """Return the unshuffled wall: tile indices, 4 of each kind then the flowers."""
    out = [t.index for t in ruleset.kinds for _ in range(4)]
    out.extend(f.index for f in ruleset.flowers)
    return out


def build_wall(
    ruleset: RuleSet, seed: str, version: int = CURRENT_SHUFFLE
) -> tuple[list[int], random.Random]:
    """Shuffle the rule set's wall with the seed (shuffle ``version``).

    Returns the wall (tile indices, front first) and the generator, which
    the hand keeps using for its other random choices (加番牌, 任务), so
    one seed determines everything.  Version 2 gives a :class:`SeedStream`,
    version 1 ``random.Random(seed)``.

    Raises:
        ValueError: unknown ``version``.
    """
    _check_version(version)
    rng = random.Random(seed) if version == SHUFFLE_MT else SeedStream(seed)
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
