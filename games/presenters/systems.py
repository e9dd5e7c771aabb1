"""Rule-set systems shown live beside the wall: seed 002's 倍数 (``stakes``)
and youxi's pool limit (``pool``).
"""

from __future__ import annotations

from typing import Any

from .seats import side_of


def stakes(rs: Any, view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The live 倍数 of seed 002's choices (明牌 ×4, 加倍 ×2 per seat) for rule
    sets that have them: ``{multiplier, parts [{key, who, factor}],
    ready_win (听牌胡 factor or None)}``; None elsewhere."""
    from games.engine.settle import DEFAULT_FACTORS, choice_factors
    from games.rules.rulesets import System

    if not ({System.OPEN_HAND, System.DEAL_DOUBLE} & rs.systems):
        return None
    sides = {seat: view["me"], 1 - seat: view["opponent"]}
    parts = choice_factors(
        rs,
        open_hand=[bool(sides[i].get("open_hand")) for i in (0, 1)],
        deal_double=[bool(sides[i].get("deal_double")) for i in (0, 1)],
    )
    multiplier = 1
    for _key, _seat, f in parts:
        multiplier *= f
    ready = None
    if "ready_win" in rs.multipliers:
        ready = int(rs.multipliers.get("ready_win", DEFAULT_FACTORS["ready_win"]))
    return {
        "multiplier": multiplier,
        "parts": [
            {"key": k, "who": side_of(i, seat), "factor": f} for k, i, f in parts
        ],
        "ready_win": ready,
        "open_factor": int(
            rs.multipliers.get("open_hand", DEFAULT_FACTORS["open_hand"])
        ),
    }


def pool_sizes(
    rs: Any, me: dict[str, Any], opp: dict[str, Any]
) -> dict[str, Any] | None:
    """youxi's 流局 when a discard pool is full (seed 000 优嘻网 "有一家牌池占满后
    无人和牌，则为流局"): ``{limit, me, opponent}`` pool sizes; None elsewhere."""
    if rs.full_discard_pool is None:
        return None
    return {
        "limit": rs.full_discard_pool,
        "me": len(me["discards"]),
        "opponent": len(opp["discards"]),
    }
