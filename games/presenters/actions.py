"""The buttons a seat is offered (``actions``) and the waits it is shown
(``tenpai``, ``discard_waits``), from the engine's legal actions.
"""

from __future__ import annotations

from typing import Any

from games.engine import analysis
from games.engine.hand import Hand
from games.engine.settle import win_double_terms
from games.rules.tiles import ALL_TILES, Tile


def wait_list(
    hand: Hand, seat: int, counts: list[int], seen: list[int]
) -> list[dict[str, Any]]:
    s = hand.state
    kinds = analysis.hand_waits(counts, len(s.melds[seat]), s.wild, hand.ruleset)
    return [{"tile": str(ALL_TILES[k]), "left": max(0, 4 - seen[k])} for k in kinds]


def offered_actions(
    hand: Hand, seat: int, view: dict[str, Any], seen: list[int]
) -> dict[str, Any]:
    rs = hand.ruleset
    s = hand.state
    legal = view["legal_actions"]
    kinds = {a["kind"] for a in legal}
    counts = list(s.concealed[seat])

    discard_tiles = [a["tile"] for a in legal if a["kind"] == "discard"]
    discard_waits: dict[str, list[dict[str, Any]]] = {}
    if discard_tiles and sum(counts) + 3 * len(s.melds[seat]) == 14:
        for t in discard_tiles:
            i = Tile.parse(t).index
            counts[i] -= 1
            w = wait_list(hand, seat, counts, seen)
            counts[i] += 1
            if w:
                discard_waits[t] = w
    ting = []
    for a in legal:
        if a["kind"] != "ready":
            continue
        if a["tile"] is None:
            ting.append({"tile": None, "waits": wait_list(hand, seat, counts, seen)})
        else:
            ting.append({"tile": a["tile"], "waits": discard_waits.get(a["tile"], [])})
    pre = [a for a in legal if a["kind"] == "pre_deal"]
    swaps = [a["tile"] for a in legal if a["kind"] == "swap"]
    hu = "win" in kinds
    return {
        "discard": bool(discard_tiles),
        "discard_tiles": discard_tiles,
        "discard_waits": discard_waits,
        "chi": [
            {
                "tiles": "".join(t[0] for t in a["tiles"]) + a["tiles"][0][1],
                "list": a["tiles"],
            }
            for a in legal
            if a["kind"] == "chi"
        ],
        "pung": "pung" in kinds,
        "kong": [
            {"tile": a.get("tile") or view["last_discard"], "kind": a["kind"]}
            for a in legal
            if a["kind"] in ("kong", "concealed_kong", "added_kong")
        ],
        "hu": hu,
        "pass": "pass" in kinds,
        "ting": ting,
        "auto": {"on": bool(s.auto[seat]), "available": s.phase.value != "ended"},
        "pre_deal": (
            {
                "open": any(a["open_hand"] for a in pre),
                "double": any(a["double"] for a in pre),
            }
            if pre
            else None
        ),
        "double": "double" in kinds,
        "swap": (
            {
                "tiles": swaps,
                "used": s.swaps[seat],
                "max": rs.max_swaps,
                "free": s.swaps[seat] == 0,
            }
            if swaps
            else None
        ),
        "win_double": _win_double(rs, s.win_doubles[seat]) if hu else None,
    }


def _win_double(rs: Any, count: int) -> dict[str, Any] | None:
    """胡加倍 on offer with a 和 (seed 000): declining it raises the count.

    ``{count, max, next, plus, factor}``: after declining, a win scores
    (底番 + plus) × factor (games.engine.settle: (base + 2n) × 2ⁿ with
    n = next).  None without the system or at the cap (then declining
    changes nothing).
    """
    from games.rules.rulesets import System

    if System.WIN_DOUBLE not in rs.systems or count >= rs.max_win_doubles:
        return None
    n = count + 1
    plus, factor = win_double_terms(n)
    return {
        "count": count,
        "max": rs.max_win_doubles,
        "next": n,
        "plus": plus,
        "factor": factor,
    }


NO_ACTIONS: dict[str, Any] = {
    "discard": False,
    "discard_tiles": [],
    "discard_waits": {},
    "chi": [],
    "pung": False,
    "kong": [],
    "hu": False,
    "pass": False,
    "ting": [],
    "auto": {"on": False, "available": False},
    "pre_deal": None,
    "double": False,
    "swap": None,
    "win_double": None,
}
