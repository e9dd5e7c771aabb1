"""What the replay page shows at one step: the template context.

:func:`step_context` builds, for a :class:`~games.replay.replay.Replay`, a
step and the seat shown at the bottom, the context of the Jinja2 partial
``games/replay/board.html`` (the board and the step's panel, also sent alone
when the viewer moves) — with the same keys the live table's partials read
(``players`` for ``plate()``, ``me``/``opponent`` for the settlement's hands,
``settlement`` for the panel at the last step, ``table.ruleset``), so the
replay draws tiles, melds, plates and the settlement with the table's own
partials.  :func:`page_data` is what the page's script needs (step count,
decision steps, the fairness data for the 验证 button).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.display.tiles import tile_name
from games.engine.hand import TASK_FANS
from games.engine.review import ReviewedDecision
from games.engine.wall import wall_tiles
from games.presenters import WIND_ZH, settlement_view
from games.presenters.settlement import total_fan
from games.record import _task_text
from games.rules.rulesets import get as get_ruleset
from games.rules.tiles import ALL_TILES

from .board import Step
from .handfile import LOG_ONLY_KEYS
from .replay import Decision, Replay


def _name(replay: Replay, seat: int | None) -> str:
    if seat not in (0, 1):
        return ""
    return replay.file.players[seat].display


def _t(code: Any) -> str:
    return tile_name(str(code or ""))


def caption(replay: Replay, step: Step) -> str:
    """One line saying what happened at ``step``, in the active language."""
    d = step.data
    who = _name(replay, step.seat)
    kind = step.kind
    if kind == "start":
        dealer = int(d.get("dealer", 0))
        return _("开局：%(who)s坐庄，圈风%(wind)s") % {
            "who": _name(replay, dealer),
            "wind": _t(d.get("round_wind")),
        }
    if kind == "pre_deal_choice":
        parts = [_("明牌")] if d.get("open_hand") else []
        if d.get("double"):
            parts.append(_("开始加倍"))
        choice = pgettext("list separator", "、").join(parts) or _("不选")
        return _("%(who)s：%(choice)s") % {"who": who, "choice": choice}
    if kind == "deal":
        return _("发牌：庄家 14 张，闲家 13 张")
    if kind == "flower":
        return _("%(who)s 补花 %(tile)s") % {"who": who, "tile": _t(d.get("flower"))}
    if kind == "draw":
        if d.get("replacement"):
            return _("%(who)s 从牌尾补牌 %(tile)s") % {
                "who": who,
                "tile": _t(d.get("tile")),
            }
        return _("%(who)s 摸牌 %(tile)s") % {"who": who, "tile": _t(d.get("tile"))}
    if kind == "indicator":
        if d.get("wild"):
            return _("翻出财神 %(tile)s") % {"tile": _t(d.get("wild"))}
        return _("翻出加番牌 %(tile)s") % {"tile": _t(d.get("bonus_tile"))}
    if kind == "task":
        return _("本盘任务：%(task)s") % {"task": _task_text(d, replay.file.ruleset)}
    if kind == "double_choice":
        return _("%(who)s：%(choice)s") % {
            "who": who,
            "choice": _("加倍") if d.get("double") else _("不加倍"),
        }
    if kind == "discard":
        pool = step.board["seats"][step.seat or 0]["discards"]
        drawn = bool(pool and pool[-1].drawn)
        how = _("摸切") if drawn else _("手切")
        text = _("%(who)s 打出 %(tile)s（%(how)s）") % {
            "who": who,
            "tile": _t(d.get("tile")),
            "how": how,
        }
        return text + (" · " + _("自动") if d.get("auto") else "")
    if kind == "chi":
        tiles = (
            "".join(str(t)[0] for t in d.get("tiles") or [])
            + (str((d.get("tiles") or ["  "])[0])[1:])
        )
        return _("%(who)s 吃 %(tile)s（%(set)s）") % {
            "who": who,
            "tile": _t(d.get("claimed")),
            "set": tiles,
        }
    labels = {
        "pung": _("%(who)s 碰 %(tile)s"),
        "kong": _("%(who)s 明杠 %(tile)s"),
        "concealed_kong": _("%(who)s 暗杠 %(tile)s"),
        "added_kong": _("%(who)s 加杠 %(tile)s"),
        "kong_completed": _("%(who)s 杠成 %(tile)s"),
    }
    if kind in labels:
        return labels[kind] % {"who": who, "tile": _t(d.get("tile"))}
    if kind == "pass":
        return _("%(who)s 过") % {"who": who}
    if kind == "ready":
        return (_("%(who)s 天听") if d.get("heavenly") else _("%(who)s 报听")) % {
            "who": who
        }
    if kind == "swap":
        return _("%(who)s 换牌：换出 %(tile)s（第 %(n)s 次）") % {
            "who": who,
            "tile": _t(d.get("out")),
            "n": d.get("swaps", 1),
        }
    if kind == "win_declined":
        return _("%(who)s 不和，胡加倍 ×%(n)s") % {
            "who": who,
            "n": d.get("win_doubles"),
        }
    if kind == "auto_play":
        return (_("%(who)s 开始托管") if d.get("on") else _("%(who)s 取消托管")) % {
            "who": who
        }
    if kind == "hand_ended":
        winner = d.get("winner")
        if winner not in (0, 1):
            return (
                _("流局：牌墙摸完")
                if d.get("reason") == "wall_exhausted"
                else _("流局")
            )
        return (
            _("%(who)s 自摸，%(fan)s 番")
            if d.get("self_drawn")
            else _("%(who)s 和牌，%(fan)s 番")
        ) % {
            "who": _name(replay, winner),
            "fan": total_fan(d.get("settlement") or {}, d),
        }
    return kind


def option_label(key: dict[str, Any]) -> str:
    """A move in words: ``{"kind": "pung"}`` → ``碰``."""
    kind = key.get("kind")
    tile = key.get("tile")
    if kind == "discard":
        return _("打 %(tile)s") % {"tile": _t(tile)}
    if kind == "chi":
        tiles = key.get("tiles") or []
        return _("吃 %(set)s") % {
            "set": "".join(str(t)[0] for t in tiles)
            + (str(tiles[0])[1:] if tiles else "")
        }
    if kind == "pung":
        return _("碰")
    if kind == "kong":
        return _("明杠")
    if kind == "concealed_kong":
        return _("暗杠 %(tile)s") % {"tile": _t(tile)}
    if kind == "added_kong":
        return _("加杠 %(tile)s") % {"tile": _t(tile)}
    if kind == "win":
        return _("和")
    if kind == "pass":
        return _("过")
    if kind == "ready":
        if tile:
            return _("报听，打 %(tile)s") % {"tile": _t(tile)}
        return _("报听")
    if kind == "swap":
        return _("换牌 %(tile)s") % {"tile": _t(tile)}
    if kind == "pre_deal":
        parts = [_("明牌")] if key.get("open_hand") else []
        if key.get("double"):
            parts.append(_("开始加倍"))
        return pgettext("list separator", "、").join(parts) or _("不选")
    if kind == "double":
        return _("加倍") if key.get("double") else _("不加倍")
    return str(kind)


def _decision(d: Decision) -> dict[str, Any]:
    """The decision panel's data: the choices, grouped, and the time."""
    discards = [o for o in d.options if o.get("kind") == "discard"]
    others = [o for o in d.options if o.get("kind") != "discard"]
    choices = [
        {"label": option_label(o), "chosen": o == d.chosen, "kind": o.get("kind")}
        for o in others
    ]
    chosen_discard = d.chosen.get("kind") == "discard"
    return {
        "seat": d.seat,
        "phase": d.phase,
        "chosen": option_label(d.chosen),
        "discard_count": len(discards),
        "chose_discard": chosen_discard,
        "choices": choices,
        "seconds": None if d.seconds is None else round(d.seconds, 1),
        "allowed": None if d.allowed is None else round(d.allowed),
        "timeout": d.timeout,
        "auto": d.auto,
    }


