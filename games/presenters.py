"""What one seat sees: the template context and the rendered frame.

:func:`seat_context` builds, from ``Hand.view(seat)`` and the table, the
context of the Jinja2 template ``games/partials/frame.html``
(``templates/jinja2/``); :func:`render_frame`
renders it.  Each seat's consumer calls :func:`render_frame` after every
event, so a browser only ever receives what its own seat may see (the engine's
``view`` never holds the wall, the seed before the end, or the opponent's
concealed tiles except under 明牌).

Context keys (the contract with the templates; tiles are notation strings
such as ``"5m"``, times are epoch milliseconds):

``table``        {id, kind, status, closed_reason, room {name, stake}, ruleset,
                  practice, ws_url, record_url (current hand's record page),
                  commitment (the current hand's seed commitment, hex, or None)}
``seat``         this seat (0/1)
``seq``          the sequence number the next action answers (send it back);
                 under the veil, the seq of the claim prompt that followed
                 the seat's discard (the same whether or not a claim was
                 possible)
``phase``        ``waiting`` (no hand yet / opponent to join), ``pre_deal``,
                 ``double``, ``turn``, ``claim``, ``rob``, ``ended``; to the
                 seat that just discarded, the opponent's claim window and its
                 draw look alike (``turn`` of the opponent, no deadline) for a
                 short random moment (the veil, see games.services.play)
``my_turn``      this seat must act now (a prompt is open for it)
``turn``         "me" / "opponent" / None: whose move the table waits for
``players``      {me, opponent}: each {seat, nickname, level (name or None),
                 balance (None for the bot), rating, wind ("1z"), wind_zh
                 ("东"), dealer (bool), is_bot, auto_play, ready, open_hand,
                 start_double, deal_double, win_doubles, swaps}
``me``           {tiles (standing, sorted, without the drawn one), drawn
                 (tile or None, shown apart at the right), count, melds
                 [{kind, tiles (list or None when face down)}], discards,
                 flowers, swapped}
``opponent``     {count, tiles (list only under 明牌 or after the end, else
                 None), drawn (same rule), melds, discards, flowers}
``last_discard`` {seat: "me"/"opponent", tile, index (position in that pool)}
                 or None
``wall_count``   tiles left to draw
``round_wind``   "1z".."4z";  ``indicators`` {bonus_tile (加番牌), wild (财神)}
``task``         {kind, tile, fan, factor} (任务) or None
``task_state``   how this seat stands with it (games.engine.task.task_state:
                 met, missed, ready, open, at_win) or None
``short_win``    [{tile, fan, needed}]: tiles since this seat's last action
                 that completed its hand below the minimum fan (the table
                 says "only N fan, M needed" instead of offering 和)
``callout``      the latest call since the last discard for the call-out
                 animation and sound: {id, kind chi|pung|kong|hu|zimo, who}
                 or None (None under the veil)
``stakes``       seed 002's live 倍数 where 明牌/加倍 exist: {multiplier,
                 parts [{key open_hand|deal_double, who, factor}],
                 ready_win (听牌胡 factor or None), open_factor} or None
``pool``         {limit, me, opponent}: discard pool sizes where a full pool
                 ends the hand (youxi), else None
``systems``      the rule set's systems (``ready``, ``swap``, ``win_double`` ...)
``deadline``     {at (ms), seconds (the phase's full time, for the bar),
                  seat: "me"/"opponent"} or None
``now``          server time (ms) when rendered, to correct the client's clock
``actions``      buttons for this seat (empty/False when it is not asked):
                 discard (bool: clicking a tile discards it),
                 discard_waits {tile: [{tile, left}]} (waits each discard
                 would leave; only tenpai-leaving discards are listed),
                 chi [{tiles: "345m", list: ["3m","4m","5m"]}], pung (bool),
                 kong [{tile, kind: kong|concealed_kong|added_kong}],
                 hu (bool), pass (bool),
                 ting [{tile (discard, or None for 报听 without discard),
                 waits [{tile, left}]}],
                 auto {on (current 托管 state), available},
                 pre_deal {open (明牌 offered), double (开始加倍 offered)} or None,
                 double (加倍 prompt after the deal),
                 swap {tiles, used, max, free (the next swap is free)} or None,
                 win_double {count, max, next, plus, factor} or None (when
                 hu is offered, the rule set has 胡加倍 and the cap is not
                 reached: declining the win raises the count to ``next``,
                 a later win scoring (底番 + plus) × factor)
``tenpai``       {waits [{tile, left}]} for a waiting hand, else None
``settlement``   None until the end, then {result "win"|"draw", reason,
                 winner "me"/"opponent"/None, self_drawn, win_tile,
                 fans [{id, zh, en, points, count}], fan_total (番种合计,
                 the scorer's sum), total_fan (总番数 after 开始加倍 / 胡加倍 /
                 任务, the header's figure),
                 lines [{key, zh, en, value, note}] (multipliers, cap, rake...),
                 coins {me, opponent}, skill {me, opponent}, practice,
                 hands {me, opponent} (both hands open), seed, commitment,
                 hand_id, record_url, countdown (ms epoch when the table
                 returns players to the lobby), continue_voted {me, opponent},
                 closed (a closed table: {reason left|regroup|timeout|balance|
                 removed or None, by "me"/"opponent"/None: whose leaving
                 closed it}, else None),
                 goto (closed table: this player's new table URL, else None;
                 the lobby once ``now`` passes ``countdown``), task_done
                 (the winner completed the 任务), annulled (bool: 系统断线 和局)}
``match``        {hands_played, wins {me, opponent}}
``toast``        a message to show once (refusals), or None
``bot_offer``    a 快速开始 table has waited long enough: offer a bot
                 (the browser sends ``{"action": "accept_bot"}``)
``away``         the opponent's connection dropped (no live socket, see
                 games.presence) while a hand is played or settled (the
                 notice itself is shown only while a hand is played):
                 {since (ms), until (ms: the grace ends, then 托管), left
                 (whole seconds to ``until``)}, else None (issue 11 §4)
``timeout_notice`` the latest discard was made by a turn timeout:
                 {id ("<hand>:<seq>"), who "me"/"opponent", tile}, else None

Table-level requests the browser may send (no engine seq needed):
``continue`` (继续), ``regroup`` (分组), ``leave`` (back to the lobby),
``accept_bot``, ``sync`` (send my frame again).  A closed table has
``table.status == "closed"``: show the way back to the lobby.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery
from django.template import TemplateDoesNotExist, engines
from django.urls import NoReverseMatch, reverse
from django.utils.html import escape
from django.utils.translation import gettext

from accounts.models import Profile
from accounts.selectors import level_scheme_active
from games.engine import analysis
from games.engine.hand import Hand
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import ALL_TILES, NUM_KINDS, Tile
from games.templatetags.mj_table import bot_name
from mahjong_site.language import pinned_language

from .models import HandRecord, Table

log = logging.getLogger(__name__)

FRAME_TEMPLATE = "games/partials/frame.html"

WIND_ZH = {"1z": "东", "2z": "南", "3z": "西", "4z": "北"}


def _who(seat: int | None, me: int) -> str | None:
    if seat is None:
        return None
    return "me" if seat == me else "opponent"


def _record_url(hand_id: int | None) -> str | None:
    if hand_id is None:
        return None
    try:
        return reverse("games:hand_record", args=[hand_id])
    except NoReverseMatch:
        return f"/hands/{hand_id}/"


_LEVELS: tuple[float, list[tuple[int, str, str]]] = (0.0, [])
LEVELS_TTL = 60.0


def _level_info(points: int) -> dict[str, Any] | None:
    """The active scheme's level for ``points`` and the progress to the next.

    As ``accounts.selectors.level_progress``, from a per-process copy of the
    levels refreshed every minute (frames are rendered after every event and
    the scheme changes rarely).  Shape: ``{name, badge (static URL), fraction
    0..1, next (name or None), to_next (points or None)}``; None without a
    scheme.
    """
    from django.templatetags.static import static

    from accounts.badges import badge_path

    global _LEVELS
    fetched, levels = _LEVELS
    if time.monotonic() - fetched > LEVELS_TTL:
        scheme = level_scheme_active()
        levels = (
            [
                (lv.min_points, lv.name, static(badge_path(lv)))
                for lv in scheme.levels.select_related("scheme").order_by("min_points")
            ]
            if scheme
            else []
        )
        _LEVELS = (time.monotonic(), levels)
    if not levels:
        return None
    i = 0
    for j, (min_points, _name, _badge) in enumerate(levels):
        if points >= min_points:
            i = j
    min_points, name, badge = levels[i]
    nxt = levels[i + 1] if i + 1 < len(levels) else None
    fraction = 1.0
    if nxt is not None:
        span = nxt[0] - min_points
        fraction = min(max(points - min_points, 0), span) / span
    return {
        "name": name,
        "badge": badge,
        "fraction": fraction,
        "next": nxt[1] if nxt else None,
        "to_next": nxt[0] - points if nxt else None,
    }


def _level_name(points: int) -> str | None:
    info = _level_info(points)
    return info["name"] if info else None


_PROFILES: OrderedDict[tuple[Any, ...], dict[int, Profile]] = OrderedDict()
_PROFILES_SIZE = 4096
_PROFILES_LOCK = threading.Lock()


def _profiles(table: Table) -> dict[int, Profile]:
    """The seated players' profiles, from a per-process copy while a hand runs.

    Frames are rendered after every event, but what they show of a profile
    (nickname, level, 游戏币) changes only when a hand is settled — or through
    the profile page or admin, which shows at the next hand.  So the copy is
    keyed by the table's seats, its hand and that hand's status and is read
    again whenever any of them changes (a hand starts, ends or is annulled).
    """
    record = table.hand if table.hand_id is not None else None
    key = (
        table.pk,
        table.seat0_id,
        table.seat1_id,
        table.hand_id,
        record.status if record is not None else None,
        table.status,
    )
    live = record is not None and record.status == HandRecord.Status.LIVE
    if live:
        with _PROFILES_LOCK:
            cached = _PROFILES.get(key)
            if cached is not None:
                _PROFILES.move_to_end(key)
                return cached
    from leaderboard.models import OVERALL, PlayerStats

    ids = [u for u in (table.seat0_id, table.seat1_id) if u is not None]
    stats = PlayerStats.objects.filter(user_id=OuterRef("user_id"), ruleset=OVERALL)
    found = {
        p.user_id: p
        for p in Profile.objects.filter(user_id__in=ids).annotate(
            skill=Subquery(stats.values("rating")[:1]),
            skill_deviation=Subquery(stats.values("deviation")[:1]),
        )
    }
    if live:
        with _PROFILES_LOCK:
            _PROFILES[key] = found
            while len(_PROFILES) > _PROFILES_SIZE:
                _PROFILES.popitem(last=False)
    return found


def clear_profile_cache() -> None:
    """Forget the per-process profile copies (tests; after a bulk change)."""
    with _PROFILES_LOCK:
        _PROFILES.clear()


def _player(
    table: Table,
    seat: int,
    side: dict[str, Any] | None,
    profiles: dict[int, Profile] | None = None,
) -> dict[str, Any]:
    user_id = table.seat_user_id(seat)
    if profiles is None:
        profiles = _profiles(table)
    profile = profiles.get(user_id) if user_id is not None else None
    side = side or {}
    if profile is None:
        bot = not table.is_human(seat)
        # one name for the computer everywhere (lobby, records, seed_demo)
        nickname = bot_name(table.bot_level) if bot else gettext("等待入座")
        level = balance = rating = info = skill = None
        provisional = True
    else:
        from leaderboard.rating import is_provisional

        bot = profile.is_bot or not table.is_human(seat)
        nickname = profile.nickname
        info = _level_info(profile.rating_points)
        level = info["name"] if info else None
        balance, rating = profile.coins, profile.rating_points
        raw = getattr(profile, "skill", None)
        skill = round(raw) if raw is not None else None
        provisional = is_provisional(getattr(profile, "skill_deviation", None) or 350.0)
    wind = side.get("wind")
    return {
        "seat": seat,
        "nickname": nickname,
        "level": level,
        "level_info": info,
        "balance": balance,
        "rating": rating,
        "skill": skill,
        "provisional": provisional,
        "wind": wind,
        "wind_zh": WIND_ZH.get(wind or "", ""),
        "dealer": False,
        "is_bot": bot,
        "auto_play": bool(side.get("auto_play")),
        # suspended or banned during the hand: 托管 finishes it, never winning
        "removed": table.status == Table.Status.PLAYING
        and table.closed_reason == "removed"
        and table.closed_seat == seat,
        "ready": bool(side.get("ready")),
        "open_hand": bool(side.get("open_hand")),
        "start_double": bool(side.get("start_double")),
        "deal_double": bool(side.get("deal_double")),
        "win_doubles": int(side.get("win_doubles") or 0),
        "swaps": int(side.get("swaps") or 0),
    }


def _visible_counts(view: dict[str, Any]) -> list[int]:
    """Per kind, the copies this seat can see (for 'how many are left')."""
    seen = [0] * NUM_KINDS

    def add(text: str | None) -> None:
        if text:
            i = Tile.parse(text).index
            if i < NUM_KINDS:
                seen[i] += 1

    for key in ("me", "opponent"):
        side = view[key]
        for t in side.get("concealed") or ():
            add(t)
        add(side.get("drawn"))
        for m in side["melds"]:
            for t in m["tiles"] or ():
                add(t)
        for t in side["discards"]:
            add(t)
    add(view["indicators"].get("wild"))
    return [min(n, 4) for n in seen]


def _waits(
    hand: Hand, seat: int, counts: list[int], seen: list[int]
) -> list[dict[str, Any]]:
    s = hand.state
    kinds = analysis.hand_waits(counts, len(s.melds[seat]), s.wild, hand.ruleset)
    return [{"tile": str(ALL_TILES[k]), "left": max(0, 4 - seen[k])} for k in kinds]


def _actions(
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
            w = _waits(hand, seat, counts, seen)
            counts[i] += 1
            if w:
                discard_waits[t] = w
    ting = []
    for a in legal:
        if a["kind"] != "ready":
            continue
        if a["tile"] is None:
            ting.append({"tile": None, "waits": _waits(hand, seat, counts, seen)})
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
    return {
        "count": count,
        "max": rs.max_win_doubles,
        "next": n,
        "plus": 2 * n,
        "factor": 2**n,
    }


def _stakes(rs: Any, view: dict[str, Any], seat: int) -> dict[str, Any] | None:
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
        "parts": [{"key": k, "who": _who(i, seat), "factor": f} for k, i, f in parts],
        "ready_win": ready,
        "open_factor": int(
            rs.multipliers.get("open_hand", DEFAULT_FACTORS["open_hand"])
        ),
    }


def _pool(rs: Any, me: dict[str, Any], opp: dict[str, Any]) -> dict[str, Any] | None:
    """youxi's 流局 when a discard pool is full (seed 000 优嘻网 "有一家牌池占满后
    无人和牌，则为流局"): ``{limit, me, opponent}`` pool sizes; None elsewhere."""
    if rs.full_discard_pool is None:
        return None
    return {
        "limit": rs.full_discard_pool,
        "me": len(me["discards"]),
        "opponent": len(opp["discards"]),
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


def _veiled(table: Table, seat: int, hand: Hand, now: float) -> dict[str, Any] | None:
    from .services.veil import active_veil

    return active_veil(table, seat, hand, now)


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {
        "count": side["concealed_count"],
        "tiles": side.get("concealed"),
        "drawn": side.get("drawn"),
        "melds": side["melds"],
        "discards": side["discards"],
        "flowers": side["flowers"],
        "swapped": side.get("swapped"),
    }


def settlement_view(
    *,
    result: dict[str, Any] | None,
    settlement: dict[str, Any] | None,
    seat: int,
    practice: bool,
    annulled: bool,
) -> dict[str, Any]:
    """The settlement as ``seat`` sees it: the part of the panel's context
    (``settlement`` in the module docstring) that needs no table.

    ``result`` and ``settlement`` are a hand's stored ones
    (``HandRecord.result`` / ``.settlement``, or an exported file's).  Used by
    the live table's panel and by the replay's last step, so both show the
    same thing.
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
        "winner": _who(result.get("winner"), seat),
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
        "total_fan": _total_fan(st, result),
        "lines": _seat_notes(st.get("lines", []), seat),
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


def _settlement(
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
    )
    out.update(
        {
            "seed": record.seed or None,
            "commitment": record.commitment,
            "hand_id": record.pk,
            "record_url": _record_url(record.pk),
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
                    "by": _who(table.closed_seat, seat),
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
    from django.conf import settings

    from games.rules.rulesets import get as get_ruleset

    seconds = (
        settings.MAHJONG_SETTLEMENT_SECONDS
        or get_ruleset(record.ruleset).timers.settlement
    )
    return int(seconds * 1000)


def _seat_notes(lines: list[Any], seat: int) -> list[Any]:
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


def _total_fan(st: dict[str, Any], result: dict[str, Any]) -> int:
    """总番数 of a settled hand: the settlement's ``fan`` line (the fan table
    after the doubling shares, games.engine.settle), else the scorer's total."""
    for line in st.get("lines") or ():
        if isinstance(line, dict) and line.get("key") == "fan":
            return int(line.get("value") or 0)
    return int(st.get("fan") or result.get("fan_total") or 0)


