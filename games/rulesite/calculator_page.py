"""What the calculator page shows for one :class:`Calculation` (template context).

The stake per room is the engine's own settlement (games.engine.settle) of
the total at each room's base, so the calculator and the table agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.settle import Outcome, settle
from games.models import Room
from games.rules import rulesets
from games.rules.fans.base import FanLine
from games.rules.rulesets import RuleSet
from games.rules.tiles import parse_tiles

from .builder import MODES, EditError, drawn_order, full_kinds, tile_counts
from .calculator import Calculation
from .messages import explain, explain_edit
from .selectors import MeldView, tile_groups

MODE_LABELS = {
    "hand": gettext_noop("手牌"),
    "win": gettext_noop("和张"),
    "chi": gettext_noop("吃"),
    "pung": gettext_noop("碰"),
    "kong": gettext_noop("明杠"),
    "concealed_kong": gettext_noop("暗杠"),
}
"""Palette modes (translated in the template)."""

WIND_LABELS = (
    ("1z", gettext_noop("东风")),
    ("2z", gettext_noop("南风")),
    ("3z", gettext_noop("西风")),
    ("4z", gettext_noop("北风")),
)

_BALANCE = 10**12
"""Balances far above any stake: the table shows the stake before the cap."""


@dataclass(frozen=True, slots=True)
class NotCounted:
    """A fan present but not counted, and the fan that excludes it (不计)."""

    line: FanLine
    by_id: str
    by_zh: str
    by_en: str


def _not_counted(calc: Calculation) -> list[NotCounted]:
    if calc.outcome is None:
        return []
    names = {f.id: f for f in calc.ruleset.fans}
    out = []
    for line in calc.outcome.result.not_counted:
        by = line.excluded_by
        fan = names.get(by)
        out.append(NotCounted(line, by, fan.zh if fan else "", fan.en if fan else ""))
    return out


def _groups(decomposition: str) -> list[dict[str, Any]]:
    """The chosen split (``"[123m] 456m 789m 11z"``) as tile groups to draw."""
    out = []
    for part in decomposition.split():
        melded = part.startswith("[")
        concealed_kong = part.endswith("暗")
        body = part.strip("[]暗*")
        try:
            tiles = [str(t) for t in parse_tiles(body)]
        except ValueError:
            out.append({"text": part, "tiles": [], "melded": melded})
            continue
        out.append(
            {
                "text": part,
                "tiles": tiles,
                "melded": melded,
                "concealed_kong": concealed_kong,
            }
        )
    return out


def _stakes(calc: Calculation) -> list[dict[str, Any]]:
    """Coins at each open room of the rule set (all open rooms when it has
    none yet), from the engine's settlement."""
    total = calc.total
    if total is None:
        return []
    rooms = list(Room.objects.filter(active=True, ruleset=calc.ruleset.name))
    if not rooms:
        rooms = list(Room.objects.filter(active=True))
    out = []
    outcome = Outcome(
        winner=0,
        self_drawn=calc.input.self_drawn,
        base_fan=total,
        ready_win=calc.input.ready or calc.input.ready_first,
    )
    for room in rooms:
        st = settle(
            outcome, ruleset=calc.ruleset, stake=room.stake, balances=(_BALANCE,) * 2
        )
        out.append(
            {
                "room": room,
                "pays": st.coins,
                "gets": st.deltas[0],
                "rake": st.rake,
                "multiplier": st.multiplier,
            }
        )
    return out


def _wait_urls(calc: Calculation) -> dict[str, str]:
    """For waits left unscored (财神 hands past the time budget): the URL of
    the hand won on that tile."""
    out = {}
    for w in calc.waits:
        if w.deferred:
            query = {**calc.input.to_query(), "hand": f"{calc.canonical}{w.tile}"}
            out[w.tile] = reverse("games:calculator") + "?" + urlencode(query)
    return out


def example_notation(rs: RuleSet) -> str:
    """A winning hand of ``rs`` in notation, for the input's placeholder: a
    chow and a dragon pung declared, a pure straight in the rule set's first
    suit, and a flower where the rule set has them (every rule set's scores
    above its minimum: tests/games/test_rulesite_calculator.py)."""
    s = str(rs.kinds[0])[-1]
    hand = f"[123{s}][777z]11{s}456{s}78{s}9{s}"
    return hand + ("+1f" if rs.flowers else "")


def calculator_context(
    calc: Calculation, *, mode: str, edit_error: EditError | None, url: str
) -> dict[str, Any]:
    """Template context of ``/calculator/`` (``edit_error``: the click that
    was refused, the hand being the one before it)."""
    rs = calc.ruleset
    hand = calc.hand
    concealed = [str(t) for t in drawn_order(hand)] if hand else []
    win_index = len(concealed) - 1 if hand and hand.tile_count == 14 else None
    mode = mode if mode in MODES else "hand"
    return {
        "calc": calc,
        "rs": rs,
        "rulesets": [rulesets.get(n) for n in rulesets.NAMES],
        "opts": calc.options,
        "inp": calc.input,
        "placeholder": example_notation(rs),
        "palette": tile_groups(rs),
        "full": full_kinds(calc.input.hand),
        "counts": " ".join(f"{t}:{n}" for t, n in tile_counts(calc.input.hand).items()),
        "modes": list(MODE_LABELS.items()),
        "mode": mode,
        "winds": WIND_LABELS,
        "melds": [MeldView.of(m) for m in hand.melds] if hand else [],
        "concealed": concealed,
        "win_index": win_index,
        "flowers": [str(t) for t in hand.flowers] if hand else [],
        "error": explain(calc.error) if calc.error else "",
        "error_code": calc.error.code.value if calc.error else "",
        "edit_error": (
            explain_edit(edit_error.code, tile=edit_error.tile, count=edit_error.count)
            if edit_error
            else ""
        ),
        "edit_error_code": edit_error.code if edit_error else "",
        "fans": calc.outcome.result.fans if calc.outcome else (),
        "not_counted": _not_counted(calc),
        "groups": _groups(calc.outcome.result.decomposition) if calc.outcome else [],
        "stakes": _stakes(calc),
        "share_url": url,
        "wait_urls": _wait_urls(calc),
        "wild_kinds": [str(t) for t in rs.kinds] if calc.options.wild else [],
        "title": _("算番器"),
    }
