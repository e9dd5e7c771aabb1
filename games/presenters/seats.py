"""What a seat is called from one seat's side: ``me`` / ``opponent``, and the
winds' characters.
"""

from __future__ import annotations

WIND_ZH = {"1z": "东", "2z": "南", "3z": "西", "4z": "北"}


def side_of(seat: int | None, me: int) -> str | None:
    """``"me"`` when ``seat`` is ``me``, ``"opponent"`` for the other, None
    for no seat."""
    if seat is None:
        return None
    return "me" if seat == me else "opponent"
