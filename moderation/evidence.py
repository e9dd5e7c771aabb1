"""The evidence bundle of a case (reads only): what triage stores on it.

Shape (JSON, stored in ``Case.evidence``)::

    {"built": iso time, "suspect": id, "hands": [hand ids reported],
     "pairs": [pair_history(...) per other player: reporters, the
               win-trading partner],
     "timing": timing_evidence(...),
     "agreement": agreement_evidence(...),
     "prior": {"suspect": prior_record(...), "<user id>": ... each reporter}}

Every figure comes from the hand rows (``games.HandSeat``) and the event
logs (``games.HandEvent``): the same facts the replay shows.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from games.models import COUNTED, HandEvent, HandSeat

from . import stats
from .models import UPHELD, Case, Outcome, Report, Sanction

DECISION_GROUPS = {
    "discard": "discard",
    "chi": "claim",
    "pung": "claim",
    "kong": "claim",
    "concealed_kong": "kong",
    "added_kong": "kong",
    "win": "win",
    "pass": "pass",
    "ready": "ready",
    "swap": "other",
    "pre_deal": "other",
    "double": "other",
}
"""Action kind (engine JSON) → the group its decision time is counted in."""

MAX_THINK = 60.0
"""Seconds: longer gaps (a player away, a paused tab) are not decisions."""

MIN_SAMPLE = 10
"""Decisions of a group needed before its z-score is computed."""


def decision_times(*, seats: Mapping[int, int]) -> dict[str, list[float]]:
    """Seconds from each prompt to the player's answer, per decision group.

    The same measure as ``games.engine.walk.DecisionPoint.seconds`` (the
    replay's), read straight from the logged ``prompt`` events instead of
    replaying each hand with the engine, so hundreds of hands cost one query
    (``tests/moderation/test_moderation_evidence.py`` holds the two equal).

    ``seats`` maps hand id → the player's seat in it.  A decision is an
    action of that seat (the causing action kept on its first event) answered
    after a ``prompt`` event that asked the seat; moves made by 托管, forced
    报听 discards (``auto`` in the payload) and timeouts are not decisions.
    Returns ``{group: [seconds, ...]}`` (:data:`DECISION_GROUPS`).
    """
    out: dict[str, list[float]] = defaultdict(list)
    if not seats:
        return out
    rows = (
        HandEvent.objects.filter(hand_id__in=list(seats))
        .filter(Q(kind__in=["prompt", "auto_play"]) | Q(action__isnull=False))
        .order_by("hand_id", "seq")
        .values_list("hand_id", "kind", "seat", "at", "payload", "action")
    )
    current = None
    asked: dict[int, float] = {}
    auto = {0: False, 1: False}
    for hand_id, kind, seat, at, payload, action in rows.iterator(chunk_size=2000):
        if hand_id != current:
            current, asked, auto = hand_id, {}, {0: False, 1: False}
        me = seats[hand_id]
        payload = payload or {}
        if kind == "prompt":
            for s in payload.get("seats", []):
                asked[int(s)] = float(at)
            continue
        if kind == "auto_play" and seat is not None:
            auto[int(seat)] = bool(payload.get("on"))
        if not action or action.get("seat") != me:
            continue
        group = DECISION_GROUPS.get(str(action.get("kind")))
        start = asked.get(me)  # several actions may answer one prompt (换牌)
        if group is None or start is None or auto[me] or payload.get("auto"):
            continue
        dt = float(at) - start
        if 0 <= dt <= MAX_THINK:
            out[group].append(round(dt, 3))
    return out


def _seat_map(rows: Iterable[tuple[int, int]]) -> dict[int, int]:
    return {int(h): int(s) for h, s in rows}


def timing_evidence(
    *, user_id: int, hand_ids: Iterable[int], baseline_hands: int | None = None
) -> dict[str, Any]:
    """Decision times of ``user_id`` in ``hand_ids`` against two baselines.

    Baselines: the player's own previous hands (the last
    ``MAHJONG_EVIDENCE_BASELINE_HANDS`` not among ``hand_ids``) and the site
    (the last ``MAHJONG_EVIDENCE_SITE_HANDS`` hands of other people).
    Returns ``{"hands": n, "baseline_hands": n, "site_hands": n, "groups":
    {group: {"n", "median", "baseline_median", "site_median", "z",
    "site_z"}}}`` — medians in seconds, ``z`` the robust z-score of the
    reported median against the player's own (negative: faster), None below
    :data:`MIN_SAMPLE` decisions.
    """
    hand_ids = list(hand_ids)
    limit = baseline_hands or settings.MAHJONG_EVIDENCE_BASELINE_HANDS
    mine = _seat_map(
        HandSeat.objects.filter(user_id=user_id, hand_id__in=hand_ids).values_list(
            "hand_id", "seat"
        )
    )
    own = _seat_map(
        HandSeat.objects.filter(COUNTED, user_id=user_id)
        .exclude(hand_id__in=hand_ids)
        .order_by("-ended", "-id")
        .values_list("hand_id", "seat")[:limit]
    )
    site = _seat_map(
        HandSeat.objects.exclude(user_id=user_id)
        .filter(COUNTED, user__profile__is_bot=False)
        .order_by("-ended", "-id")
        .values_list("hand_id", "seat")[: settings.MAHJONG_EVIDENCE_SITE_HANDS]
    )
    reported, baseline, others = (
        decision_times(seats=mine),
        decision_times(seats=own),
        decision_times(seats=site),
    )
    groups: dict[str, Any] = {}
    for group in sorted(set(reported) | set(baseline)):
        sample = reported.get(group, [])
        base = baseline.get(group, [])
        rest = others.get(group, [])
        enough = len(sample) >= MIN_SAMPLE
        groups[group] = {
            "n": len(sample),
            "baseline_n": len(base),
            "median": _round(stats.median(sample)),
            "baseline_median": _round(stats.median(base)),
            "site_median": _round(stats.median(rest)),
            "z": _round(stats.median_shift_z(sample, base)) if enough else None,
            "site_z": _round(stats.median_shift_z(sample, rest)) if enough else None,
        }
    return {
        "hands": len(mine),
        "baseline_hands": len(own),
        "site_hands": len(site),
        "groups": groups,
    }


def _round(value: float | None, places: int = 2) -> float | None:
    return None if value is None else round(value, places)


def pair_history(*, user_id: int, other_id: int, limit: int = 200) -> dict[str, Any]:
    """The two players' hands against each other (newest ``limit``).

    Returns ``{"other", "hands", "wins", "losses", "draws", "to_user",
    "to_other", "net_to_user", "quick", "friend", "first", "last",
    "flow": [cumulative net coins to ``user_id`` after each hand, oldest
    first], "hand_ids": [newest first]}``.  Coins are what each side paid
    the other (the loser's payment; the site's rake comes out of it), from
    the hand rows; practice, annulled and reversed hands are left out; "quick" /
    "friend" count how they were paired (快速开始 or 好友房).
    """
    rows = list(
        HandSeat.objects.filter(
            COUNTED, user_id=user_id, opponent_id=other_id, practice=False
        )
        .order_by("-ended", "-id")
        .values_list("hand_id", "ended", "result", "coins", "hand__table__kind")[:limit]
    )
    other_coins = dict(
        HandSeat.objects.filter(
            user_id=other_id, hand_id__in=[r[0] for r in rows]
        ).values_list("hand_id", "coins")
    )
    results = Counter(r[2] for r in rows)
    kinds = Counter(r[4] for r in rows)
    to_user = to_other = 0
    flow = []
    net = 0
    for hand_id, _ended, result, coins, _kind in reversed(rows):
        if result == HandSeat.Result.WIN:
            paid = -int(other_coins.get(hand_id, 0))
            to_user += paid
            net += paid
        elif result == HandSeat.Result.LOSS:
            to_other += -int(coins)
            net -= -int(coins)
        flow.append(net)
    return {
        "other": other_id,
        "hands": len(rows),
        "wins": results.get(HandSeat.Result.WIN, 0),
        "losses": results.get(HandSeat.Result.LOSS, 0),
        "draws": results.get(HandSeat.Result.DRAW, 0),
        "to_user": to_user,
        "to_other": to_other,
        "net_to_user": to_user - to_other,
        "quick": kinds.get("quick", 0),
        "friend": kinds.get("friend", 0),
        "first": rows[-1][1].isoformat() if rows else None,
        "last": rows[0][1].isoformat() if rows else None,
        "flow": flow,
        "hand_ids": [r[0] for r in rows[:50]],
    }


def prior_record(
    *, user_id: int, exclude_case_id: int | None, now: datetime
) -> dict[str, Any]:
    """A player's moderation history, before this case.

    ``against``: cases against them (``total``, ``open``, ``upheld``,
    ``dismissed``) and their sanctions (``kind``, ``starts``, ``ends``,
    ``active``); ``filed``: their reports in other cases (``total``,
    ``upheld``, ``dismissed``) — the reporter's record that weighs their
    word (``moderation.priority``).
    """
    cases = Case.objects.filter(suspect_id=user_id)
    filed = Report.objects.filter(reporter_id=user_id)
    if exclude_case_id is not None:
        cases = cases.exclude(pk=exclude_case_id)
        filed = filed.exclude(case_id=exclude_case_id)
    outcomes = Counter(
        o or ""
        for o in cases.filter(status=Case.Status.DECIDED).values_list(
            "outcome", flat=True
        )
    )
    filed_outcomes = Counter(
        (status, outcome)
        for status, outcome in filed.values_list("case__status", "case__outcome")
    )
    sanctions = [
        {
            "kind": s.kind,
            "starts": s.starts.isoformat(),
            "ends": s.ends.isoformat() if s.ends else None,
            "active": s.is_active(now),
        }
        for s in Sanction.objects.filter(user_id=user_id).order_by("-starts")[:10]
    ]
    decided = Case.Status.DECIDED
    return {
        "against": {
            "total": cases.count(),
            "open": cases.exclude(status=decided).count(),
            "upheld": sum(outcomes[o] for o in UPHELD),
            "dismissed": outcomes[Outcome.DISMISS],
        },
        "sanctions": sanctions,
        "filed": {
            "total": sum(filed_outcomes.values()),
            "upheld": sum(n for (s, o), n in filed_outcomes.items() if o in UPHELD),
            "dismissed": sum(
                n
                for (s, o), n in filed_outcomes.items()
                if s == decided and o == Outcome.DISMISS
            ),
        },
    }


def agreement_evidence(*, user_id: int, hand_ids: Iterable[int]) -> dict[str, Any]:
    """How often the player's decisions matched the hard bot's (the review).

    Uses the replay review (复盘, ``games.selectors.review_agreement``: the
    hard bot's choice on the seat's own view, per decision) for the reported
    hands, the player's last ``MAHJONG_OUTLIER_RECENT_HANDS`` other hands and
    their own baseline (the ``MAHJONG_EVIDENCE_BASELINE_HANDS`` before).
    Returns ``{"available", "reported", "recent", "baseline": [agreed,
    decisions], "z"}``; ``available`` is False when no hand of the player
    was reviewed yet.
    """
    from games.selectors import review_agreement as agreement

    hand_ids = list(hand_ids)
    recent = settings.MAHJONG_OUTLIER_RECENT_HANDS
    reported = agreement(user_id=user_id, hand_ids=hand_ids)
    own_ids = list(
        HandSeat.objects.filter(COUNTED, user_id=user_id)
        .exclude(hand_id__in=hand_ids)
        .order_by("-ended", "-id")
        .values_list("hand_id", flat=True)[: settings.MAHJONG_EVIDENCE_BASELINE_HANDS]
    )
    recent_pair = agreement(user_id=user_id, hand_ids=own_ids[:recent])
    baseline = agreement(user_id=user_id, hand_ids=own_ids[recent:])
    return {
        "available": bool(reported[1] or recent_pair[1] or baseline[1]),
        "reported": list(reported),
        "recent": list(recent_pair),
        "baseline": list(baseline),
        "z": _round(stats.proportion_z(*reported, *baseline)),
    }


def case_others(case: Case) -> list[int]:
    """The other players a case is about: its reporters and signal partners."""
    others: list[int] = []
    for reporter_id, data in case.reports.values_list("reporter_id", "signal_data"):
        other = reporter_id or (data or {}).get("other")
        if other and other != case.suspect_id and other not in others:
            others.append(int(other))
    return others[:5]


def case_hand_ids(case: Case) -> list[int]:
    """Every hand attached to the case's reports, newest first."""
    ids = set(
        Report.hands.through.objects.filter(report__case=case).values_list(
            "handrecord_id", flat=True
        )
    )
    return sorted(ids, reverse=True)


def build_evidence(*, case: Case, now: datetime) -> dict[str, Any]:
    """The whole bundle for ``case`` (see the module docstring)."""
    hand_ids = case_hand_ids(case)
    others = case_others(case)
    prior = {
        "suspect": prior_record(
            user_id=case.suspect_id, exclude_case_id=case.pk, now=now
        )
    }
    for other in others:
        prior[str(other)] = prior_record(
            user_id=other, exclude_case_id=case.pk, now=now
        )
    return {
        "built": now.isoformat(),
        "suspect": case.suspect_id,
        "hands": hand_ids,
        "pairs": [pair_history(user_id=case.suspect_id, other_id=o) for o in others],
        "timing": timing_evidence(user_id=case.suspect_id, hand_ids=hand_ids),
        "agreement": agreement_evidence(user_id=case.suspect_id, hand_ids=hand_ids),
        "prior": prior,
    }
