"""The frame partials rendered from contexts (no browser): every state's hooks.

Contexts follow the keys documented in games.presenters; one test renders the
real presenter's frame for a real bot table.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.presenters.actions import NO_ACTIONS as PRESENTER_NO_ACTIONS


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Any) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.text = ""

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, **attrs: str) -> list[Node]:
        return [
            n
            for n in self.iter()
            if all(
                (n.attrs.get(k.replace("_", "-")) == v)
                if v != "*"
                else (k.replace("_", "-") in n.attrs)
                for k, v in attrs.items()
            )
        ]

    def all_text(self) -> str:
        return self.text + "".join(c.all_text() for c in self.children)


VOID = {"img", "input", "br", "meta", "link", "hr"}


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag: str) -> None:
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data: str) -> None:
        self.cur.text += data


def parse(html: str) -> Node:
    t = Tree()
    t.feed(html)
    return t.root


# the presenters' "nothing to do" actions, with 托管 available (a live hand)
NO_ACTIONS: dict[str, Any] = {
    **PRESENTER_NO_ACTIONS,
    "auto": {"on": False, "available": True},
}


def player(name: str, wind: str, dealer: bool) -> dict[str, Any]:
    return {
        "seat": 0,
        "nickname": name,
        "level": "雀蛋",
        "balance": 10_000,
        "rating": 0,
        "wind": wind,
        "wind_zh": {"1z": "东", "3z": "西"}[wind],
        "dealer": dealer,
        "is_bot": False,
        "auto_play": False,
        "ready": False,
        "open_hand": False,
        "start_double": False,
        "deal_double": False,
        "win_doubles": 0,
        "swaps": 0,
    }


def context(**over: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "table": {
            "id": 7,
            "kind": "quick",
            "status": "playing",
            "room": {"name": "新手场", "stake": 10},
            "ruleset": "erren",
            "ruleset_zh": "二人麻将",
            "practice": False,
            "ws_url": "/ws/table/7/",
            "record_url": None,
            "invite_token": None,
        },
        "seat": 0,
        "seq": 41,
        "now": 1_700_000_000_000,
        "toast": None,
        "systems": ["ready", "swap"],
        "match": {"hands_played": 0, "wins": {"me": 0, "opponent": 0}},
        "bot_offer": False,
        "phase": "turn",
        "my_turn": True,
        "turn": "me",
        "players": {
            "me": player("Alice", "1z", True),
            "opponent": player("Bob", "3z", False),
        },
        "me": {
            "tiles": [
                "1m",
                "2m",
                "3m",
                "4m",
                "5m",
                "6m",
                "7m",
                "8m",
                "9m",
                "1z",
                "1z",
                "5z",
                "5z",
            ],
            "drawn": "6z",
            "count": 14,
            "melds": [],
            "discards": ["7z", "2z"],
            "flowers": ["1f"],
            "swapped": [],
        },
        "opponent": {
            "count": 13,
            "tiles": None,
            "drawn": None,
            "melds": [{"kind": "concealed_kong", "tiles": None}],
            "discards": ["3z", "4z", "6z"],
            "flowers": [],
        },
        "last_discard": {"seat": "opponent", "tile": "6z", "index": 2},
        "wall_count": 40,
        "round_wind": "1z",
        "indicators": {"bonus_tile": None, "wild": None},
        "task": {"kind": "kong", "tile": None, "fan": None, "factor": 2},
        "deadline": {"at": 1_700_000_015_000, "seconds": 15, "seat": "me"},
        "actions": dict(
            NO_ACTIONS,
            discard=True,
            discard_tiles=[
                "1m",
                "2m",
                "3m",
                "4m",
                "5m",
                "6m",
                "7m",
                "8m",
                "9m",
                "1z",
                "5z",
                "6z",
            ],
            discard_waits={
                "6z": [{"tile": "1z", "left": 2}, {"tile": "5z", "left": 0}]
            },
            swap={"tiles": ["1m"], "used": 0, "max": 5, "free": True},
        ),
        "tenpai": None,
        "settlement": None,
    }
    ctx.update(over)
    return ctx


def render(ctx: dict[str, Any]) -> Node:
    with translation.override("zh-hans"):
        return parse(render_to_string("games/partials/frame.html", ctx))


def sends(node: Node) -> list[dict[str, Any]]:
    """Every ws-send form's hx-vals, parsed as JSON (must be valid)."""
    return [json.loads(f.attrs["hx-vals"]) for f in node.find_all(ws_send="*")]