def _rating_changes(record: HandRecord) -> dict[int, dict[str, Any]]:
    """Per seat, the skill rating after the hand and its change (rated hands)."""
    from .models import HandSeat

    rows = HandSeat.objects.filter(hand_id=record.pk, rating_after__isnull=False)
    return {
        seat: {"after": round(after), "change": round(after - (before or after))}
        for seat, before, after in rows.values_list(
            "seat", "rating_before", "rating_after"
        )
    }


def _add_level_up(ctx: dict[str, Any]) -> None:
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
    before = _level_info(int(me["rating"]) - gained)
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
    from .services.tables import OPEN

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


def seat_context(
    table: Table,
    seat: int,
    *,
    user: Any = None,
    hand: Hand | None = None,
    now: float | None = None,
    toast: str | None = None,
) -> dict[str, Any]:
    """Build the frame context of ``seat`` at ``table`` (keys: module docstring).

    ``hand`` is the live hand if the caller has it (else it is loaded from the
    cache or the log); ``now`` is epoch seconds (default: the clock).
    ``user`` is accepted for the contract and not needed: the seat decides
    what is shown.

    Raises:
        ValueError: ``seat`` is not 0 or 1.
    """
    from .services.hands import HandUnavailableError, hand_lock, load_hand
    from .services.unplayable import annul_unplayable, is_evaluation_error

    if seat not in (0, 1):
        raise ValueError("seat must be 0 or 1")
    now = time.time() if now is None else now
    record = table.hand
    rs = get_ruleset(record.ruleset if record else table.room.ruleset)
    ctx: dict[str, Any] = {
        "table": {
            "id": table.pk,
            "kind": table.kind,
            "status": table.status,
            "closed_reason": table.closed_reason,
            "room": {"name": table.room.name, "stake": table.room.stake},
            "ruleset": rs.name,
            "ruleset_zh": rs.zh,
            "practice": table.is_bot,
            "ws_url": f"/ws/table/{table.pk}/",
            "record_url": _record_url(record.pk if record else None),
            "invite_token": table.invite_token if table.kind == "friend" else None,
            # the seed's SHA-256 commitment, published from the deal (never the seed)
            "commitment": record.commitment if record else None,
        },
        "seat": seat,
        "seq": table.seq,
        "now": int(now * 1000),
        "toast": toast,
        "systems": sorted(s.value for s in rs.systems),
        "match": None,
        "bot_offer": (
            table.status == Table.Status.WAITING
            and table.kind == Table.Kind.QUICK
            and now >= table.created.timestamp() + settings.MAHJONG_BOT_OFFER_AFTER
        ),
    }
    ctx["away"] = _opponent_away(table, seat, now)
    ctx["timeout_notice"] = None
    if table.match is not None:
        wins = table.match.wins or [0, 0]
        ctx["match"] = {
            "hands_played": table.match.hands_played,
            "wins": {"me": wins[seat], "opponent": wins[1 - seat]},
        }
    view: dict[str, Any] | None = None
    veil: dict[str, Any] | None = None
    broken: str | None = None
    if record is not None and record.status != HandRecord.Status.ANNULLED:
        with hand_lock(record.pk):
            try:
                hand = hand if hand is not None else load_hand(record, seq=table.seq)
            except HandUnavailableError:
                hand = None
            if hand is not None:
                try:
                    veil = _veiled(table, seat, hand, now)
                    if veil and veil.get("kind") == "rob":
                        # the table as the ROB window opened, the same in
                        # both cases (games.services.veil)
                        hand = load_hand(record, seq=int(veil["at"]))
                    view = hand.view(seat)
                    seen = _visible_counts(view)
                    actions = (
                        _actions(hand, seat, view, seen)
                        if not veil
                        else dict(NO_ACTIONS)
                    )
                    if veil:
                        actions["auto"] = {
                            "on": hand.state.auto[seat],
                            "available": veil.get("kind") != "rob",
                        }
                        # the claim prompt's seq, the same whether or not the
                        # opponent could claim (see games.services.play)
                        ctx["seq"] = int(veil["shown"])
                    tenpai = None
                    s = hand.state
                    counts = s.concealed[seat]
                    if sum(counts) + 3 * len(s.melds[seat]) == 13:
                        w = _waits(hand, seat, list(counts), seen)
                        tenpai = {"waits": w} if w else None
                except Exception as exc:  # any failure would freeze the table
                    if not is_evaluation_error(exc):
                        raise
                    log.exception("table %s: seat %s cannot be shown", table.pk, seat)
                    broken = f"frame of seat {seat}: {type(exc).__name__}: {exc}"
    if broken is not None and record is not None:
        # issue 11 §5.1: never a dead table (500, closed sockets, a lobby
        # sending players back to it): annul the hand, then show that
        annul_unplayable(table_id=table.pk, hand_id=record.pk, reason=broken, now=now)
        fresh = (
            Table.objects.select_related("room", "hand", "match")
            .filter(pk=table.pk)
            .first()
        )
        annulled = HandRecord.Status.ANNULLED
        if fresh and fresh.hand_id == record.pk and fresh.hand.status == annulled:
            return seat_context(fresh, seat, user=user, now=now, toast=toast)
        view = None
    profiles = _profiles(table)
    players = {
        "me": _player(table, seat, view["me"] if view else None, profiles),
        "opponent": _player(
            table, 1 - seat, view["opponent"] if view else None, profiles
        ),
    }
    if view is None:
        ctx.update(
            phase="ended" if record is not None else "waiting",
            my_turn=False,
            turn=None,
            players=players,
            me=None,
            opponent=None,
            last_discard=None,
            wall_count=None,
            round_wind=None,
            indicators={"bonus_tile": None, "wild": None},
            task=None,
            task_state=None,
            short_win=[],
            callout=None,
            stakes=None,
            pool=None,
            deadline=None,
            actions=dict(NO_ACTIONS),
            tenpai=None,
            settlement=(
                _settlement(table, record, None, seat) if record is not None else None
            ),
        )
        if record is not None and record.result:
            hands = (record.result or {}).get("hands") or [[], []]
            ctx["me"] = {
                "tiles": hands[seat],
                "drawn": None,
                "melds": [],
                "discards": [],
                "flowers": [],
                "count": len(hands[seat]),
                "swapped": [],
            }
            ctx["opponent"] = {
                "tiles": hands[1 - seat],
                "drawn": None,
                "melds": [],
                "discards": [],
                "flowers": [],
                "count": len(hands[1 - seat]),
            }
        _add_level_up(ctx)
        return ctx

    assert hand is not None
    dealer = view["dealer"]
    players["me"]["dealer"] = dealer == seat
    players["opponent"]["dealer"] = dealer == 1 - seat
    me, opp = _side(view["me"]), _side(view["opponent"])
    phase = view["phase"]
    pending = view["pending"]
    turn = _who(view["turn"], seat) if phase not in ("pre_deal", "double") else None
    deadline = view["deadline"]
    wall_count = view["wall_count"]
    last = None
    if view["last_discard"] is not None:
        owner = 1 - view["turn"] if phase in ("claim",) else None
        if owner is not None:
            pool = view["me" if owner == seat else "opponent"]["discards"]
            last = {
                "seat": _who(owner, seat),
                "tile": view["last_discard"],
                "index": len(pool) - 1,
            }
    if last is None:
        last = _last_discard_from_log(hand, seat)
    veil_deadline = None
    if veil and veil.get("kind") != "rob":
        phase = "turn"
        turn = "opponent"
        deadline = None
        pending = []
        # the opponent's turn, timed from the discard in both cases
        veil_deadline = veil.get("deadline")
        wall_count = veil["wall_count"]
        opp["count"] = veil["opp_count"]
        opp["flowers"] = veil["opp_flowers"]
        last = {"seat": "me", "tile": veil["tile"], "index": len(me["discards"]) - 1}
    elif veil:  # ROB: the opponent's window on my 加杠, from the hand before it
        phase, turn, deadline, pending = "rob", "opponent", None, []
        veil_deadline = veil.get("deadline")
    timers = rs.timers
    seconds = {
        "pre_deal": timers.pre_deal,
        "double": timers.pre_deal,
        "turn": timers.discard,
        "claim": timers.claim,
        "rob": timers.claim,
    }.get(phase)
    deadline_ctx = None
    if deadline is not None and pending:
        deadline_ctx = {
            "at": int(deadline * 1000),
            "seconds": seconds,
            "seat": "me" if seat in pending else "opponent",
        }
    elif veil_deadline is not None:
        deadline_ctx = {
            "at": int(float(veil_deadline) * 1000),
            "seconds": seconds,
            "seat": "opponent",
        }
    ctx.update(
        phase=phase,
        my_turn=seat in pending,
        turn=turn,
        players=players,
        me=me,
        opponent=opp,
        last_discard=last,
        wall_count=wall_count,
        round_wind=view["round_wind"],
        indicators=view["indicators"],
        task=view["task"],
        task_state=view["task_state"],
        short_win=[] if veil else view.get("short_win") or [],
        # under the veil the discarder must not learn of a claim early
        callout=(
            {"id": f"{record.pk}:{veil['from']}", "kind": "kong", "who": "me"}
            if veil and veil.get("kind") == "rob" and record is not None
            else None
            if veil or record is None
            else _callout(hand, record.pk, seat)
        ),
        timeout_notice=(
            None
            if record is None or (veil and veil.get("kind") == "rob")
            else _own_timeout_notice(hand, record.pk, seat, int(veil["from"]))
            if veil
            else _timeout_notice(hand, record.pk, seat)
        ),
        stakes=_stakes(rs, view, seat),
        pool=_pool(rs, me, opp),
        deadline=deadline_ctx,
        actions=actions,
        tenpai=tenpai,
        settlement=(
            _settlement(table, record, hand, seat)
            if phase == "ended" and record is not None
            else None
        ),
    )
    _add_level_up(ctx)
    return ctx


