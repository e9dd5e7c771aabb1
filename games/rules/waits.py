"""Win test, waits (听牌) and unseen tiles, for every shape and with wilds.

Shapes and conventions are those of :mod:`games.rules.shanten`: declared
melds count as sets, a wild (seed 002 财神) stands for any kind, and a wait
is *formal* — a kind that completes the hand counts even when all four
copies are already in the hand; :func:`unseen_counts` tells the caller how
many are left to win on.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .errors import InvalidHandError
from .shanten import (
    ALL_SHAPES,
    Shape,
    check_hand,
    deficiencies,
    kinds_below,
    min_deficiency,
)
from .suits import _waits as suit_waits
from .tiles import NUM_KINDS


def is_winning(
    counts: Sequence[int],
    *,
    melds: int = 0,
    wilds: int = 0,
    shapes: Collection[Shape] = ALL_SHAPES,
) -> bool:
    """Return whether the concealed tiles complete an allowed shape.

    Args:
        counts: 34 counts of the concealed tiles, wild tiles excluded; with
            the wilds they total ``14 - 3*melds``.
        melds: declared melds (a kong counts as one set).
        wilds: wild tiles held, each standing for any kind (seed 002).
        shapes: the shapes the rule set allows.

    Raises:
        InvalidHandError: a bad count vector or a wrong tile total.
    """
    t = check_hand(counts, melds, wilds, (14,))
    return min_deficiency(t, melds, shapes, wilds + 1) <= wilds


def waits(
    counts: Sequence[int],
    *,
    melds: int = 0,
    wilds: int = 0,
    shapes: Collection[Shape] = ALL_SHAPES,
) -> list[int]:
    """Return the kinds (0–33) that complete a hand waiting to draw, sorted.

    ``counts`` (wilds excluded) and ``wilds`` total ``13 - 3*melds`` tiles.
    A kind counts even when all four copies are in the hand (a formal wait);
    combine with :func:`unseen_counts` for the live ones.  An empty list
    means the hand is not tenpai.

    Raises:
        InvalidHandError: a bad count vector or a wrong tile total.
    """
    t = check_hand(counts, melds, wilds, (13,))
    by_shape = deficiencies(t, melds, shapes, wilds + 2)
    ready = [s for s, d in by_shape.items() if d - wilds <= 1]
    if not ready:
        return []
    if wilds == 0 and Shape.REGULAR in ready:
        # the regular shape's waits from the per-suit tables the scorer uses
        # for 独听 (games.rules.suits): one answer for both, ~10× faster
        # than testing each kind
        regular = suit_waits(t)
        others = [s for s in ready if s is not Shape.REGULAR]
        if not others:
            return sorted(set(regular))
        extra = kinds_below(t, melds, others, list(range(NUM_KINDS)), 1)
        return sorted({*regular, *extra})
    return kinds_below(t, melds, ready, list(range(NUM_KINDS)), wilds + 1)


def near_kinds(t: Sequence[int]) -> list[int]:
    """Kinds that can join a set or the pair with the held tiles: held kinds
    and suited kinds within two ranks of a held tile of their suit, in index
    order (a regular hand without wilds waits only on these, and only these
    can lower its deficiency).

    ``t`` holds 34 counts from 0 to 255.  Computed on a byte per kind: the
    held kinds shifted one and two ranks either way inside their suit.
    """
    held = int.from_bytes(bytes(t).translate(_NONZERO), "little")
    near = held
    for shift, up, down in _SPREAD:
        near |= (held & up) << shift | (held & down) >> shift
    return [k for k, x in enumerate(near.to_bytes(NUM_KINDS, "little")) if x]


_NONZERO = bytes([0] + [1] * 255)


def _byte_mask(kinds: Sequence[int]) -> int:
    return int.from_bytes(bytes(1 if k in kinds else 0 for k in range(34)), "little")


# (bit shift, kinds that may move up that many ranks, kinds that may move down)
_SPREAD = tuple(
    (
        8 * d,
        _byte_mask([k for k in range(27) if k % 9 + d <= 8]),
        _byte_mask([k for k in range(27) if k % 9 - d >= 0]),
    )
    for d in (1, 2)
)


def unseen_counts(visible: Sequence[int]) -> list[int]:
    """Return ``4 - visible`` per kind, clamped at 0.

    ``visible`` counts, per kind (34 entries), every tile the seat can see:
    its own hand, all melds, all discards and any indicator tile.

    Raises:
        InvalidHandError: not 34 entries, or a negative count.
    """
    if len(visible) != NUM_KINDS:
        raise InvalidHandError(
            f"visible must have {NUM_KINDS} entries, got {len(visible)}"
        )
    out = []
    for k, v in enumerate(visible):
        if v < 0:
            raise InvalidHandError(f"visible count {v} for tile index {k} is < 0")
        out.append(4 - v if v < 4 else 0)
    return out


def waits_remaining(
    counts: Sequence[int],
    visible: Sequence[int],
    *,
    melds: int = 0,
    wilds: int = 0,
    shapes: Collection[Shape] = ALL_SHAPES,
) -> dict[int, int]:
    """Return ``{wait kind: copies still unseen}`` for a hand waiting to draw.

    Combines :func:`waits` and :func:`unseen_counts`; a formal wait shows 0.

    Raises:
        InvalidHandError: as :func:`waits` and :func:`unseen_counts`.
    """
    unseen = unseen_counts(visible)
    return {
        k: unseen[k] for k in waits(counts, melds=melds, wilds=wilds, shapes=shapes)
    }
