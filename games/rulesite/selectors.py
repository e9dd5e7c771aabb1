"""Reads for the rules site: page data built from the rule sets, the fan
examples (games.rules.examples), the calculator and the level tables.

Nothing here is written by hand about a rule set: names, values, 不计 lists,
tiles, systems, limits and examples all come from the rule-set data, and the
words around them from :mod:`games.rulesite.texts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import LevelScheme
from games.rules import rulesets
from games.rules.examples import Example, example, is_dead
from games.rules.fans.base import Fan
from games.rules.melds import Meld, MeldKind
from games.rules.rulesets.base import RuleSet
from games.rules.shanten import Shape

from . import texts
from .calculator import CalcInput, Calculation, calculate


def ruleset_or_404(name: str) -> RuleSet:
    """The rule set called ``name``; Http404 when there is none."""
    try:
        return rulesets.get(name)
    except KeyError:
        raise Http404(f"no rule set {name!r}") from None


def all_rulesets() -> list[RuleSet]:
    """Every rule set, the site's default first."""
    return [rulesets.get(n) for n in rulesets.NAMES]


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld as drawn: its tiles, kind and the claimed tile's position."""

    kind: str
    tiles: tuple[str, ...]
    claimed_at: int | None

    @classmethod
    def of(cls, meld: Meld) -> MeldView:
        at = None
        if meld.claimed is not None and meld.kind is not MeldKind.CONCEALED_KONG:
            at = meld.tiles.index(meld.claimed)
        return cls(meld.kind.value, tuple(str(t) for t in meld.tiles), at)


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand as drawn: melds, concealed tiles, the winning tile, flowers."""

    melds: tuple[MeldView, ...]
    concealed: tuple[str, ...]
    win_tile: str
    flowers: tuple[str, ...]


def hand_view(calc: Calculation) -> HandView | None:
    """The parsed hand of a calculation, sorted, winning tile apart."""
    hand = calc.hand
    if hand is None:
        return None
    tiles = list(hand.concealed)
    win = ""
    if hand.tile_count == 14 and tiles:
        win = str(tiles.pop())
    return HandView(
        tuple(MeldView.of(m) for m in hand.melds),
        tuple(str(t) for t in sorted(tiles)),
        win,
        tuple(str(t) for t in hand.flowers),
    )


@dataclass(frozen=True, slots=True)
class ExampleView:
    """An example hand with its score: what the rules pages draw."""

    example: Example
    calc: Calculation
    hand: HandView | None
    query: dict[str, str]
    labels: tuple[str, ...]

    @property
    def total(self) -> int | None:
        return self.calc.total

    @property
    def query_string(self) -> str:
        """The calculator's query for this example (``ruleset=…&hand=…``)."""
        return urlencode(self.query)


@lru_cache(maxsize=1024)
def _example_calc(ruleset: str, fan_id: str) -> Calculation | None:
    ex = example(ruleset, fan_id)
    if ex is None:
        return None
    return calculate(calc_input(ruleset, ex))


def calc_input(ruleset: str, ex: Example) -> CalcInput:
    """The calculator input of an example."""
    return CalcInput.from_situation(ruleset, ex.hand, ex.situation)


def example_view(ruleset: str, fan_id: str) -> ExampleView | None:
    """The example of ``fan_id`` in ``ruleset``, scored (memoised per process)."""
    ex = example(ruleset, fan_id)
    calc = _example_calc(ruleset, fan_id)
    if ex is None or calc is None:
        return None
    query = calc.input.to_query()
    query["hand"] = calc.canonical
    labels = tuple(texts.situation_labels(calc.input))
    return ExampleView(ex, calc, hand_view(calc), query, labels)


@dataclass(frozen=True, slots=True)
class FanRef:
    """A fan named in another fan's row (不计 lists, excluded-by)."""

    id: str
    zh: str
    en: str
    points: int


@dataclass(frozen=True, slots=True)
class FanRow:
    """One row of a rule set's fan table."""

    fan: Fan
    excludes: tuple[FanRef, ...]
    excluded_by: tuple[FanRef, ...]
    example: ExampleView | None
    dead: bool
    description: str = ""
    description_source: str = ""

    @property
    def id(self) -> str:
        return self.fan.id


def _ref(fan: Fan) -> FanRef:
    return FanRef(fan.id, fan.zh, fan.en, fan.points)


def fan_row(rs: RuleSet, f: Fan) -> FanRow:
    """The row of fan ``f`` in ``rs``'s table."""
    by_id = {g.id: g for g in rs.fans}
    text, source = texts.fan_description(rs, f.id)
    return FanRow(
        f,
        tuple(_ref(by_id[i]) for i in _ordered(rs, f.excludes)),
        tuple(_ref(g) for g in rs.fans if f.id in g.excludes),
        example_view(rs.name, f.id),
        is_dead(rs.name, f.id),
        text,
        source,
    )


def fan_rows(rs: RuleSet) -> list[FanRow]:
    """Every fan of ``rs`` in table order (highest value first)."""
    return [fan_row(rs, f) for f in rs.fans]


