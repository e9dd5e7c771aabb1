"""A finished hand as a file: the JSON export and its import (schema 1).

The schema is documented in docs/hand-export.md.  :class:`HandFile` is what
the replay viewer works from, whether the hand comes from the database
(:func:`hand_file_from_record`) or from an uploaded file
(:func:`parse_hand_file`), so an exported and re-imported hand replays
identically.  Parsing checks the structure and every value's type and tile
notation and refuses anything else with a message for people.  The result
shown is never the file's word: it is the one the log's last event carries
(:func:`result_from_log`, which the engine's replay rebuilds from the seed
and the actions), and a file whose stored ``result``/``settlement`` differs
from it is refused.  Parsing does not decide whether the log is *true* — the
replay page's verification (seed, commitment, wall; the engine's replay)
says that.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from games.engine.events import Event
from games.engine.wall import COMMIT_PREFIXES, SHUFFLE_MT, wall_tiles
from games.rules.errors import NotationError
from games.rules.rulesets import NAMES as RULESET_NAMES
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import ALL_TILES, Tile

SCHEMA = "erren2-hand"
SCHEMA_VERSION = 1
MAX_BYTES = 1_000_000
"""Largest file accepted (a long hand is about 100 KB)."""
MAX_EVENTS = 2000

EVENT_KINDS = frozenset(
    {
        "hand_started",
        "prompt",
        "pre_deal_choice",
        "deal",
        "flower",
        "draw",
        "indicator",
        "task",
        "double_choice",
        "discard",
        "chi",
        "pung",
        "kong",
        "concealed_kong",
        "added_kong",
        "kong_completed",
        "pass",
        "ready",
        "swap",
        "win_declined",
        "timeout",
        "auto_play",
        "hand_ended",
    }
)
"""Every event kind the engine writes (games/engine/hand.py)."""

_TILE_FIELDS = ("tile", "flower", "bonus_tile", "wild", "wild_indicator", "out")
_TILE_LIST_FIELDS = ("tiles",)


class HandFileError(ValueError):
    """The file is not a hand this site can show; ``str()`` says why, for people."""


@dataclass(frozen=True)
class Player:
    """A seat's public name (nickname, or the computer's name) and whether a bot.

    ``level`` is set for the site's own computer opponent: its name is then
    :attr:`display` in the language of the page (``name`` is the one written
    to an export).
    """

    seat: int
    name: str
    bot: bool = False
    level: str | None = None

    @property
    def display(self) -> str:
        """The name to show now (the computer's in the active language)."""
        if self.level is not None:
            from games.display.names import bot_name

            return bot_name(self.level or None)
        return self.name


@dataclass(frozen=True)
class HandFile:
    """Everything the replay needs of one hand (see the module docstring).

    ``events`` are the engine's full events in order; ``result`` and
    ``settlement`` as the site stored them (an annulled hand's are the
    annulment's).  ``hand_id`` is the site's id (None for a file whose id is
    unknown); ``status`` is ``ended`` or ``annulled``.
    """

    ruleset: str
    stake: int
    players: tuple[Player, Player]
    seed: str
    commitment: str
    shuffle: int
    events: tuple[Event, ...]
    result: dict[str, Any] | None = None
    settlement: dict[str, Any] | None = None
    hand_id: int | None = None
    status: str = "ended"
    practice: bool = False
    started: str | None = None
    ended: str | None = None
    exported_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def annulled(self) -> bool:
        return self.status == "annulled"

    def to_json(self) -> dict[str, Any]:
        """The export (schema 1, docs/hand-export.md)."""
        rs = get_ruleset(self.ruleset)
        first = self.events[0].payload if self.events else {}
        return {
            "schema": SCHEMA,
            "schema_version": SCHEMA_VERSION,
            "exported_at": self.exported_at
            or datetime.now(tz=UTC).isoformat(timespec="seconds"),
            "hand": {
                "id": self.hand_id,
                "status": self.status,
                "annulled": self.annulled,
                "practice": self.practice,
                "started": self.started,
                "ended": self.ended,
            },
            "ruleset": {
                "name": rs.name,
                "zh": rs.zh,
                "en": rs.en,
                "systems": sorted(s.value for s in rs.systems),
                "min_fan": rs.min_fan,
                "stake": self.stake,
                "dealer": first.get("dealer"),
                "round_wind": first.get("round_wind"),
                "prompt_locked": bool(first.get("prompt_locked", False)),
                "wall": [str(ALL_TILES[i]) for i in wall_tiles(rs)],
            },
            "players": [
                {"seat": p.seat, "name": p.display, "bot": p.bot} for p in self.players
            ],
            "fairness": {
                "shuffle": self.shuffle,
                "commitment": self.commitment,
                "seed": self.seed,
                "algorithm": "docs/fairness.md",
            },
            "events": [e.to_json() for e in self.events],
            "result": self.result,
            "settlement": self.settlement,
        }


def hand_file_from_record(record: Any) -> HandFile:
    """The :class:`HandFile` of an ended or annulled ``HandRecord``.

    Raises:
        ValueError: the hand is still being played (its seed is secret).
    """
    from accounts.models import Profile
    from games.display.names import bot_name
    from games.models import HandEvent, HandRecord
    from games.services.hands import event_from_row

    if record.status == HandRecord.Status.LIVE:
        raise ValueError("a live hand cannot be exported")
    rows = HandEvent.objects.filter(hand=record).order_by("seq")
    events = tuple(event_from_row(r) for r in rows)
    ids = [u for u in (record.seat0_id, record.seat1_id) if u is not None]
    profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in=ids)}
    players = []
    level = record.table.bot_level if record.table_id else ""
    for seat, uid in ((0, record.seat0_id), (1, record.seat1_id)):
        profile = profiles.get(uid) if uid is not None else None
        if profile is not None:
            players.append(Player(seat, profile.nickname, bool(profile.is_bot)))
        else:
            players.append(Player(seat, bot_name(level or None), True, level or ""))
    first = events[0].payload if events else {}
    return HandFile(
        ruleset=record.ruleset,
        stake=int(record.stake),
        players=(players[0], players[1]),
        seed=record.seed or record.secret_seed,
        commitment=record.commitment,
        shuffle=int(first.get("shuffle", SHUFFLE_MT)),
        events=events,
        result=record.result,
        settlement=record.settlement,
        hand_id=record.pk,
        status=str(record.status),
        practice=bool(record.practice),
        started=record.started.isoformat(timespec="seconds")
        if record.started
        else None,
        ended=record.ended.isoformat(timespec="seconds") if record.ended else None,
    )


