"""Who may appear on the boards: one function (lichess-like eligibility).

:func:`board_eligible` is the single place that decides it; every board
query and the nightly snapshot filter with it.  Board-specific conditions
are added by the board itself: active in the period (a hand in it), and
for the rating board not provisional (``leaderboard.rating``).

Moderation (issue 14): players suspended or banned now are off the boards
(``moderation.restrictions.board_excluded_users``).
"""

from __future__ import annotations

from django.db.models import Q


def board_eligible(*, prefix: str = "user__") -> Q:
    """A filter on the rows whose user may be ranked: a person, account active.

    ``prefix`` is the lookup path to the user from the filtered model
    (``"user__"`` for ``PlayerStats``/``HandSeat``, ``""`` on ``User``).
    Bots (``Profile.is_bot``), deactivated accounts and players suspended
    or banned at the time of the query are left out.
    """
    from moderation.restrictions import board_excluded_users

    return Q(**{f"{prefix}is_active": True, f"{prefix}profile__is_bot": False}) & ~Q(
        **{f"{prefix}pk__in": board_excluded_users()}
    )
