"""Automatic signals: cases opened without a report (flagged ``automatic``).

- **Win trading** — coins flowing one way between the same two accounts
  over many hands: within ``MAHJONG_WINTRADE_DAYS`` days, at least
  ``MAHJONG_WINTRADE_MIN_HANDS`` settled hands between them, one of them won
  at least ``MAHJONG_WINTRADE_MIN_SHARE`` of the decided ones and received
  ``MAHJONG_WINTRADE_MIN_COINS`` or more net.  The winner is the suspect
  (串通刷分), the partner is named in the signal.
- **Decision time** — a player's last ``MAHJONG_OUTLIER_RECENT_HANDS`` hands
  against their own earlier ones (at least ``MAHJONG_OUTLIER_MIN_BASELINE``):
  the robust z-score of their median discard time at or beyond
  ``MAHJONG_OUTLIER_Z`` (作弊/外挂).
- **Bot agreement** — the share of a player's reviewed decisions in their
  last ``MAHJONG_OUTLIER_RECENT_HANDS`` hands that matched the hard bot (the
  replay review, ``games.selectors.review_agreement``) against their own
  earlier rate: a z-score at or beyond ``MAHJONG_OUTLIER_Z`` over at least
  :data:`MIN_REVIEWED` decisions (作弊/外挂).

Each signal is one atom (``moderation.services.reports.report_signal``);
the same signal against the same player is not raised twice within its
window.  Celery beat runs :func:`signals_scan` every
``MAHJONG_SIGNALS_EVERY`` seconds.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.utils import timezone

from games.models import HandSeat

from .. import stats
from ..evidence import decision_times
from ..models import Category, Report, Signal
from .reports import report_signal

MIN_DECISIONS = 30
"""Recent discards needed before a decision-time signal is considered."""


def win_trading_pairs(*, now: datetime) -> list[dict[str, Any]]:
    """Pairs whose record looks like win trading (see the module docstring).

    Returns ``[{"user", "other", "hands", "wins", "losses", "coins",
    "share"}]``: ``user`` is the one who received the coins.
    """
    since = now - timedelta(days=settings.MAHJONG_WINTRADE_DAYS)
    rows = (
        HandSeat.objects.filter(ended__gte=since, ended__lte=now, practice=False)
        .filter(reversed=False, user__profile__is_bot=False)
        .filter(opponent__profile__is_bot=False)
        .exclude(result=HandSeat.Result.ANNULLED)
        .values("user_id", "opponent_id")
        .annotate(
            n=Count("id"),
            wins=Count("id", filter=Q(result=HandSeat.Result.WIN)),
            losses=Count("id", filter=Q(result=HandSeat.Result.LOSS)),
            coins=Sum("coins"),
        )
        .filter(n__gte=settings.MAHJONG_WINTRADE_MIN_HANDS)
        .order_by()
    )
    out = []
    for r in rows:
        decided = r["wins"] + r["losses"]
        share = r["wins"] / decided if decided else 0.0
        if (
            share >= settings.MAHJONG_WINTRADE_MIN_SHARE
            and (r["coins"] or 0) >= settings.MAHJONG_WINTRADE_MIN_COINS
        ):
            out.append(
                {
                    "user": r["user_id"],
                    "other": r["opponent_id"],
                    "hands": r["n"],
                    "wins": r["wins"],
                    "losses": r["losses"],
                    "coins": int(r["coins"]),
                    "share": round(share, 3),
                }
            )
    return out


def _active_players(now: datetime, limit: int = 500) -> list[int]:
    """People who finished a hand since the last scan (two periods back)."""
    since = now - timedelta(seconds=2 * settings.MAHJONG_SIGNALS_EVERY)
    active = (
        HandSeat.objects.filter(ended__gte=since, user__profile__is_bot=False)
        .order_by()
        .values_list("user_id", flat=True)
        .distinct()
    )
    return list(active[:limit])


def _recent_and_base(
    user_id: int, now: datetime
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """``(recent, baseline)`` (hand id, seat) pairs of a player, newest first:
    the last ``MAHJONG_OUTLIER_RECENT_HANDS`` and up to
    ``MAHJONG_EVIDENCE_BASELINE_HANDS`` before; None below
    ``MAHJONG_OUTLIER_MIN_BASELINE`` baseline hands."""
    recent_n = settings.MAHJONG_OUTLIER_RECENT_HANDS
    seats = list(
        HandSeat.objects.filter(user_id=user_id, ended__lte=now)
        .order_by("-ended", "-id")
        .values_list("hand_id", "seat")[
            : recent_n + settings.MAHJONG_EVIDENCE_BASELINE_HANDS
        ]
    )
    if len(seats) - recent_n < settings.MAHJONG_OUTLIER_MIN_BASELINE:
        return None
    return seats[:recent_n], seats[recent_n:]


def timing_outliers(*, now: datetime) -> list[dict[str, Any]]:
    """Players active since the last scan whose recent discard times are far
    outside their own history (see the module docstring)."""
    out = []
    for user_id in _active_players(now):
        seats = _recent_and_base(user_id, now)
        if seats is None:
            continue
        recent, base = dict(seats[0]), dict(seats[1])
        sample = decision_times(seats=recent).get("discard", [])
        baseline = decision_times(seats=base).get("discard", [])
        if len(sample) < MIN_DECISIONS:
            continue
        z = stats.median_shift_z(sample, baseline)
        if z is not None and abs(z) >= settings.MAHJONG_OUTLIER_Z:
            out.append(
                {
                    "user": user_id,
                    "z": round(z, 2),
                    "median": stats.median(sample),
                    "baseline_median": stats.median(baseline),
                    "hands": list(recent),
                }
            )
    return out


MIN_REVIEWED = 50
"""Reviewed decisions in the recent hands before an agreement signal counts."""


def agreement_outliers(*, now: datetime) -> list[dict[str, Any]]:
    """Players active since the last scan whose recent agreement with the hard
    bot (the replay review) is far above their own history."""
    from games.selectors import review_agreement

    out = []
    for user_id in _active_players(now):
        seats = _recent_and_base(user_id, now)
        if seats is None:
            continue
        recent, base = [h for h, _ in seats[0]], [h for h, _ in seats[1]]
        agreed, made = review_agreement(user_id=user_id, hand_ids=recent)
        base_agreed, base_made = review_agreement(user_id=user_id, hand_ids=base)
        if made < MIN_REVIEWED:
            continue
        z = stats.proportion_z(agreed, made, base_agreed, base_made)
        if z is not None and z >= settings.MAHJONG_OUTLIER_Z:
            out.append(
                {
                    "user": user_id,
                    "z": round(z, 2),
                    "recent": [agreed, made],
                    "baseline": [base_agreed, base_made],
                    "hands": recent,
                }
            )
    return out


def signals_scan(*, now: datetime | None = None) -> int:
    """Raise every new signal as an automatic report; return how many."""
    now = now or timezone.now()
    raised = 0
    window = now - timedelta(days=settings.MAHJONG_WINTRADE_DAYS)
    for pair in win_trading_pairs(now=now):
        if Report.objects.filter(
            signal=Signal.WIN_TRADING,
            case__suspect_id=pair["user"],
            signal_data__other=pair["other"],
            created__gte=window,
        ).exists():
            continue
        hand_ids = list(
            HandSeat.objects.filter(
                user_id=pair["user"],
                opponent_id=pair["other"],
                ended__gte=window,
                practice=False,
            )
            .order_by("-ended")
            .values_list("hand_id", flat=True)[:50]
        )
        report_signal(
            suspect_id=pair["user"],
            category=Category.COLLUSION,
            signal=Signal.WIN_TRADING,
            data=pair,
            hand_ids=hand_ids,
            now=now,
        )
        raised += 1
    week = now - timedelta(days=7)
    for hit in timing_outliers(now=now):
        if Report.objects.filter(
            signal=Signal.TIMING, case__suspect_id=hit["user"], created__gte=week
        ).exists():
            continue
        report_signal(
            suspect_id=hit["user"],
            category=Category.CHEATING,
            signal=Signal.TIMING,
            data={k: v for k, v in hit.items() if k != "hands"},
            hand_ids=hit["hands"],
            now=now,
        )
        raised += 1
    for hit in agreement_outliers(now=now):
        if Report.objects.filter(
            signal=Signal.AGREEMENT, case__suspect_id=hit["user"], created__gte=week
        ).exists():
            continue
        report_signal(
            suspect_id=hit["user"],
            category=Category.CHEATING,
            signal=Signal.AGREEMENT,
            data={k: v for k, v in hit.items() if k != "hands"},
            hand_ids=hit["hands"],
            now=now,
        )
        raised += 1
    return raised