def _ordered(rs: RuleSet, ids: frozenset[str]) -> list[str]:
    """``ids`` that are fans of ``rs``, in the table's order."""
    return [f.id for f in rs.fans if f.id in ids]


SHAPE_NAMES = {
    Shape.REGULAR: gettext_noop("四副牌加一对将"),
    Shape.SEVEN_PAIRS: gettext_noop("七对"),
    Shape.THIRTEEN_ORPHANS: gettext_noop("十三幺"),
    Shape.HONORS_AND_KNITTED: gettext_noop("全不靠"),
    Shape.KNITTED_STRAIGHT: gettext_noop("组合龙"),
}
"""Winning shapes, Chinese (translated in the template)."""


def tile_groups(rs: RuleSet) -> list[tuple[str, tuple[str, ...]]]:
    """The wall's kinds grouped by suit: ``[("m", ("1m", …)), ("z", …), ("f", …)]``."""
    groups: dict[str, list[str]] = {}
    for t in (*rs.kinds, *rs.flowers):
        groups.setdefault(t.suit, []).append(str(t))
    return [(s, tuple(ts)) for s, ts in groups.items()]


def ruleset_summary(rs: RuleSet) -> dict[str, Any]:
    """The facts the index and comparison pages show for one rule set."""
    return {
        "rs": rs,
        "wall": rs.wall_size,
        "kinds": len(rs.kinds),
        "flowers": len(rs.flowers),
        "fan_count": len(rs.fans),
        "default": rs.name == rulesets.DEFAULT,
        "systems": texts.systems(rs),
        "sources": texts.sources(rs),
    }


def ruleset_page(name: str) -> dict[str, Any]:
    """Context of ``/rules/<name>/``.

    Raises:
        Http404: unknown rule set.
    """
    rs = ruleset_or_404(name)
    return {
        **ruleset_summary(rs),
        "dealer_rule": texts.dealer_rule(rs),
        "tile_groups": tile_groups(rs),
        "shapes": [SHAPE_NAMES[s] for s in Shape if s in rs.shapes],
        "claims": texts.claims(rs),
        "systems": texts.systems(rs),
        "multipliers": texts.multiplier_parts(rs),
        "fan_total_parts": texts.fan_total_parts(rs),
        "not_toward_minimum": [f for f in rs.fans if not f.counts_toward_minimum],
        "rows": fan_rows(rs),
        "interpretations": texts.interpretations(rs),
        "dealer_tiles": 14,
        "other_tiles": 13,
    }


def fan_page(name: str, fan_id: str) -> dict[str, Any]:
    """Context of ``/rules/<name>/<fan_id>/``.

    Raises:
        Http404: unknown rule set or a fan the rule set does not have.
    """
    rs = ruleset_or_404(name)
    try:
        fan = rs.fan(fan_id)
    except KeyError:
        raise Http404(f"rule set {name!r} has no fan {fan_id!r}") from None
    row = fan_row(rs, fan)
    elsewhere: list[tuple[RuleSet, Fan | None]] = []
    for other in all_rulesets():
        try:
            f = other.fan(fan_id)
        except KeyError:
            elsewhere.append((other, None))
            continue
        elsewhere.append((other, f))
    return {"rs": rs, "row": row, "fan": row.fan, "elsewhere": elsewhere}


def comparison() -> dict[str, Any]:
    """Context of ``/rules/compare/``: every fan × every rule set, the
    systems and settlements side by side, and the three level tables."""
    sets = all_rulesets()
    order: list[str] = []
    names: dict[str, Fan] = {}
    # MCR's order first (the fullest table), then the others' own fans
    for rs in sorted(sets, key=lambda r: r.name != "mcr"):
        for f in rs.fans:
            if f.id not in names:
                names[f.id] = f
                order.append(f.id)
    points = {rs.name: {f.id: f.points for f in rs.fans} for rs in sets}
    rows: list[dict[str, Any]] = [
        {"fan": names[i], "cells": [(rs, points[rs.name].get(i)) for rs in sets]}
        for i in order
    ]
    rows.sort(key=lambda r: -max(p for _rs, p in r["cells"] if p is not None))
    systems = [
        {
            "name": _(name),
            "cells": [texts.system_brief(rs, s) for rs in sets],
        }
        for s, name in texts.SYSTEM_NAMES.items()
    ]
    return {
        "sets": sets,
        "summaries": [ruleset_summary(rs) for rs in sets],
        "rows": rows,
        "systems": systems,
        "multipliers": [texts.multiplier_parts(rs) for rs in sets],
        "fan_totals": [texts.fan_total_parts(rs) for rs in sets],
        "levels": level_tables(),
    }


def level_tables() -> list[dict[str, Any]]:
    """The level schemes (seed 002, 003, 000) with their levels; ``active``
    marks the one the site uses."""
    out = []
    for scheme in LevelScheme.objects.prefetch_related("levels").order_by(
        "-is_active", "pk"
    ):
        levels = sorted(scheme.levels.all(), key=lambda lv: lv.min_points)
        out.append({"scheme": scheme, "levels": levels, "active": scheme.is_active})
    return out