def _review_row(r: ReviewedDecision) -> dict[str, Any]:
    return {
        "seq": r.seq,
        "seat": r.seat,
        "agreed": r.agreed,
        "player": option_label(r.player.action),
        "bot": option_label(r.bot.action),
        "player_shanten": r.player.shanten,
        "player_useful": r.player.useful,
        "bot_shanten": r.bot.shanten,
        "bot_useful": r.bot.useful,
        "useful_lost": r.useful_lost,
        "shanten_lost": r.shanten_lost,
        # a 换牌 on either side: compared by choice only (games.engine.review)
        "swap": "swap" in (r.player.action.get("kind"), r.bot.action.get("kind")),
        "seconds": None if r.seconds is None else round(r.seconds, 1),
    }


def _plate(replay: Replay, board: dict[str, Any], seat: int) -> dict[str, Any]:
    p = replay.file.players[seat]
    side = board["seats"][seat]
    wind = board["seat_winds"][seat] if len(board["seat_winds"]) > seat else None
    return {
        "seat": seat,
        "nickname": p.display,
        "level": None,
        "level_info": None,
        "balance": None,
        "rating": None,
        "skill": None,
        "provisional": False,
        "wind": wind,
        "wind_zh": WIND_ZH.get(wind or "", ""),
        "dealer": board["dealer"] == seat,
        "is_bot": p.bot,
        "auto_play": side["auto_play"],
        "ready": side["ready"],
        "open_hand": side["open_hand"],
        "start_double": side["start_double"],
        "deal_double": side["deal_double"],
        "win_doubles": side["win_doubles"],
        "swaps": side["swaps"],
    }


