"""The priority of a case (0–100): the queue is sorted by it.

The formula, every component shown to the moderator on the case page:

- **category** — 作弊/外挂 15, 串通刷分 15, 辱骂 10, 恶意拖延/挂机 5, 其他 0;
- **reports** — 15 points per report, each weighted by its reporter's
  record: ``w = 2 · (upheld + 1) / (upheld + dismissed + 2)`` over the
  reporter's earlier decided reports (a new reporter weighs 1.0; one whose
  reports are always upheld tends to 2, one always dismissed to 0); an
  automatic signal weighs 1.0; at most 40;
- **coin flow** — for the pair with the most one-sided record: up to 25
  points when the suspect won at least 75 % of the pair's decided hands
  and received coins net, scaled by the share above 50 % and by the hands
  played against ``MAHJONG_WINTRADE_MIN_HANDS``;
- **decision time** — up to 15 points for the largest robust z-score
  (absolute) of the reported hands' decision times against the player's
  own, reaching 15 at ``MAHJONG_OUTLIER_Z``;
- **bot agreement** — up to 25 points for the z-score of the reported
  hands' agreement with the hard bot above the player's own rate (the
  replay review), 25 at ``MAHJONG_OUTLIER_Z``;
- **record** — 10 points per earlier upheld case against the suspect, at
  most 20.

The sum is rounded and capped at 100.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import Category

CATEGORY_POINTS: dict[str, int] = {
    Category.CHEATING: 15,
    Category.COLLUSION: 15,
    Category.ABUSE: 10,
    Category.STALLING: 5,
    Category.OTHER: 0,
}
REPORT_POINTS = 15
REPORTS_CAP = 40
FLOW_POINTS = 25
TIMING_POINTS = 15
AGREEMENT_POINTS = 25
RECORD_POINTS = 10
RECORD_CAP = 20

LABELS = {
    "category": _("类别"),
    "reports": _("举报（按举报人信誉加权）"),
    "flow": _("游戏币单向流动"),
    "timing": _("思考时间异常"),
    "agreement": _("与困难机器人一致率"),
    "record": _("以往处罚记录"),
}
"""Component key → its name on the case page."""


def reporter_weight(*, upheld: int, dismissed: int) -> float:
    """A reporter's weight from their decided reports (see the module docstring)."""
    return 2 * (upheld + 1) / (upheld + dismissed + 2)


def case_priority(
    *,
    category: str,
    reporters: Iterable[int | None],
    evidence: dict[str, Any],
) -> tuple[int, list[dict[str, Any]]]:
    """Score a case: ``(total, [{"key", "points", "detail"}...])``.

    ``reporters`` are the user ids of the case's reports (None for an
    automatic signal); ``evidence`` is the bundle of
    :func:`moderation.evidence.build_evidence` (its ``prior`` records give
    the reporters' weights).
    """
    prior = evidence.get("prior", {})
    parts: list[dict[str, Any]] = []

    parts.append(
        {"key": "category", "points": CATEGORY_POINTS.get(category, 0), "detail": {}}
    )

    weights = []
    for reporter in reporters:
        if reporter is None:
            weights.append(1.0)
            continue
        filed = prior.get(str(reporter), {}).get("filed", {})
        weights.append(
            reporter_weight(
                upheld=int(filed.get("upheld", 0)),
                dismissed=int(filed.get("dismissed", 0)),
            )
        )
    parts.append(
        {
            "key": "reports",
            "points": min(REPORTS_CAP, REPORT_POINTS * sum(weights)),
            "detail": {"weights": [round(w, 2) for w in weights]},
        }
    )

    best = 0.0
    best_detail: dict[str, Any] = {}
    for pair in evidence.get("pairs", []):
        decided = pair["wins"] + pair["losses"]
        if not decided or pair["net_to_user"] <= 0:
            continue
        share = pair["wins"] / decided
        if share < 0.75:
            continue
        volume = min(1.0, pair["hands"] / max(1, settings.MAHJONG_WINTRADE_MIN_HANDS))
        points = FLOW_POINTS * min(1.0, (share - 0.5) / 0.5) * volume
        if points > best:
            best = points
            best_detail = {
                "other": pair["other"],
                "share": round(share, 3),
                "hands": pair["hands"],
                "net": pair["net_to_user"],
            }
    parts.append({"key": "flow", "points": best, "detail": best_detail})

    zs = {
        g: v["z"]
        for g, v in evidence.get("timing", {}).get("groups", {}).items()
        if v.get("z") is not None
    }
    top = max(zs.items(), key=lambda kv: abs(kv[1]), default=None)
    limit = settings.MAHJONG_OUTLIER_Z
    parts.append(
        {
            "key": "timing",
            "points": TIMING_POINTS * min(1.0, abs(top[1]) / limit) if top else 0,
            "detail": {"group": top[0], "z": top[1]} if top else {},
        }
    )

    agreement = evidence.get("agreement", {})
    z = agreement.get("z") if agreement.get("available") else None
    parts.append(
        {
            "key": "agreement",
            "points": AGREEMENT_POINTS * min(1.0, max(0.0, z) / limit) if z else 0,
            "detail": {"z": z} if z is not None else {},
        }
    )

    upheld = int(prior.get("suspect", {}).get("against", {}).get("upheld", 0))
    parts.append(
        {
            "key": "record",
            "points": min(RECORD_CAP, RECORD_POINTS * upheld),
            "detail": {"upheld": upheld},
        }
    )
    for part in parts:
        part["points"] = round(float(part["points"]), 1)
    total = min(100, round(sum(p["points"] for p in parts)))
    return total, parts
