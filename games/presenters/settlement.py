"""The settlement panel as one seat sees it (``settlement``), for the live
table and the replay's last step.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.db.models import Q
from django.dispatch import receiver
from django.urls import NoReverseMatch, get_script_prefix, reverse

from games.engine.hand import Hand
from games.engine.settle import SHARE_LINES
from games.models import HandRecord, Table
from games.rules.rulesets import get as get_ruleset

from .players import level_info
from .seats import side_of


def record_url(hand_id: int | None) -> str | None:
    """The hand's record page (every frame shows it)."""
    if hand_id is None:
        return None
    return _record_url(get_script_prefix(), hand_id)


# Bound: 4,096 (script prefix, hand) pairs (a live table shows one hand at
# a time).  Why: every frame shows it; ``reverse`` costs 26 µs, this 1.6.
# The prefix is in the key because ``reverse`` reads it (thread-local); a
# changed URLconf (tests) forgets them all.
@lru_cache(maxsize=4096)
def _record_url(prefix: str, hand_id: int) -> str:
    try:
        return reverse("games:hand_record", args=[hand_id])
    except NoReverseMatch:
        return f"/hands/{hand_id}/"


@receiver(setting_changed)
def _forget_record_urls(*, setting: str, **kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":
        _record_url.cache_clear()


def settlement_view(
    *,
    result: dict[str, Any] | None,
    settlement: dict[str, Any] | None,
    seat: int,
    practice: bool,
    annulled: bool,
    ruleset: str,
) -> dict[str, Any]:
    """The settlement as ``seat`` sees it: the part of the panel's context
    (``settlement`` in the module docstring) that needs no table.

    ``result`` and ``settlement`` are a hand's stored ones
    (``HandRecord.result`` / ``.settlement``, or an exported file's).  Used by
    the live table's panel and by the replay's last step, so both show the
    same thing.  ``ruleset``: the hand's rule set's name; the 自摸 ×1 line
    (自摸不加倍) is left out where that is no rule of the game
    (``RuleSet.self_drawn_rule``).
    """
    result = result or {}
    st = settlement or result.get("settlement") or {}
    other = 1 - seat
    deltas = st.get("deltas") or [0, 0]
    skill = st.get("skill") or [0, 0]
    if practice:
        deltas, skill = [0, 0], [0, 0]
    hands = result.get("hands") or [[], []]
    return {
        "result": "win" if result.get("winner") is not None else "draw",
        "reason": result.get("reason"),
        "annulled": annulled,
        "winner": side_of(result.get("winner"), seat),
        "self_drawn": bool(result.get("self_drawn")),
        "win_tile": result.get("win_tile"),
        "fans": [
            {k: f.get(k) for k in ("id", "zh", "en", "points", "count")}
            for f in result.get("fans", [])
            if isinstance(f, dict) and f.get("counted", True)
        ],
        "fan_total": result.get("fan_total", 0),
        # 总番数: the settlement's total after seed 000's doubling shares
        # (开始加倍, 胡加倍, 任务); the header shows the same number
        "total_fan": total_fan(st, result),
        # the shares 总番数 adds up (shown "32 + 36 + 32 = 100")
        "fan_shares": fan_shares(st.get("lines") or ()),
        "lines": seat_notes(_stated(st.get("lines", []), ruleset), seat),
        "coins": {"me": deltas[seat], "opponent": deltas[other]},
        "skill": {"me": skill[seat], "opponent": skill[other]},
        "practice": practice,
        "hands": {
            "me": hands[seat] if len(hands) > seat else [],
            "opponent": hands[other] if len(hands) > other else [],
        },
        "task_done": bool(result.get("task_done")),
        "rating": {"me": None, "opponent": None},
        "level_up": None,
    }


def table_settlement(
    table: Table, record: HandRecord, hand: Hand | None, seat: int
) -> dict[str, Any]:
    other = 1 - seat
    votes = table.continue_votes or []
    rated = _rating_changes(record)
    out = settlement_view(
        result=record.result,
        settlement=record.settlement,
        seat=seat,
        practice=record.practice,
        annulled=record.status == HandRecord.Status.ANNULLED,
        ruleset=record.ruleset,
    )
    out.update(
        {
            "seed": record.seed or None,
            "commitment": record.commitment,
            "hand_id": record.pk,
            "record_url": record_url(record.pk),
            "countdown": (
                int(table.settle_deadline.timestamp() * 1000)
                if table.settle_deadline
                else None
            ),
            # the whole countdown (ms), so a reload shows the bar where it
            # is instead of full again (games.services.settlement)
            "countdown_total": _settle_ms(record),
            "continue_voted": {"me": seat in votes, "opponent": other in votes},
            "closed": (
                {
                    "reason": table.closed_reason or None,
                    "by": side_of(table.closed_seat, seat),
                }
                if table.status == Table.Status.CLOSED
                else None
            ),
            "goto": _goto(table, seat),
            "rating": {"me": rated.get(seat), "opponent": rated.get(other)},
        }
    )
    return out


def _settle_ms(record: HandRecord) -> int:
    """The settlement countdown's whole length in ms (as ``_begin_settling``)."""

    seconds = (
        settings.MAHJONG_SETTLEMENT_SECONDS
        or get_ruleset(record.ruleset).timers.settlement
    )
    return int(seconds * 1000)


def _stated(lines: list[Any], ruleset: str) -> list[Any]:
    """``lines`` without the 自摸 ×1 line unless the rule set states how a
    self-drawn win pays (``RuleSet.self_drawn_rule``)."""
    try:
        rs = get_ruleset(ruleset)
    except KeyError:  # a rule set no longer known: show what was stored
        return lines
    if rs.self_drawn_rule:
        return lines
    return [
        line
        for line in lines
        if not (
            isinstance(line, dict)
            and line.get("key") == "self_drawn"
            and line.get("value") == 1
        )
    ]


def seat_notes(lines: list[Any], seat: int) -> list[Any]:
    """Settlement lines with their seat notes (``seat_0`` …) said from this
    seat's side (``mine`` / ``theirs``: 你 / 对手), not as seat numbers."""
    out = []
    for line in lines:
        code = line.get("note_code") if isinstance(line, dict) else None
        if code in ("seat_0", "seat_1"):
            mine = int(code[-1]) == seat
            line = dict(line, note_code="mine" if mine else "theirs")
        out.append(line)
    return out


def fan_shares(lines: Any) -> list[int]:
    """The values of the doubling shares (``SHARE_LINES``) the settlement's
    总番数 is the sum of, in order; empty when fewer than two (one share is
    the total itself, so there is nothing to add up)."""
    values = {
        line.get("key"): int(line.get("value") or 0)
        for line in lines
        if isinstance(line, dict) and line.get("key") in SHARE_LINES
    }
    shares = [values[key] for key in SHARE_LINES if key in values]
    return shares if len(shares) > 1 else []


def total_fan(st: dict[str, Any], result: dict[str, Any]) -> int:
    """总番数 of a settled hand: the settlement's ``fan`` line (the fan table
    after the doubling shares, games.engine.settle), else the scorer's total."""
    for line in st.get("lines") or ():
        if isinstance(line, dict) and line.get("key") == "fan":
            return int(line.get("value") or 0)
    return int(st.get("fan") or result.get("fan_total") or 0)


def _rating_changes(record: HandRecord) -> dict[int, dict[str, Any]]:
    """Per seat, the skill rating after the hand and its change (rated hands)."""
    from games.models import HandSeat

    rows = HandSeat.objects.filter(hand_id=record.pk, rating_after__isnull=False)
    return {
        # rating_after__isnull=False: ``after`` is a float (the stubs allow None)
        seat: {
            "after": round(after),  # type: ignore[arg-type]
            "change": round(after - (before or after)),  # type: ignore[operator]
        }
        for seat, before, after in rows.values_list(
            "seat", "rating_before", "rating_after"
        )
    }


def add_level_up(ctx: dict[str, Any]) -> None:
    """Mark the settlement when this hand lifted the player to a new level (升级!).

    The profile is read after the settlement, so the level before is the one
    of ``points - this hand's points``.
    """
    st = ctx.get("settlement")
    me = (ctx.get("players") or {}).get("me") or {}
    if not st or st.get("practice") or me.get("rating") is None:
        return
    gained = int((st.get("skill") or {}).get("me") or 0)
    after = me.get("level_info")
    before = level_info(int(me["rating"]) - gained)
    if gained > 0 and after and before and after["name"] != before["name"]:
        st["level_up"] = after


def _goto(table: Table, seat: int) -> str | None:
    """Where a browser on the closed ``table`` should go: the seat's player's
    own open table if they sit at another one now (分组, or the settlement
    countdown put a 继续 voter back into matchmaking), else None (the
    template sends it to the lobby once the countdown has run out)."""
    if table.status != Table.Status.CLOSED:
        return None
    uid = table.seat_user_id(seat)
    if uid is None:
        return None
    from games.services.tables import OPEN

    other = (
        Table.objects.filter(Q(seat0_id=uid) | Q(seat1_id=uid), status__in=OPEN)
        .exclude(pk=table.pk)
        .order_by("-id")
        .values_list("pk", flat=True)
        .first()
    )
    if other is None:
        return None
    try:
        return reverse("games:table", args=[other])
    except NoReverseMatch:
        return f"/table/{other}/"
