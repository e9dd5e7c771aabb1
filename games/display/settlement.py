"""The settlement's lines and notes as shown under the fan table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.engine.settle import COIN_LINES, is_factor_line
from mahjong_site.language import current_language


def line_value(lines: Any, key: str) -> Any:
    """The ``value`` of the settlement line with ``key`` (None if absent)."""
    for line in lines or ():
        if isinstance(line, Mapping) and line.get("key") == key:
            return line.get("value")
    return None


# Settlement lines not listed under the fan table: the fan totals are in the table
# itself, the coin and skill results in the deltas below it.
_LINES_HIDDEN = frozenset(
    {"base_fan", "base", "fan", "winner_gain", "loser_loss", "skill", "kongs", "draw"}
)


def settle_lines(lines: Any, practice: Any = False) -> list[dict[str, Any]]:
    """The settlement lines to list under the fan table, ready to show.

    ``lines`` are the presenter's ``settlement.lines`` ({key, zh, en, value, note});
    returns [{key, label, value (text: "×2" for factors, "1,700" for amounts),
    note}] in order. Totals shown elsewhere are left out, a zero rake and a
    倍数 of ×1 too, and at practice tables every coin amount (游戏币, 封顶,
    系统回收).
    """
    english = (current_language() or "zh-hans").lower().startswith("en")
    shown: list[dict[str, Any]] = []
    for line in lines or ():
        if not isinstance(line, Mapping):
            continue
        key = str(line.get("key", ""))
        value: Any = line.get("value")
        if key in _LINES_HIDDEN:
            continue
        if key == "multiplier" and value == 1:
            # 倍数 ×1 multiplies nothing (erren has no 倍数 kind at all) and,
            # beside the ×2 doubling shares, reads as if they were multiplied
            continue
        if key in COIN_LINES and (practice or (key == "rake" and not value)):
            continue
        label = line.get("en") if english and line.get("en") else line.get("zh")
        if is_factor_line(key):
            text = f"×{value}"
        else:
            try:
                text = f"{int(value):,}"
            except (TypeError, ValueError):
                text = str(value)
        note = coins_note(lines) if key == "coins_raw" else None
        shown.append(
            {
                "key": key,
                "label": label,
                "value": text,
                "note": note or settle_note(line),
            }
        )
    return shown


def _int_value(lines: Any, key: str, default: int) -> int:
    try:
        return int(line_value(lines, key))
    except (TypeError, ValueError):
        return default


def coins_note(lines: Any) -> str | None:
    """How the 游戏币 line's coins were computed, in words of the active language.

    Seed 002 "总番数X房间基数X倍数=游戏币" (seed 000: 房间底分 × 番), times the
    自摸 factor where a rule set has one: e.g. ``"总番数 13 × 房间基数 3"`` /
    ``"total fan 13 × room stake 3"``; ``× 倍数 4`` / ``× 自摸 2`` only when the
    factor is more than 1 (a ×1 multiplies nothing: erren has no 倍数 at all).
    The engine's note (``"13×3×1"``) carries the same figures without words;
    the stake is not a line of its own, so it is the 游戏币 value divided by the
    others. None when the lines do not give it (no 总番数, a zero product), and
    the engine's note is shown instead.
    """
    raw = _int_value(lines, "coins_raw", 0)
    fan = _int_value(lines, "fan", 0)
    multiplier = _int_value(lines, "multiplier", 1)
    self_drawn = _int_value(lines, "self_drawn", 1)
    per_stake = fan * multiplier * self_drawn
    if per_stake <= 0 or raw <= 0 or raw % per_stake:
        return None
    stake = raw // per_stake
    parts = [
        gettext("总番数 %(fan)s") % {"fan": f"{fan:,}"},
        gettext("房间基数 %(stake)s") % {"stake": f"{stake:,}"},
    ]
    if multiplier > 1:
        parts.append(gettext("倍数 %(n)s") % {"n": f"{multiplier:,}"})
    if self_drawn > 1:
        parts.append(gettext("自摸 %(n)s") % {"n": self_drawn})
    return " × ".join(parts)


SETTLE_NOTES = {
    "draw_no_score": gettext_lazy("流局不计输赢"),
    "seat_0": gettext_lazy("座位0"),
    "seat_1": gettext_lazy("座位1"),
    "self_drawn_not_doubled": gettext_lazy("自摸不加倍"),
    # a seat note said from the viewer's side (games.presenters.settlement.seat_notes)
    "mine": gettext_lazy("你"),
    "theirs": gettext_lazy("对手"),
}
"""``note_code`` of a settlement line (``games.engine.settle.NOTE_CODES``) → its
words in the interface."""


# Settlements stored before lines had a note_code carried the Chinese words.
_LEGACY_NOTES = {
    "流局不计输赢": "draw_no_score",
    "座位0": "seat_0",
    "座位1": "seat_1",
    "自摸不加倍": "self_drawn_not_doubled",
}


def settle_note(line: Mapping[str, Any]) -> str:
    """The note shown after a settlement line, in the active language.

    A ``note_code`` is translated (:data:`SETTLE_NOTES`); otherwise the
    language-neutral ``note`` (``"17×10×1"``, ``"5%"``) is shown as it is,
    except the worded notes of older stored settlements, which are
    translated too.  An unknown code gives ``""``.
    """
    code = str(line.get("note_code") or "")
    note = str(line.get("note") or "")
    if not code and note in _LEGACY_NOTES:
        code = _LEGACY_NOTES[note]
    if code:
        text = SETTLE_NOTES.get(code)
        return str(text) if text is not None else ""
    return note
