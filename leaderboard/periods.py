"""Board periods (today / this week / this month / all time) in server time.

Days start at midnight in ``settings.TIME_ZONE`` (Asia/Shanghai by default),
weeks on Monday, months on the 1st.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.utils import timezone

PERIODS = ("day", "week", "month", "all")


def local_today(*, now: datetime | None = None) -> date:
    """Today's date in server time."""
    return timezone.localtime(now or timezone.now()).date()


def period_range(*, period: str, day: date) -> tuple[datetime | None, datetime]:
    """Return ``[start, end)`` of the ``period`` that contains ``day`` (aware).

    ``start`` is None for ``all``; ``end`` is the end of ``day`` (midnight
    after it), so a range never reaches past the given day.

    Raises:
        ValueError: an unknown period.
    """
    tz = timezone.get_current_timezone()
    end = datetime.combine(day + timedelta(days=1), time(), tzinfo=tz)
    if period == "all":
        return None, end
    if period == "day":
        first = day
    elif period == "week":
        first = day - timedelta(days=day.weekday())
    elif period == "month":
        first = day.replace(day=1)
    else:
        raise ValueError(f"unknown period {period!r}; known: {', '.join(PERIODS)}")
    return datetime.combine(first, time(), tzinfo=tz), end