def test_every_top_level_fragment_has_an_id_and_swaps_out_of_band():
    root = render(context())
    tops = [n for n in root.children]
    assert len(tops) >= 8
    for n in tops:
        assert n.attrs.get("id"), n.tag
        assert n.attrs.get("hx-swap-oob") == "true", n.attrs["id"]
    ids = {n.attrs["id"] for n in tops}
    assert {"mj-opponent", "mj-center", "mj-me", "mj-actions", "mj-hand-area"} <= ids
    assert {"mj-settlement", "toast", "mj-status"} <= ids


def test_turn_hand_forms_carry_seq_and_tile_drawn_tile_last_with_waits():
    root = render(context())
    hand = root.find_all(data_testid="my-hand")[0]
    buttons = [n for n in hand.iter() if n.tag == "button"]
    assert [b.attrs["data-tile"] for b in buttons][-1] == "6z"
    assert buttons[-1].attrs.get("data-drawn") == "1"
    assert len(buttons) == 14
    # 1z appears twice but is discardable; 5z too; every button is in a form
    payloads = sends(hand)
    assert len(payloads) == 14
    assert all(p["action"] == "discard" and p["seq"] == 41 for p in payloads)
    assert payloads[-1]["tile"] == "6z"
    assert buttons[-1].attrs["data-waits"] == "1z:2 5z:0"
    assert "is-ting" in buttons[-1].attrs["class"]
    # tiles are images with Chinese names, never glyph text
    imgs = [n for n in hand.iter() if n.tag == "img"]
    assert all(i.attrs["src"].endswith(".svg") for i in imgs)
    assert buttons[0].attrs["aria-label"] == "打出一万"
    assert hand.all_text().strip() == ""
    # 换牌 with its free count; 托管 toggle with a shortcut
    swap = root.find_all(data_action="swap")[0]
    assert "免费" in swap.all_text()
    auto = root.find_all(data_action="auto")[0]
    assert auto.attrs["data-key"] == "a" and auto.attrs["aria-pressed"] == "false"


def test_opponent_hidden_tiles_are_backs_and_open_hand_shows_faces():
    root = render(context())
    opp = root.find_all(id="mj-opponent")[0]
    srcs = [n.attrs["src"] for n in opp.iter() if n.tag == "img"]
    assert sum(s.endswith("/back.svg") for s in srcs) == 13 + 4  # hand + 暗杠
    open_ctx = context(
        opponent=dict(context()["opponent"], tiles=["1m"] * 13, drawn="2m")
    )
    opp = render(open_ctx).find_all(id="mj-opponent")[0]
    srcs = [n.attrs["src"] for n in opp.iter() if n.tag == "img"]
    assert sum(s.endswith("/1m.svg") for s in srcs) == 13
    assert sum(s.endswith("/back.svg") for s in srcs) == 4  # the 暗杠 stays down


def test_opponent_drawn_tile_stands_apart_on_its_turn():
    base = context()
    ctx = context(
        turn="opponent",
        my_turn=False,
        opponent=dict(base["opponent"], count=14, melds=[]),
        actions=dict(NO_ACTIONS),
    )
    opp = render(ctx).find_all(id="mj-opponent")[0]
    drawn = [n for n in opp.iter() if "mj-drawn" in (n.attrs.get("class") or "")]
    assert len(drawn) == 1
    srcs = [n.attrs["src"] for n in opp.iter() if n.tag == "img"]
    assert sum(s.endswith("/back.svg") for s in srcs) == 14