CALLOUT_EVENTS = {
    "chi": "chi",
    "pung": "pung",
    "kong": "kong",
    "added_kong": "kong",
    "concealed_kong": "kong",
}
"""Log events that are a call the table shouts (吃 碰 杠); wins come from
``hand_ended`` (和, or 自摸 when self-drawn)."""


def _callout(hand: Hand, record_id: int, seat: int) -> dict[str, Any] | None:
    """The latest call since the last discard, for the call-out animation.

    ``{id ("<hand>:<seq>", new per call), kind chi|pung|kong|hu|zimo, who
    me|opponent}`` or None.  Only public facts: the kind and seat of the
    event (a 暗杠's tile stays hidden).  The browser shows each id once.
    """
    for ev in reversed(hand.events[-40:]):  # 补花 after a kong: up to 8 pairs
        if ev.kind == "hand_ended":
            winner = ev.payload.get("winner")
            if not isinstance(winner, int):
                return None
            kind = "zimo" if ev.payload.get("self_drawn") else "hu"
            who = _who(winner, seat)
        elif ev.kind in CALLOUT_EVENTS and ev.seat is not None:
            kind, who = CALLOUT_EVENTS[ev.kind], _who(ev.seat, seat)
        elif ev.kind == "discard":
            return None
        else:
            continue
        return {"id": f"{record_id}:{ev.seq}", "kind": kind, "who": who}
    return None


