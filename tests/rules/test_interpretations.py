"""The rules site's plain-words choices stay tied to RULES.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules import rulesets
from games.rules.interpretations import INTERPRETATIONS

RULES_MD = Path(__file__).resolve().parents[2] / "games" / "rules" / "RULES.md"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_every_rule_set_says_where_it_chose(name):
    items = INTERPRETATIONS[name]
    assert items
    keys = [i.key for i in items]
    assert len(keys) == len(set(keys))
    for i in items:
        assert i.zh and i.en and i.zh != i.en


def test_every_quote_is_still_in_rules_md():
    text = _flat(RULES_MD.read_text(encoding="utf-8"))
    missing = [
        (name, i.key)
        for name, items in INTERPRETATIONS.items()
        for i in items
        if _flat(i.quote) not in text
    ]
    assert missing == []