def test_claim_window_offers_each_chi_pung_kong_and_pass():
    ctx = context(
        phase="claim",
        me=dict(context()["me"], drawn=None, count=13),
        actions=dict(
            NO_ACTIONS,
            chi=[
                {"tiles": "123m", "list": ["1m", "2m", "3m"]},
                {"tiles": "234m", "list": ["2m", "3m", "4m"]},
            ],
            pung=True,
            kong=[{"tile": "2m", "kind": "kong"}],
            hu=True,
            **{"pass": True},
            win_double={"count": 1, "max": 3},
        ),
        last_discard={"seat": "opponent", "tile": "2m", "index": 2},
    )
    root = render(ctx)
    acts = root.find_all(id="mj-actions")[0]
    names = [b.attrs["data-action"] for b in acts.find_all(data_action="*")]
    for name in ("hu", "kong", "pung", "chi", "pass", "auto"):
        assert name in names
    chooser = [b for b in acts.find_all(data_action="chi") if "data-choice" in b.attrs]
    assert len(chooser) == 1 and chooser[0].attrs["aria-controls"] == "mj-chi-choice"
    group = acts.find_all(id="mj-chi-choice")[0]
    assert "hidden" in group.attrs
    payloads = sends(acts)
    kinds = {p["action"] for p in payloads}
    assert {"win", "kong", "pung", "chi", "pass", "auto_play"} <= kinds
    assert sorted(p["tiles"] for p in payloads if p["action"] == "chi") == [
        "123m",
        "234m",
    ]
    assert all(p["seq"] == 41 for p in payloads)
    assert root.find_all(data_testid="win-double")
    # the hand is not discardable in a claim window
    assert not sends(root.find_all(data_testid="my-hand")[0])


def test_ting_options_show_the_waits_each_discard_leaves():
    ctx = context(
        actions=dict(
            context()["actions"],
            ting=[
                {"tile": "6z", "waits": [{"tile": "1z", "left": 2}]},
                {"tile": "9m", "waits": [{"tile": "6m", "left": 3}]},
            ],
        ),
        tenpai={"waits": [{"tile": "3m", "left": 1}]},
    )
    root = render(ctx)
    group = root.find_all(id="mj-ting-choice")[0]
    payloads = sends(group)
    assert [(p["action"], p["tile"]) for p in payloads] == [
        ("ready", "6z"),
        ("ready", "9m"),
    ]
    hint = root.find_all(data_testid="tenpai-hint")[0]
    waits = hint.find_all(data_wait="*")
    assert [(w.attrs["data-wait"], w.attrs["data-left"]) for w in waits] == [
        ("3m", "1")
    ]


def test_pre_deal_and_double_prompts():
    root = render(
        context(
            phase="pre_deal",
            me=None,
            actions=dict(NO_ACTIONS, pre_deal={"open": True, "double": True}),
        )
    )
    payloads = sends(root.find_all(id="mj-actions")[0])
    pre = [(p["open_hand"], p["double"]) for p in payloads if p["action"] == "pre_deal"]
    assert sorted(pre) == [(False, False), (False, True), (True, False), (True, True)]
    root = render(context(phase="double", actions=dict(NO_ACTIONS, double=True)))
    payloads = sends(root.find_all(id="mj-actions")[0])
    assert sorted(p["double"] for p in payloads if p["action"] == "double") == [
        False,
        True,
    ]


def settlement(**over: Any) -> dict[str, Any]:
    st = {
        "result": "win",
        "reason": "win",
        "annulled": False,
        "winner": "me",
        "self_drawn": True,
        "win_tile": "6z",
        "fans": [
            {
                "id": "SEVEN_PAIRS",
                "zh": "七对",
                "en": "Seven Pairs",
                "points": 24,
                "count": 1,
            },
            {
                "id": "FLOWER_TILES",
                "zh": "花牌",
                "en": "Flower Tiles",
                "points": 1,
                "count": 2,
            },
        ],
        "fan_total": 26,
        "total_fan": 52,
        "lines": [
            {"key": "base_fan", "zh": "番种合计", "en": "", "value": 26, "note": ""},
            {"key": "task", "zh": "任务加倍", "en": "", "value": 52, "note": "26×2"},
            {"key": "fan", "zh": "总番数", "en": "", "value": 52, "note": ""},
            {"key": "multiplier", "zh": "倍数", "en": "", "value": 1, "note": ""},
            {"key": "kongs", "zh": "杠牌不计分", "en": "", "value": 0, "note": ""},
            {"key": "rake", "zh": "系统回收", "en": "", "value": 26, "note": "5%"},
        ],
        "coins": {"me": 494, "opponent": -520},
        "skill": {"me": 52, "opponent": 0},
        "practice": False,
        "hands": {"me": ["1m"] * 14, "opponent": ["2m"] * 13},
        "seed": "abc",
        "commitment": "f" * 64,
        "hand_id": 99,
        "record_url": "/hands/99/",
        "countdown": 1_700_000_020_000,
        "continue_voted": {"me": False, "opponent": True},
    }
    st.update(over)
    return st