def _opponent_away(table: Table, seat: int, now: float) -> dict[str, Any] | None:
    """The opponent's disconnect as ``seat`` sees it (context key ``away``).

    From the row's ``away_since`` (set when the opponent's last socket closed
    or its presence expired, cleared when they are back): the grace ends
    ``MAHJONG_DISCONNECT_GRACE`` seconds after it, then 托管 plays for them
    (seed 000 异常处理).
    """
    other = 1 - seat
    if table.status not in (Table.Status.PLAYING, Table.Status.SETTLING):
        return None
    if not table.is_human(other):
        return None
    away = list(table.away_since or []) + [None, None]
    since = away[other]
    if since is None:
        return None
    until = float(since) + settings.MAHJONG_DISCONNECT_GRACE
    return {
        "since": int(float(since) * 1000),
        "until": int(until * 1000),
        "left": max(0, int(until - now + 0.999)),
    }


def _timeout_notice(hand: Hand, record_id: int, seat: int) -> dict[str, Any] | None:
    """The latest discard, if a turn timeout made it (context ``timeout_notice``).

    ``{id ("<hand>:<seq>" of the discard), who me|opponent, tile}`` or None.
    Public facts only: the discard is seen by both seats, and only a turn's
    timeout counts (a claim window's is never shown).
    """
    for ev in reversed(hand.events[-40:]):
        if ev.kind == "discard":
            return _timed_out_discard(hand, record_id, seat, ev.seq)
    return None


