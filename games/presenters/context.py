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

``table``        {id, kind, status, closed_reason, closed_seat (whose leaving
                  closed it, or None), room {name, stake}, ruleset, practice,
                  ws_url, record_url (current hand's record page),
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
                 short random moment (the veil, see games.services.act)
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
import time
from typing import Any

from django.conf import settings

from accounts.models import Profile
from games.engine.hand import Hand
from games.engine.view import visible_counts
from games.models import HandRecord, Table
from games.rules.rulesets import get as get_ruleset

from .actions import NO_ACTIONS, offered_actions, wait_list
from .events import callout, last_discard_from_log, own_timeout_notice, timeout_notice
from .players import opponent_away, player, seat_profiles
from .seats import side_of
from .settlement import add_level_up, record_url, table_settlement
from .systems import pool_sizes, stakes

log = logging.getLogger(__name__)


def _veiled(table: Table, seat: int, hand: Hand, now: float) -> dict[str, Any] | None:
    from games.services.veil import active_veil

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


_SIDE_KEYS = (
    "wind",
    "auto_play",
    "ready",
    "open_hand",
    "start_double",
    "deal_double",
    "win_doubles",
    "swaps",
)
"""What :func:`games.presenters.players.player` reads of a view's side: the
seat's public state, the same in either seat's view of one hand."""


class FrameBasis:
    """What every seat's frame of one state of a table shows alike, worked
    out once for the frames of that state (a move renders the mover's and
    the opponent's, games.consumers): the ``table`` context, the rule set's
    systems, the seats' profiles and their plates.

    Nothing in it comes from a seat's view but the plates, and those only
    from a side's public state (:data:`_SIDE_KEYS`, each plate keyed by it):
    no seat's concealed tiles are in a basis.
    """

    __slots__ = (
        "table",
        "now",
        "rs",
        "table_ctx",
        "systems",
        "bot_offer",
        "_profiles",
        "_plates",
    )

    def __init__(self, table: Table, *, now: float | None = None) -> None:
        self.table = table
        self.now = time.time() if now is None else now
        record = table.hand
        self.rs = rs = get_ruleset(record.ruleset if record else table.room.ruleset)
        self.table_ctx: dict[str, Any] = {
            "id": table.pk,
            "kind": table.kind,
            "status": table.status,
            "closed_reason": table.closed_reason,
            # whose leaving closed it (seat number, or None): "you left" vs
            # "the table closed" on a waiting table opened again
            "closed_seat": table.closed_seat,
            "room": {"name": table.room.name, "stake": table.room.stake},
            "ruleset": rs.name,
            "ruleset_zh": rs.zh,
            "practice": table.is_bot,
            "ws_url": f"/ws/table/{table.pk}/",
            "record_url": record_url(record.pk if record else None),
            "invite_token": table.invite_token if table.kind == "friend" else None,
            # the seed's SHA-256 commitment, published from the deal (never the seed)
            "commitment": record.commitment if record else None,
        }
        self.systems = sorted(s.value for s in rs.systems)
        self.bot_offer = (
            table.status == Table.Status.WAITING
            and table.kind == Table.Kind.QUICK
            and self.now >= table.created.timestamp() + settings.MAHJONG_BOT_OFFER_AFTER
        )
        self._profiles: dict[int, Profile] | None = None  # read at the first plate
        self._plates: dict[tuple[Any, ...], dict[str, Any]] = {}

    def plate(self, seat: int, side: dict[str, Any] | None) -> dict[str, Any]:
        """``seat``'s plate (games.presenters.players.player) as the view's
        ``side`` of it shows it: a copy of its own (the caller sets
        ``dealer``, and the veil ``win_doubles``)."""
        key = (seat, None if side is None else tuple(side[k] for k in _SIDE_KEYS))
        plate = self._plates.get(key)
        if plate is None:
            if self._profiles is None:
                self._profiles = seat_profiles(self.table)
            plate = player(self.table, seat, side, self._profiles)
            self._plates[key] = plate
        return dict(plate)


def seat_context(
    table: Table,
    seat: int,
    *,
    user: Any = None,
    hand: Hand | None = None,
    now: float | None = None,
    toast: str | None = None,
    basis: FrameBasis | None = None,
) -> dict[str, Any]:
    """Build the frame context of ``seat`` at ``table`` (keys: module docstring).

    ``hand`` is the live hand if the caller has it (else it is loaded from the
    snapshot, games.services.hands); ``now`` is epoch seconds (default:
    the clock).  ``basis``: what the frames of ``table`` in this state share
    (:class:`FrameBasis` of the same table; its ``now`` is the frame's),
    worked out here when not given.
    ``user`` is accepted for the contract and not needed: the seat decides
    what is shown.

    Raises:
        ValueError: ``seat`` is not 0 or 1.
    """
    from games.services.hands import HandUnavailableError, load_hand
    from games.services.unplayable import hand_annul_unplayable, is_evaluation_error

    if seat not in (0, 1):
        raise ValueError("seat must be 0 or 1")
    if basis is None:
        basis = FrameBasis(table, now=now)
    now = basis.now
    record = table.hand
    rs = basis.rs
    ctx: dict[str, Any] = {
        "table": basis.table_ctx,
        "seat": seat,
        "seq": table.seq,
        "now": int(now * 1000),
        "toast": toast,
        "systems": basis.systems,
        "match": None,
        "bot_offer": basis.bot_offer,
    }
    ctx["away"] = opponent_away(table, seat, now)
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
                seen = visible_counts(view)
                actions = (
                    offered_actions(hand, seat, view, seen)
                    if not veil
                    else dict(NO_ACTIONS)
                )
                if veil:
                    actions["auto"] = {
                        "on": hand.state.auto[seat],
                        "available": veil.get("kind") != "rob",
                    }
                    # the claim prompt's seq, the same whether or not the
                    # opponent could claim (see games.services.act)
                    ctx["seq"] = int(veil["shown"])
                tenpai = None
                s = hand.state
                counts = s.concealed[seat]
                if sum(counts) + 3 * len(s.melds[seat]) == 13:
                    w = wait_list(hand, seat, list(counts), seen)
                    tenpai = {"waits": w} if w else None
            except Exception as exc:  # any failure would freeze the table
                if not is_evaluation_error(exc):
                    raise
                log.exception("table %s: seat %s cannot be shown", table.pk, seat)
                broken = f"frame of seat {seat}: {type(exc).__name__}: {exc}"
    if broken is not None and record is not None:
        # issue 11 §5.1: never a dead table (500, closed sockets, a lobby
        # sending players back to it): annul the hand, then show that
        hand_annul_unplayable(
            table_id=table.pk, hand_id=record.pk, reason=broken, now=now
        )
        fresh = (
            Table.objects.select_related("room", "hand", "match")
            .filter(pk=table.pk)
            .first()
        )
        annulled = HandRecord.Status.ANNULLED
        if (
            fresh
            and fresh.hand_id == record.pk
            and fresh.hand is not None  # (hand_id says so; for the type checker)
            and fresh.hand.status == annulled
        ):
            return seat_context(fresh, seat, user=user, now=now, toast=toast)
        view = None
    players = {
        "me": basis.plate(seat, view["me"] if view else None),
        "opponent": basis.plate(1 - seat, view["opponent"] if view else None),
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
                table_settlement(table, record, None, seat)
                if record is not None
                else None
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
        add_level_up(ctx)
        return ctx

    assert hand is not None
    dealer = view["dealer"]
    players["me"]["dealer"] = dealer == seat
    players["opponent"]["dealer"] = dealer == 1 - seat
    me, opp = _side(view["me"]), _side(view["opponent"])
    phase = view["phase"]
    pending = view["pending"]
    turn = side_of(view["turn"], seat) if phase not in ("pre_deal", "double") else None
    deadline = view["deadline"]
    wall_count = view["wall_count"]
    last = None
    if view["last_discard"] is not None:
        owner = 1 - view["turn"] if phase in ("claim",) else None
        if owner is not None:
            pool = view["me" if owner == seat else "opponent"]["discards"]
            last = {
                "seat": side_of(owner, seat),
                "tile": view["last_discard"],
                "index": len(pool) - 1,
            }
    if last is None:
        last = last_discard_from_log(hand, seat)
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
        if "opp_win_doubles" in veil:  # (veils stored before it was kept)
            players["opponent"]["win_doubles"] = int(veil["opp_win_doubles"])
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
            else callout(hand, record.pk, seat)
        ),
        timeout_notice=(
            None
            if record is None or (veil and veil.get("kind") == "rob")
            else own_timeout_notice(hand, record.pk, seat, int(veil["from"]))
            if veil
            else timeout_notice(hand, record.pk, seat)
        ),
        stakes=stakes(rs, view, seat),
        pool=pool_sizes(rs, me, opp),
        deadline=deadline_ctx,
        actions=actions,
        tenpai=tenpai,
        settlement=(
            table_settlement(table, record, hand, seat)
            if phase == "ended" and record is not None
            else None
        ),
    )
    add_level_up(ctx)
    return ctx
