"""What each fan is, in words: the seed's own description and an English one.

Data only.  :func:`description` picks, for a rule set and a fan, the
description of the seed the rule set follows (``SOURCE``); a fan that seed
does not describe takes seed 003's (MCR, the reading RULES.md takes where a
seed is silent), and the result says which seed it quotes.

The Chinese texts are quoted from the seeds (``seed000.py`` … ``seed004.py``,
extracted from the documents with their wording); ``english.py`` gives one
English definition per fan id.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import english, seed000, seed001, seed002, seed003, seed004

_BY_SEED: dict[str, dict[str, str]] = {
    "seed 000": seed000.TEXTS,
    "seed 001": seed001.TEXTS,
    "seed 002": seed002.TEXTS,
    "seed 003": seed003.TEXTS,
    "seed 004": seed004.TEXTS,
}

SOURCE: dict[str, str] = {
    "erren": "seed 000",
    "mcr": "seed 003",
    "erren64": "seed 004",
    "jj": "seed 001",
    "liangren": "seed 002",
    # the 优嘻网 section names its fans only; RULES.md takes MCR's definitions
    "youxi": "seed 003",
}
"""The seed whose descriptions a rule set's pages quote."""

FALLBACK = "seed 003"

SITE_TEXTS: dict[str, str] = {
    # youxi's 一色双龙抱大车轮（筒）, read as 大车轮 (RULES.md, youxi)
    "BIG_WHEELS": "筒子二到八各一对：22 33 44 55 66 77 88 筒。",
}
"""Descriptions the site writes itself, for fans no seed describes."""


@dataclass(frozen=True, slots=True)
class FanText:
    """A fan's description: ``zh`` quoted from ``seed`` (``"seed 001"``, or
    ``"site"`` for :data:`SITE_TEXTS`), and ``en``, the English definition."""

    zh: str
    en: str
    seed: str


def description(ruleset: str, fan_id: str) -> FanText | None:
    """The description of ``fan_id`` as ``ruleset``'s source gives it."""
    en = english.TEXTS.get(fan_id, "")
    seed = SOURCE.get(ruleset, FALLBACK)
    for s in (seed, FALLBACK):
        zh = _BY_SEED[s].get(fan_id)
        if zh:
            return FanText(zh, en, s)
    if fan_id in SITE_TEXTS:
        return FanText(SITE_TEXTS[fan_id], en, "site")
    return None


__all__ = ["FALLBACK", "SITE_TEXTS", "SOURCE", "FanText", "description"]