def test_settlement_panel_lists_fans_total_coins_and_buttons():
    root = render(context(phase="ended", my_turn=False, settlement=settlement()))
    panel = root.find_all(data_testid="settlement")[0]
    assert panel.attrs["data-result"] == "win"
    fans = panel.find_all(data_fan="*")
    assert [f.attrs["data-fan"] for f in fans] == ["SEVEN_PAIRS", "FLOWER_TILES"]
    links = [n.attrs["href"] for f in fans for n in f.iter() if n.tag == "a"]
    assert links == ["/rules/erren/SEVEN_PAIRS/", "/rules/erren/FLOWER_TILES/"]
    assert panel.find_all(data_testid="total-fan")[0].all_text().strip() == "52"
    assert panel.find_all(data_testid="fan-sum")[0].all_text().strip() == "26"
    # the header names the same total as the panel (issue 11: 17 番 vs 34)
    assert panel.find_all(data_testid="header-fan")[0].all_text().strip() == "52 番"
    lines = [li.attrs["data-line"] for li in panel.find_all(data_line="*")]
    assert "task" in lines and "rake" in lines and "kongs" not in lines
    me = panel.find_all(data_testid="delta-me")[0]
    assert me.find_all(data_coins="494") and "+494" in me.all_text()
    opp = panel.find_all(data_testid="delta-opponent")[0]
    assert "\u2212520" in opp.all_text()
    for hook in ("continue", "regroup", "report", "replay-link"):
        assert len(panel.find_all(data_testid=hook)) == 1, hook
    assert panel.find_all(data_testid="replay-link")[0].attrs["href"] == "/hands/99/"
    timer = panel.find_all(data_deadline="1700000020000")
    assert timer and timer[0].attrs["data-total"] == "20000"


def test_draw_and_closed_table():
    root = render(
        context(
            phase="ended",
            settlement=settlement(result="draw", winner=None, fans=[], lines=[]),
            table=dict(context()["table"], status="closed"),
        )
    )
    panel = root.find_all(data_testid="settlement")[0]
    assert panel.attrs["data-result"] == "draw"
    assert panel.find_all(data_testid="total-fan")
    assert not panel.find_all(data_testid="continue")
    assert panel.find_all(data_testid="back-to-lobby")


def test_waiting_table_offers_the_bot_and_the_invite_link():
    ctx = context(
        phase="waiting",
        me=None,
        opponent=None,
        my_turn=False,
        turn=None,
        actions=dict(NO_ACTIONS),
        bot_offer=True,
        table=dict(context()["table"], kind="friend", invite_token="tok123"),
    )
    root = render(ctx)
    assert root.find_all(data_testid="accept-bot")
    invite = root.find_all(data_invite="*")[0]
    assert invite.attrs["value"] == "/t/tok123/"


def test_english_frame():
    with translation.override("en"):
        html = render_to_string(
            "games/partials/frame.html",
            context(phase="ended", settlement=settlement()),
        )
    assert "Continue" in html and "Total fan" in html
    assert 'alt="1 Characters"' in html or "1 Characters" in html
    # tester's fault: 番种 and 番数 both read "Fan" in the fan table's head
    head = re.search(r'<table class="mj-fans".*?<thead>(.*?)</thead>', html, re.S)
    assert head is not None
    assert re.findall(r"<th[^>]*>([^<]*)</th>", head.group(1)) == [
        "Fan",
        "Points",
        "Times",
    ]


