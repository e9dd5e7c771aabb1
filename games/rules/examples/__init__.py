"""An example hand for every fan of every rule set (issue 12, rules site).

Data only (standard library): each :class:`Example` is a hand in the
calculator's notation (:mod:`games.rules.hand_notation`, winning tile last)
and the fields of its :class:`~games.rules.situation.WinSituation` that are
not the default (tiles in notation: ``seat_wind="3z"``, ``bonus_tiles="5s"``).
``tests/rules/test_fan_examples.py`` scores every example with the engine
and asserts it has its fan, so the rules site can never show a wrong example.

Lookup (:func:`example`): the rule set's own table (``BY_RULESET``) first,
then the shared table (:data:`common.COMMON`); a rule set without 万 reads
the shared hands in 条 (``jj``: 1-9 条 and honours), see :func:`translate`.
A fan that can never count in a rule set (``DEAD``) still has an example of
its pattern; the test asserts the fan is then listed as not counted.
"""

from __future__ import annotations

from .base import DEAD, Example, parsed, translate
from .common import COMMON
from .rulesets import BY_RULESET

_NO_CHARACTERS = frozenset({"jj"})
"""Rule sets whose wall has no 万 (seed 001: 1-9 条 and honours)."""


def example(ruleset: str, fan_id: str) -> Example | None:
    """Return the example of ``fan_id`` in ``ruleset``, or None if there is none."""
    own = BY_RULESET.get(ruleset, {}).get(fan_id)
    if own is not None:
        return own
    shared = COMMON.get(fan_id)
    if shared is None:
        return None
    if ruleset in _NO_CHARACTERS:
        return translate(shared, "m", "s")
    return shared


def is_dead(ruleset: str, fan_id: str) -> bool:
    """Whether ``fan_id`` can never count in ``ruleset`` (RULES.md: e.g. 无字
    under a one-suit wall, always dropped by 清一色)."""
    return fan_id in DEAD.get(ruleset, frozenset())


__all__ = ["DEAD", "Example", "example", "is_dead", "parsed", "translate"]