def _own_timeout_notice(
    hand: Hand, record_id: int, seat: int, discard_seq: int
) -> dict[str, Any] | None:
    """Under the claim veil: the notice of the seat's own discard at
    ``discard_seq`` (the veil's ``from``, the discard it shows), read from
    that discard and the event before it only — nothing after it, so nothing
    about a claim."""
    note = _timed_out_discard(hand, record_id, seat, discard_seq)
    return note if note is not None and note["who"] == "me" else None


def _timed_out_discard(
    hand: Hand, record_id: int, seat: int, discard_seq: int
) -> dict[str, Any] | None:
    """The notice for the discard at ``discard_seq`` if a turn timeout made it."""
    events = hand.events
    if not 2 <= discard_seq <= len(events):
        return None
    ev, before = events[discard_seq - 1], events[discard_seq - 2]
    if (
        ev.kind != "discard"
        or ev.seat is None
        or before.kind != "timeout"
        or before.seat != ev.seat
        or before.payload.get("phase") != "turn"
    ):
        return None
    tile = ev.payload.get("tile")
    if not isinstance(tile, str):
        return None
    return {"id": f"{record_id}:{ev.seq}", "who": _who(ev.seat, seat), "tile": tile}


def _last_discard_from_log(hand: Hand, seat: int) -> dict[str, Any] | None:
    """The most recent discard still lying in a pool, for the 'last' mark."""
    s = hand.state
    for ev in reversed(hand.events):
        if ev.kind in ("chi", "pung", "kong"):
            return None  # it was claimed
        if ev.kind == "discard" and ev.seat is not None:
            pool = s.discards[ev.seat]
            if not pool:
                return None
            return {
                "seat": _who(ev.seat, seat),
                "tile": str(ALL_TILES[pool[-1]]),
                "index": len(pool) - 1,
            }
    return None


