"""A hand's events as rows (the replay page's 全部事件 list, games/replay.html).

Reads go through :func:`games.selectors.hand_log` (ended hands only, full
payloads); this module only turns them into rows the template can show: a
label, the tiles involved, and a short note.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts.models import Profile

from . import selectors
from .display.names import bot_name, fan_name
from .models import HandRecord
from .presenters.settlement import total_fan

KIND_LABELS = {
    "hand_started": gettext_lazy("开局"),
    "prompt": gettext_lazy("等待操作"),
    "pre_deal_choice": gettext_lazy("开局选择"),
    "deal": gettext_lazy("发牌"),
    "flower": gettext_lazy("补花"),
    "draw": gettext_lazy("摸牌"),
    "indicator": gettext_lazy("翻牌"),
    "task": gettext_lazy("任务"),
    "double_choice": gettext_lazy("加倍选择"),
    "discard": gettext_lazy("打牌"),
    "chi": gettext_lazy("吃"),
    "pung": gettext_lazy("碰"),
    "kong": gettext_lazy("明杠"),
    "concealed_kong": gettext_lazy("暗杠"),
    "added_kong": gettext_lazy("加杠"),
    "kong_completed": gettext_lazy("杠成"),
    "pass": gettext_lazy("过"),
    "ready": gettext_lazy("报听"),
    "swap": gettext_lazy("换牌"),
    "win_declined": gettext_lazy("胡加倍"),
    "timeout": gettext_lazy("超时"),
    "auto_play": gettext_lazy("托管"),
    "hand_ended": gettext_lazy("结束"),
}
"""Event kind (engine) → label shown in the record."""

_TILE_KEYS = ("tile", "tiles", "flower", "bonus_tile", "wild", "out", "win_tile")


def _tiles(data: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in _TILE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value:
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    return out


PHASE_LABELS = {
    "pre_deal": gettext_lazy("开局选择"),
    "double": gettext_lazy("加倍"),
    "turn": gettext_lazy("出牌"),
    "claim": gettext_lazy("吃碰杠和"),
    "rob": gettext_lazy("抢杠和"),
}


def _task_text(data: dict[str, Any], ruleset: str) -> str:
    """What a 任务加倍 task asks, as the table shows it (templates/.../center.html)."""
    task = data.get("kind")
    if task == "pung":
        return _("和牌时有这张牌的刻子")
    if task == "kong":
        return _("开过杠后和牌")
    if task == "fan":
        return _("以「%(fan)s」和牌") % {"fan": fan_name(data.get("fan"), ruleset)}
    return _("加倍后和牌")


def _join(items: Any) -> str:
    """Join names or choices with the language's list separator (、 / , )."""
    return pgettext("list separator", "、").join(items)


def _note(
    kind: str,
    data: dict[str, Any],
    names: dict[int, str] | None = None,
    ruleset: str = "",
) -> str:
    if kind == "prompt":
        phase = str(PHASE_LABELS.get(str(data.get("phase")), data.get("phase", "")))
        who = _join((names or {}).get(s, str(s)) for s in data.get("seats") or ())
        return _("%(who)s：%(what)s") % {"who": who, "what": phase} if who else phase
    if kind == "draw" and data.get("replacement"):
        return _("从牌尾补")
    if kind == "pre_deal_choice":
        parts = []
        if data.get("open_hand"):
            parts.append(_("明牌"))
        if data.get("double"):
            parts.append(_("加倍"))
        return _join(parts) or _("不选")
    if kind == "double_choice":
        return _("加倍") if data.get("double") else _("不加倍")
    if kind == "auto_play":
        return _("开") if data.get("on") else _("关")
    if kind == "discard" and data.get("auto"):
        return _("自动")
    if kind == "ready" and data.get("heavenly"):
        return _("天听")
    if kind == "task":
        return f"{_task_text(data, ruleset)} ×{data.get('factor', 2)}"
    if kind == "hand_ended":
        if data.get("winner") is None:
            return _("流局")
        fan = total_fan(data.get("settlement") or {}, data)
        return _("和牌 %(fan)s 番") % {"fan": fan}
    return ""


def record_context(record: HandRecord) -> dict[str, Any]:
    """Rows and final hands of an ended hand ``record`` (the replay page's
    event list; the page of a hand without a log).

    Keys: ``record``, ``players`` [{seat, nickname}], ``rows``
    [{seq, at (seconds since the first event), kind, label, seat, who, tiles,
    note}], ``hands`` [{nickname, tiles, melds, flowers}] (both hands at the
    end; ``flowers`` are the seat's 花牌 set aside by its ``flower`` events),
    ``result`` (the engine's result dict), ``settlement``, ``total_fan``
    (总番数: the settlement's total after the doubling shares, not the
    scorer's 番种合计).
    """
    log = selectors.hand_log(record)
    names: dict[int, str] = {}
    for seat, uid in ((0, record.seat0_id), (1, record.seat1_id)):
        profile = Profile.objects.filter(user_id=uid).first() if uid else None
        names[seat] = (
            profile.nickname
            if profile
            else bot_name(record.table.bot_level if record.table_id else None)
        )
    start = log[0]["at"] if log else 0.0
    rows = []
    hands: list[dict[str, Any]] = []
    flowers: dict[int, list[str]] = {0: [], 1: []}
    for e in log:
        data = e["data"] or {}
        kind = e["kind"]
        seat = e["seat"]
        if kind == "flower" and seat in flowers and data.get("flower"):
            flowers[seat].append(str(data["flower"]))
        rows.append(
            {
                "seq": e["seq"],
                "at": max(0.0, float(e["at"] or 0.0) - float(start or 0.0)),
                "kind": kind,
                "label": KIND_LABELS.get(kind, kind),
                "seat": seat,
                "who": names.get(seat, "") if seat is not None else "",
                "tiles": _tiles(data) if kind != "hand_ended" else [],
                "note": _note(kind, data, names, record.ruleset),
            }
        )
        if kind == "hand_ended":
            for s in (0, 1):
                hand_tiles = (data.get("hands") or [[], []])[s]
                melds = []
                for m in (data.get("melds") or [[], []])[s]:
                    # "pung:111z" → kind, tiles
                    mk, _sep, notation = str(m).partition(":")
                    melds.append({"kind": mk, "tiles": _split(notation)})
                hands.append(
                    {
                        "nickname": names[s],
                        "tiles": hand_tiles,
                        "melds": melds,
                        "flowers": list(flowers[s]),
                    }
                )
    result = record.result or {}
    settlement = record.settlement or result.get("settlement")
    return {
        "record": record,
        "players": [{"seat": s, "nickname": names[s]} for s in (0, 1)],
        "rows": rows,
        "hands": hands,
        "result": result,
        "settlement": settlement,
        "total_fan": total_fan(settlement or {}, result),
    }


def _split(notation: str) -> list[str]:
    """``"111z"`` → ``["1z", "1z", "1z"]``; ``"1m2m3m"`` also works."""
    from games.rules.errors import NotationError
    from games.rules.tiles import parse_tiles

    try:
        return [str(t) for t in parse_tiles(notation)]
    except NotationError:
        return []