def _side(board: dict[str, Any], seat: int) -> dict[str, Any]:
    s = board["seats"][seat]
    last = board.get("last") or {}
    return {
        "seat": seat,
        "tiles": s["tiles"],
        "drawn": s["drawn"],
        "count": s["count"],
        "melds": s["melds"],
        "discards": s["discards"],
        "last": last.get("index") if last.get("seat") == seat else None,
        "flowers": s["flowers"],
        "swapped": s["swapped"],
    }


def step_context(
    replay: Replay,
    index: int,
    *,
    bottom: int = 0,
    review: dict[int, list[ReviewedDecision]] | None = None,
    base_url: str = "",
) -> dict[str, Any]:
    """The context of ``games/replay/board.html`` at step ``index``.

    ``bottom`` is the seat drawn at the bottom (the viewer's own); ``review``
    maps a step to the reviewed decisions the viewer may see there (their
    own seat's; any seat's for staff); ``base_url`` is the page's URL
    without a query (for the step links).  ``index`` is clamped to the
    steps.
    """
    steps = replay.steps
    index = max(0, min(int(index), len(steps) - 1))
    step = steps[index]
    board = step.board
    top = 1 - bottom
    rs = get_ruleset(replay.file.ruleset)
    final = index == len(steps) - 1
    hf = replay.file
    ended = board.get("result") is not None
    settlement = None
    if final and (ended or hf.annulled):
        settlement = settlement_view(
            result=hf.result or board.get("result"),
            settlement=hf.settlement,
            seat=bottom,
            practice=hf.practice,
            annulled=hf.annulled,
            ruleset=hf.ruleset,
        )
        settlement["hand_id"] = hf.hand_id
    decisions = [_decision(d) for d in replay.decisions.get(index, [])]
    reviewed = [_review_row(r) for r in (review or {}).get(index, [])]
    turn = board.get("turn")
    return {
        "rp": {
            "index": index,
            "last": len(steps) - 1,
            "seq": step.seq,
            "kind": step.kind,
            "seat": step.seat,
            "who": "me"
            if step.seat == bottom
            else "opponent"
            if step.seat == top
            else None,
            "caption": caption(replay, step),
            "timeout": step.timeout,
            "decisions": decisions,
            "reviewed": reviewed,
            "final": final,
            "annulled": hf.annulled,
            "base_url": base_url,
            "bottom": bottom,
        },
        "table": {"ruleset": rs.name, "ruleset_zh": rs.zh, "status": "replay"},
        "players": {
            "me": _plate(replay, board, bottom),
            "opponent": _plate(replay, board, top),
        },
        "me": _side(board, bottom),
        "opponent": _side(board, top),
        "turn": "me" if turn == bottom else "opponent" if turn == top else None,
        "wall_count": board["wall"],
        "round_wind": board["round_wind"],
        "indicators": board["indicators"],
        "task": board["task"],
        "task_state": replay.task_state_at(index, bottom),
        "settlement": settlement,
        "phase": "ended" if final and ended else "replay",
        "actions": {},
    }