def _fallback_frame(ctx: dict[str, Any]) -> str:
    """A plain frame used only while ``frame.html`` does not exist yet."""
    parts = [f'<div id="frame" data-seq="{ctx["seq"]}" data-phase="{ctx["phase"]}">']
    me = ctx.get("me") or {}
    tiles = list(me.get("tiles") or [])
    parts.append('<div id="my-hand" data-testid="my-hand">')
    parts += [f'<span data-tile="{escape(t)}">{escape(t)}</span>' for t in tiles]
    if me.get("drawn"):
        parts.append(f'<span data-tile="{escape(me["drawn"])}" class="drawn"></span>')
    parts.append("</div>")
    opp = ctx.get("opponent") or {}
    parts.append(f'<div id="opp-hand" data-count="{opp.get("count")}">')
    parts += [f'<span data-tile="{escape(t)}"></span>' for t in opp.get("tiles") or []]
    parts.append("</div>")
    acts = ctx["actions"]
    for name in ("pung", "hu", "pass", "double"):
        if acts.get(name):
            parts.append(f'<button data-action="{name}"></button>')
    if ctx.get("settlement"):
        st = ctx["settlement"]
        parts.append(
            '<div id="settlement" data-testid="settlement" '
            f'data-result="{st["result"]}">'
        )
        parts += [f'<div data-fan="{escape(f["id"])}"></div>' for f in st["fans"]]
        parts.append(f'<span data-testid="total-fan">{st["fan_total"]}</span></div>')
    parts.append("</div>")
    return "".join(parts)


def render_frame(
    table: Table,
    seat: int,
    *,
    user: Any = None,
    toast: str | None = None,
    now: float | None = None,
    hand: Hand | None = None,
) -> str:
    """Render ``seat``'s frame (hx-swap-oob fragments) after any event.

    Uses the Jinja2 template ``templates/jinja2/games/partials/frame.html``
    (taken from the Jinja2 engine directly: asking each engine in turn cost
    about a millisecond per frame); until that template exists a plain
    fallback with the same test hooks is rendered.  ``hand`` and ``now`` as in
    :func:`seat_context`.
    """
    ctx = seat_context(table, seat, user=user, toast=toast, now=now, hand=hand)
    try:
        template = engines["jinja2"].get_template(FRAME_TEMPLATE)
    except TemplateDoesNotExist:
        return _fallback_frame(ctx)
    with pinned_language():  # looked up a few hundred times per frame
        return template.render(ctx)


def render_toast(message: str) -> str:
    """The refusal fragment sent to one browser: ``<div id="toast" ...>``."""
    return (
        '<div id="toast" hx-swap-oob="true" role="alert" class="toast">'
        f"{escape(message)}</div>"
    )