@pytest.mark.django_db
def test_real_bot_table_frame_has_the_hooks(settings):
    from accounts.models import User
    from games import presenters
    from games.models import Room
    from games.services import tables

    settings.MAHJONG_CLOCK = "command"
    user = User.objects.create_user("frame", "frame@example.com", "pw-123456-x")
    table = tables.table_play_bot(
        user=user, room=Room.objects.order_by("order", "id").first(), level="easy"
    )
    table.refresh_from_db()
    with translation.override("zh-hans"):
        html = presenters.render_frame(table, 0, user=user)
    root = parse(html)
    for n in root.children:
        assert n.attrs.get("id") and n.attrs.get("hx-swap-oob") == "true"
    assert root.find_all(data_testid="my-hand") or root.find_all(data_action="pass")
    for payload in sends(root):
        assert payload["seq"] == table.seq


KONG = {"kind": "kong", "tile": None, "fan": None, "factor": 2}
PUNG_E = {"kind": "pung", "tile": "1z", "fan": None, "factor": 2}
PUNG_R = {"kind": "pung", "tile": "5z", "fan": None, "factor": 2}
FAN = {"kind": "fan", "tile": None, "fan": "SEVEN_PAIRS", "factor": 2}
DOUBLE = {"kind": "double", "tile": None, "fan": None, "factor": 2}
DOUBLED = {"players": {"me": dict(player("Alice", "1z", True), start_double=True)}}


def _with(**over: Any) -> dict[str, Any]:
    """context() with ``me`` / ``opponent`` / ``players`` entries merged in."""
    ctx = context()
    for key, value in over.items():
        if key in ("me", "opponent", "players"):
            ctx[key] = dict(ctx[key], **value)
        else:
            ctx[key] = value
    return ctx


@pytest.mark.parametrize(
    ("task", "state", "label"),
    [
        # the engine decides the state (games.engine.task.task_state, its
        # cases in tests/engine/test_task.py); the template names it
        (DOUBLE, "ready", "和牌即达成"),
        (DOUBLE, "open", "进行中"),
        (DOUBLE, "missed", "未达成"),
        (KONG, "open", "进行中"),
        (KONG, "ready", "和牌即达成"),
        (PUNG_E, "open", "进行中"),
        (PUNG_E, "ready", "和牌即达成"),
        (PUNG_E, "missed", "未达成"),
        (FAN, "at_win", "和牌时判定"),
    ],
)
def test_task_state_before_the_win(task, state, label):
    root = render(_with(task=task, task_state=state))
    span = root.find_all(data_testid="task")[0].find_all(data_task_state="*")
    assert [s.attrs["data-task-state"] for s in span] == [state]
    assert " ".join(span[0].all_text().split()) == label
    assert span[0].attrs["data-task-met"] != "1"  # nothing is met before the win


@pytest.mark.parametrize("task", [KONG, PUNG_E, FAN, DOUBLE])
@pytest.mark.parametrize(
    ("winner", "done", "state", "label"),
    [
        ("me", True, "met", "已达成"),
        ("me", False, "missed", "未达成"),
        ("opponent", True, "met", "已达成"),  # the hand's task: 任务加倍 paid
        (None, False, "missed", "未达成"),  # a draw
    ],
)
def test_task_state_after_the_hand(task, winner, done, state, label):
    st = settlement(winner=winner, task_done=done, result="win" if winner else "draw")
    root = render(
        _with(
            task=task,
            task_state=state,
            phase="ended",
            my_turn=False,
            actions=dict(NO_ACTIONS),
            settlement=st,
            **DOUBLED,
        )
    )
    span = root.find_all(data_testid="task")[0].find_all(data_task_state="*")
    assert [s.attrs["data-task-state"] for s in span] == [state]
    assert " ".join(span[0].all_text().split()) == label
    assert span[0].attrs["data-task-met"] == ("1" if state == "met" else "0")
