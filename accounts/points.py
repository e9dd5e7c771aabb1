"""实力积分 per hand: the one rule, applied by the settlement and the nightly job.

The rule (seed 002 计分规则 "积分=总番数X倍数"):

* the winner of a hand gains 总番数 × 倍数 (the settlement's ``fan`` and
  ``multiplier``: 明牌 ×4, 加倍 ×2, 听牌胡 ×2 where the rule set has them);
* the loser neither gains nor loses points (seed 002 names no loss; 游戏币
  carry the loss);
* 流局 and an annulled hand give nobody anything;
* practice hands (人机练习, ``practice``) give nobody anything;
* the room does not matter: the stake (房间基数) multiplies coins only — seed
  002's formula for points has no 房间基数 — so points measure how big and how
  many one's wins were, in any room.

:func:`hand_points` is the rule in Python (the settlement); :func:`hand_points_sql`
is the same rule over ``games.HandSeat`` columns for set-based SQL (the nightly
recalculation re-applies it to every hand and books any difference as a
``recalc`` ledger entry).  ``tests/accounts/test_accounts_points.py`` checks
that both agree on every combination.
"""

from __future__ import annotations

from django.db.models import BigIntegerField, Case, F, Q, Value, When
from django.db.models.expressions import Expression


def hand_points(*, won: bool, fan: int, multiplier: int, practice: bool) -> int:
    """Return the 实力积分 one seat gets for a hand (see the module docstring).

    ``fan`` is the settlement's 总番数 (≥ 0), ``multiplier`` its 倍数 (≥ 1).

    Raises:
        ValueError: a negative fan or a multiplier below 1.
    """
    if fan < 0 or multiplier < 1:
        raise ValueError(f"bad fan/multiplier {fan}/{multiplier}")
    if practice or not won:
        return 0
    return fan * multiplier


def hand_points_sql(prefix: str = "") -> Expression:
    """The same rule as a database expression over HandSeat fields.

    ``prefix`` is a lookup path to the HandSeat (``""`` on HandSeat itself).
    Columns read: ``won``, ``practice``, ``fan``, ``multiplier``.
    """
    return Case(
        When(
            Q(**{f"{prefix}won": True, f"{prefix}practice": False}),
            then=F(f"{prefix}fan") * F(f"{prefix}multiplier"),
        ),
        default=Value(0),
        output_field=BigIntegerField(),
    )