def page_data(replay: Replay, *, review_seats: list[int]) -> dict[str, Any]:
    """What the page's script needs, JSON-ready.

    ``steps`` (the last index), ``decisions`` {seat: [step, …]} (steps where
    each seat decided, for ⇤/⇥ by seat), and ``fair``: the revealed seed, the
    published commitment, the shuffle version, the unshuffled wall and every
    tile movement the 验证 button checks (deal, draws, indicators, 任务), the
    result and settlement shown, and the log's own (``hand_ended``: its
    payload, the seat of the winning move, the phase it was made in).
    Nothing here is secret: the hand has ended.
    """
    hf = replay.file
    rs = get_ruleset(hf.ruleset)
    first = hf.events[0].payload if hf.events else {}
    moves = []
    phase = None
    for ev in hf.events:
        if ev.kind == "prompt":
            phase = ev.payload.get("phase")
        if ev.kind in ("deal", "draw", "indicator", "task", "hand_ended"):
            p = ev.payload
            keep = {
                "deal": ("tiles",),
                "draw": ("tile", "replacement", "wall"),
                "indicator": ("wild", "bonus_tile"),
                "task": ("kind", "tile", "fan"),
                "hand_ended": ("seed",),
            }[ev.kind]
            move = {
                f"task_{k}" if ev.kind == "task" else k: p[k] for k in keep if k in p
            }
            move.update({"seq": ev.seq, "kind": ev.kind, "seat": ev.seat})
            if ev.kind == "hand_ended":
                # what the log says of the result, for the check of the shown one
                action = ev.action or {}
                move["result"] = {k: v for k, v in p.items() if k not in LOG_ONLY_KEYS}
                move["win_seat"] = (
                    action.get("seat") if action.get("kind") == "win" else None
                )
                move["phase"] = phase
            moves.append(move)
    ids = {f.id for f in rs.fans}
    systems = {s.value for s in rs.systems}
    return {
        "last": len(replay.steps) - 1,
        "decisions": {str(seat): replay.decision_steps(seat) for seat in (0, 1)},
        "review_seats": review_seats,
        "fair": {
            "seed": hf.seed,
            "commitment": first.get("commitment", hf.commitment),
            "file_commitment": hf.commitment,
            "shuffle": int(first.get("shuffle", 1)),
            "dealer": int(first.get("dealer", 0)),
            "wall": [str(ALL_TILES[i]) for i in wall_tiles(rs)],
            "kinds": [str(t) for t in rs.kinds],
            "task_kinds": ["pung", "kong", "fan"]
            + (["double"] if systems & {"start_double", "deal_double"} else []),
            "task_fans": [f for f in TASK_FANS if f in ids],
            "moves": moves,
            # the result and settlement the page shows (the 验证 compares
            # them with the log's last event)
            "result": hf.result,
            "settlement": hf.settlement,
            # the engine's replay of the log (server side): a log the rules
            # do not give fails the 验证 whatever the seed and wall say
            "engine_ok": replay.engine_ok,
            "engine_reason": replay.engine_reason(),
        },
    }