# ------------------------------------------------- the result the log gives
LOG_ONLY_KEYS = frozenset({"melds", "swapped", "seed", "commitment"})
"""Keys of ``hand_ended``'s payload that are not part of the stored result."""


def result_from_log(
    events: tuple[Event, ...] | list[Event], *, practice: bool
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The result and settlement a hand's log determines, or None if it has
    no ``hand_ended`` event (an annulled hand, cut off).

    The engine writes the whole result — winner, fans, total, both hands and
    its settlement — into the last event, and the replay check
    (:func:`games.engine.walk.walk`) rebuilds that event from the seed and
    the actions; so this, not a file's top-level ``result``/``settlement``,
    is what a replay shows.  The shapes are ``HandRecord.result`` and
    ``HandRecord.settlement`` (the settlement's ``skill`` by
    ``accounts.points.hand_points``, 0 for a practice hand).
    """
    from accounts.points import hand_points

    if not events or events[-1].kind != "hand_ended":
        return None
    payload = events[-1].payload
    result = {k: v for k, v in payload.items() if k not in LOG_ONLY_KEYS}
    settlement = dict(result.get("settlement") or {})
    fan = settlement.get("fan", 0)
    multiplier = settlement.get("multiplier", 1)
    if isinstance(fan, int) and isinstance(multiplier, int) and fan >= 0:
        settlement["skill"] = [
            hand_points(
                won=settlement.get("winner") == seat,
                fan=fan,
                multiplier=max(1, multiplier),
                practice=practice,
            )
            for seat in (0, 1)
        ]
    return result, settlement


def result_difference(
    result: dict[str, Any] | None,
    settlement: dict[str, Any] | None,
    rebuilt: tuple[dict[str, Any], dict[str, Any]],
) -> str | None:
    """Where a stored result and settlement first differ from the log's
    (:func:`result_from_log`), e.g. ``result.fans[0].id``; None if they agree.

    The settlement's ``skill`` (实力积分, the site's points rule) is not
    compared: the log does not decide it.
    """

    def unskilled(st: Any) -> Any:
        if isinstance(st, dict):
            return {k: v for k, v in st.items() if k != "skill"}
        return st

    return first_difference(result, rebuilt[0], "result") or first_difference(
        unskilled(settlement), unskilled(rebuilt[1]), "settlement"
    )


def first_difference(stored: Any, rebuilt: Any, path: str) -> str | None:
    """The first path where two JSON values differ (``result.fans[0].id``)."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(stored) | set(rebuilt), key=str):
            where = f"{path}.{key}"
            if key not in stored or key not in rebuilt:
                return where
            found = first_difference(stored[key], rebuilt[key], where)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rebuilt, list):
        if len(stored) != len(rebuilt):
            return path
        for i, (a, b) in enumerate(zip(stored, rebuilt, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(stored) is not type(rebuilt) or stored != rebuilt:
        return path
    return None


def _checked_result(
    events: tuple[Event, ...],
    *,
    practice: bool,
    annulled: bool,
    result: dict[str, Any] | None,
    settlement: dict[str, Any] | None,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The result to show for an imported file: the log's (see
    :func:`result_from_log`).

    Raises:
        HandFileError: the file's stored result or settlement differs from
            the one its log gives (an edited result), or the hand's status
            disagrees with its log (ended without ``hand_ended``, annulled
            with one, or an annulled hand that names a winner or moves coins).
    """
    rebuilt = result_from_log(events, practice=practice)
    if rebuilt is None:
        if not annulled:
            raise _fail(_("文件里的牌局没有结束事件，却未标为作废。"))
        st = settlement or {}
        if (result or {}).get("winner") is not None or any(
            st.get(k) not in (None, 0, [0, 0]) for k in ("coins", "deltas", "rake")
        ):
            raise _fail(_("作废的牌局不应有输赢或游戏币变动。"))
        return result, settlement
    if annulled:
        raise _fail(_("标为作废的牌局不应有结束事件。"))
    where = result_difference(result, settlement, rebuilt)
    if where is not None:
        raise _fail(
            _(
                "文件里的结果与事件记录不一致（%(where)s）：结果由牌局记录决定，"
                "不能单独修改。"
            )
            % {"where": where[:80]}
        )
    return rebuilt


# ----------------------------------------------------------------- parsing
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (an export nests about 6
deep); deeper files are refused before anything walks them recursively."""


def _too_deep() -> str:
    return _("文件格式不对：数组或对象嵌套太深（最多 %(n)s 层）。") % {"n": MAX_DEPTH}


def _depth_over(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists/dicts more than ``limit`` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _fail(message: str) -> HandFileError:
    return HandFileError(message)


def _obj(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(_("文件格式不对：缺少“%(what)s”。") % {"what": what})
    return value


_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused in names (as in nicknames: accounts.nicknames)."""


def _text(value: Any, what: str, limit: int) -> str:
    """``value`` if it is a non-blank string of at most ``limit`` characters
    without control or invisible characters; else the error says which."""
    if not isinstance(value, str):
        raise _fail(_("文件格式不对：“%(what)s”应为文字。") % {"what": what})
    if not value.strip():
        raise _fail(_("文件格式不对：“%(what)s”不能为空。") % {"what": what})
    if len(value) > limit:
        raise _fail(
            _("文件格式不对：“%(what)s”太长（%(n)s 个字，最多 %(max)s 个）。")
            % {"what": what, "n": len(value), "max": limit}
        )
    if any(unicodedata.category(ch) in _INVISIBLE for ch in value):
        raise _fail(
            _("文件格式不对：“%(what)s”含有控制字符或不可见字符。") % {"what": what}
        )
    return value


def _check_tile(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise _fail(_("牌的写法不对（%(where)s）。") % {"where": where})
    try:
        Tile.parse(value)
    except NotationError:
        raise _fail(
            _("牌的写法不对（%(where)s）：%(tile)s")
            % {"where": where, "tile": value[:8]}
        ) from None


def _check_payload(payload: dict[str, Any], where: str) -> None:
    for key in _TILE_FIELDS:
        if payload.get(key) is not None:
            _check_tile(payload[key], where)
    for key in _TILE_LIST_FIELDS:
        if key in payload:
            if not isinstance(payload[key], list):
                raise _fail(_("牌的写法不对（%(where)s）。") % {"where": where})
            for t in payload[key]:
                _check_tile(t, where)
    if "hands" in payload:
        hands = payload["hands"]
        if not isinstance(hands, list) or len(hands) != 2:
            raise _fail(_("牌的写法不对（%(where)s）。") % {"where": where})
        for hand in hands:
            if not isinstance(hand, list):
                raise _fail(_("牌的写法不对（%(where)s）。") % {"where": where})
            for t in hand:
                _check_tile(t, where)


def _event(data: Any, index: int) -> Event:
    where = _("第 %(n)s 个事件") % {"n": index + 1}
    if not isinstance(data, dict):
        raise _fail(_("文件格式不对：%(where)s不是对象。") % {"where": where})
    if data.get("kind") not in EVENT_KINDS:
        raise _fail(_("未知的事件类型（%(where)s）。") % {"where": where})
    if data.get("seq") != index + 1:
        raise _fail(_("事件序号应从 1 开始连续（%(where)s）。") % {"where": where})
    if data.get("seat") not in (None, 0, 1):
        raise _fail(_("座位只能是 0 或 1（%(where)s）。") % {"where": where})
    at = data.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise _fail(_("事件时间不对（%(where)s）。") % {"where": where})
    payload = data.get("payload")
    if not isinstance(payload, dict):
        raise _fail(_("文件格式不对：%(where)s缺少内容。") % {"where": where})
    _check_payload(payload, where)
    public = data.get("public")
    if public is not None and not isinstance(public, dict):
        raise _fail(_("文件格式不对：%(where)s缺少内容。") % {"where": where})
    visible = data.get("visible_to", [0, 1])
    if not isinstance(visible, list) or any(s not in (0, 1) for s in visible):
        raise _fail(_("座位只能是 0 或 1（%(where)s）。") % {"where": where})
    action = data.get("action")
    if action is not None and not isinstance(action, dict):
        raise _fail(_("文件格式不对：%(where)s的动作不对。") % {"where": where})
    return Event.from_json(
        {
            "seq": index + 1,
            "kind": data["kind"],
            "seat": data.get("seat"),
            "payload": payload,
            "public": public,
            "visible_to": visible,
            "at": float(at),
            "action": action,
        }
    )


def parse_hand_file(raw: bytes | str) -> HandFile:
    """Read an exported hand (schema 1) and check its structure.

    Raises:
        HandFileError: too big, not JSON, nested deeper than
            :data:`MAX_DEPTH`, another schema or version, or a missing or
            mistyped field (the message names it).
    """
    if len(raw) > MAX_BYTES:
        raise _fail(_("文件太大（最多 1 MB）。"))
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text)
    except RecursionError:
        raise _fail(_too_deep()) from None
    except (UnicodeDecodeError, ValueError):
        raise _fail(_("这不是 JSON 文件。")) from None
    if _depth_over(data, MAX_DEPTH):
        raise _fail(_too_deep())
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise _fail(_("这不是本站导出的牌局文件。"))
    if data.get("schema_version") != SCHEMA_VERSION:
        raise _fail(
            _("不支持的文件版本 %(v)s（本站读取版本 %(ok)s）。")
            % {"v": str(data.get("schema_version"))[:10], "ok": SCHEMA_VERSION}
        )
    rs = _obj(data.get("ruleset"), "ruleset")
    name = rs.get("name")
    if name not in RULESET_NAMES:
        raise _fail(_("未知的规则：%(name)s") % {"name": str(name)[:20]})
    stake = rs.get("stake", 1)
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise _fail(
            _("文件格式不对：“%(what)s”应为正整数。") % {"what": "ruleset.stake"}
        )
    players_raw = data.get("players")
    if not isinstance(players_raw, list) or len(players_raw) != 2:
        raise _fail(_("文件格式不对：应有两位玩家。"))
    players = []
    for seat, p in enumerate(players_raw):
        p = _obj(p, "players")
        players.append(
            Player(seat, _text(p.get("name"), "players.name", 40), bool(p.get("bot")))
        )
    fair = _obj(data.get("fairness"), "fairness")
    seed = _text(fair.get("seed"), "fairness.seed", 128)
    commitment = fair.get("commitment")
    if not isinstance(commitment, str) or not re.fullmatch(r"[0-9a-f]{64}", commitment):
        raise _fail(
            _("文件格式不对：“%(what)s”应为 64 位十六进制数字。")
            % {"what": "fairness.commitment"}
        )
    events_raw = data.get("events")
    if not isinstance(events_raw, list) or not events_raw:
        raise _fail(_("文件里没有牌局事件。"))
    if len(events_raw) > MAX_EVENTS:
        raise _fail(_("事件太多（最多 %(n)s 个）。") % {"n": MAX_EVENTS})
    events = tuple(_event(e, i) for i, e in enumerate(events_raw))
    first = events[0]
    if first.kind != "hand_started" or first.payload.get("ruleset") != name:
        raise _fail(_("第一个事件应是开局，且规则与文件一致。"))
    shuffle = first.payload.get("shuffle", SHUFFLE_MT)
    if shuffle not in COMMIT_PREFIXES:
        raise _fail(_("未知的洗牌算法版本。"))
    raw_hand = data.get("hand")
    hand: dict[str, Any] = raw_hand if isinstance(raw_hand, dict) else {}
    result = data.get("result")
    settlement = data.get("settlement")
    if result is not None and not isinstance(result, dict):
        raise _fail(_("文件格式不对：缺少“%(what)s”。") % {"what": "result"})
    if settlement is not None and not isinstance(settlement, dict):
        raise _fail(_("文件格式不对：缺少“%(what)s”。") % {"what": "settlement"})
    hand_id = hand.get("id")
    practice = bool(hand.get("practice"))
    annulled = bool(hand.get("annulled"))
    result, settlement = _checked_result(
        events,
        practice=practice,
        annulled=annulled,
        result=result,
        settlement=settlement,
    )
    return HandFile(
        ruleset=str(name),
        stake=int(stake),
        players=(players[0], players[1]),
        seed=seed,
        commitment=commitment,
        shuffle=int(shuffle),
        events=events,
        result=result,
        settlement=settlement,
        hand_id=hand_id if isinstance(hand_id, int) and hand_id > 0 else None,
        status="annulled" if annulled else "ended",
        practice=practice,
        started=hand.get("started") if isinstance(hand.get("started"), str) else None,
        ended=hand.get("ended") if isinstance(hand.get("ended"), str) else None,
        exported_at=data.get("exported_at")
        if isinstance(data.get("exported_at"), str)
        else None,
    )
