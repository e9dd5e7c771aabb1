"""The disconnect grace: when a seat's absence stops being a blip.

One rule for the two places that ask it: the clock's ``seat_away`` job
switches 托管 on once the grace is over (games.services.seats), and the
settlement counts a hand as abandoned by 托管 only then (games.services.
settlement, the play ban's count).  Seed 000 四、异常处理: 断线 → 托管; the
grace (``MAHJONG_DISCONNECT_GRACE`` seconds) is the site's line between a
reload or a network blip and leaving.
"""

from __future__ import annotations

from django.conf import settings

AWAY_TOLERANCE = 0.5
"""Seconds a ``seat_away`` job may run early (clocks of different processes)."""


def grace_over(*, since: float, now: float) -> bool:
    """Whether a seat away since ``since`` (epoch s) has been away for the
    whole grace at ``now`` (epoch s), allowing :data:`AWAY_TOLERANCE` (at
    most a tenth of the grace) for clocks of different processes."""
    grace = settings.MAHJONG_DISCONNECT_GRACE
    return now >= since + grace - min(AWAY_TOLERANCE, grace / 10)
