"""Defence: how likely the opponent is waiting, and which tiles are safe.

Only what the seat sees is used — the opponent's discards and melds, its
报听, and the tiles visible in full (issue 5: "prefer tiles that are safe
against the opponent's visible discards and melds").
"""

from __future__ import annotations

from ...rules.tiles import NUM_KINDS
from .observation import Observation


def opponent_tenpai(obs: Observation) -> float:
    """Estimate the chance the opponent is waiting, from what is visible."""
    if obs.opp_ready:
        return 1.0
    melds = max(len(obs.opp_melds), obs.opp_meld_count)
    turns = len(obs.opp_discards) + melds
    p = 0.03 * turns + 0.18 * melds
    return min(max(p, 0.02), 0.9)


def danger(obs: Observation) -> list[float]:
    """Chance, per kind, that it is one of the opponent's winning tiles if
    the opponent is waiting (0 for kinds one cannot hold or that are safe).

    Uses only what the seat sees: the opponent's discards (after its 报听
    they are certainly safe: the locked hand would have been asked to win),
    tiles visible in full (no copy left to pair or wait on), 筋 (a 4 discarded
    makes a 1-4 or 4-7 two-sided wait less likely) and 壁 (all four copies of
    a neighbour visible rule the sequence out).
    """
    unseen = obs.unseen()
    opp_disc = set(obs.opp_discards)
    after_ready = (
        set(obs.opp_discards[obs.opp_ready_index :])
        if obs.opp_ready_index is not None
        else set()
    )
    raw = [0.0] * NUM_KINDS
    for k in range(NUM_KINDS):
        if k in after_ready:
            continue
        # copies the opponent could still hold besides the one thrown
        left = unseen[k]
        w = 0.0
        if left >= 1:
            w += 0.5  # single wait (单钓)
        if left >= 2:
            w += 0.8  # pair wait (对倒)
        if k < 27:
            r = k % 9
            base = k - r
            live = [unseen[base + i] > 0 for i in range(9)] + [False] * 3

            def ok(rank: int, live: list[bool] = live) -> bool:
                return rank >= 0 and live[rank]

            # two-sided: (r+1, r+2) waits on r and r+3; (r-2, r-1) on r and r-3
            if ok(r + 1) and ok(r + 2):
                w += 0.3 if (r + 3 <= 8 and base + r + 3 in opp_disc) else 1.0
            if ok(r - 1) and ok(r - 2):
                w += 0.3 if (r - 3 >= 0 and base + r - 3 in opp_disc) else 1.0
            if ok(r - 1) and ok(r + 1):
                w += 0.6  # closed wait (坎张)
        if k in opp_disc:
            w *= 0.4
        raw[k] = w
    total = sum(raw)
    if total <= 0:
        return raw
    # a waiting hand has about two winning kinds
    return [min(2.0 * w / total, 1.0) for w in raw]
