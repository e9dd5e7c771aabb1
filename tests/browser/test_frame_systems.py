"""The rule sets' systems in the frame partials, rendered from contexts.

Issue 11 §2: 财神 by the wall with 白板 standing in (marked in the hand too),
the 加番牌 marked in hand and settlement, 胡加倍's offer worded with what it
brings, 换牌's free/used count, the pool-full 流局 explained, and the minimum
fan explained when 和 is not offered.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from .test_frame_templates import (
    NO_ACTIONS,
    context,
    parse,
    render,
    settlement,
)


def hand_marks(root: Any) -> dict[str, str]:
    hand = root.find_all(data_testid="my-hand")[0]
    return {
        n.attrs["data-tile"]: n.attrs.get("data-mark", "")
        for n in hand.iter()
        if n.tag == "button" and "data-tile" in n.attrs
    }


def test_wild_tile_by_the_wall_and_marked_in_the_hand():
    ctx = context(indicators={"bonus_tile": None, "wild": "1m"})
    root = render(ctx)
    [ind] = root.find_all(data_testid="wild-tile")
    assert "白板代替" in ind.attrs["title"]
    assert ind.find_all(data_testid="wild-standin")
    marks = hand_marks(root)
    assert marks["1m"] == "财" and marks["5z"] == "代" and marks["2m"] == ""
    labels = [
        n.attrs["aria-label"]
        for n in root.find_all(data_testid="my-hand")[0].iter()
        if n.attrs.get("data-tile") == "5z"
    ]
    assert "代替一万" in labels[0]
    # 白板 as the wild kind itself: no stand-in
    root = render(context(indicators={"bonus_tile": None, "wild": "5z"}))
    assert not root.find_all(data_testid="wild-standin")
    assert hand_marks(root)["5z"] == "财"


def test_bonus_tile_marked_in_the_hand_and_the_settlement():
    ctx = context(indicators={"bonus_tile": "1z", "wild": None})
    assert hand_marks(render(ctx))["1z"] == "番"
    fans = [
        {
            "id": "BONUS_TILE",
            "zh": "加番牌",
            "en": "Bonus Tile",
            "points": 10,
            "count": 1,
        }
    ]
    st = settlement(
        fans=fans,
        winner="me",
        hands={"me": ["1z", "1z", "1z", "2m"], "opponent": ["3m"]},
    )
    root = render(
        context(
            phase="ended",
            my_turn=False,
            indicators={"bonus_tile": "1z", "wild": None},
            settlement=st,
        )
    )
    mine = root.find_all(data_testid="settle-hand-me")[0]
    marked = [
        n for n in mine.iter() if n.tag == "img" and "is-bonus" in n.attrs["class"]
    ]
    assert len(marked) == 3
    note = root.find_all(data_testid="settle-bonus")[0].all_text()
    assert "加番牌" in note and "已计入番数" in note


def test_win_double_offer_says_what_declining_brings():
    actions = dict(
        NO_ACTIONS,
        hu=True,
        **{"pass": True},
        win_double={"count": 2, "max": 8, "next": 3, "plus": 6, "factor": 8},
    )
    root = render(context(phase="claim", actions=actions))
    [note] = root.find_all(data_testid="win-double")
    text = note.all_text()
    assert "第 3 次胡加倍" in text and "底番 + 6" in text and "× 8" in text
    assert "2/8" in text
    [decline] = root.find_all(data_action="pass")
    assert "不和" in decline.all_text() and "胡加倍第3次" in decline.all_text()
    # on one's own turn, declining is discarding
    turn = render(
        context(
            actions=dict(
                context()["actions"], hu=True, win_double=actions["win_double"]
            )
        )
    )
    assert "继续出牌" in turn.find_all(data_testid="win-double")[0].all_text()
    # without the offer: a plain 过
    plain = render(
        context(phase="claim", actions=dict(NO_ACTIONS, pung=True, **{"pass": True}))
    )
    assert plain.find_all(data_action="pass")[0].all_text().strip().startswith("过")


def test_swap_shows_free_then_used_count():
    root = render(context())
    [swap] = root.find_all(data_testid="swap")
    assert swap.attrs["data-free"] == "1" and "免费" in swap.all_text()
    used = dict(
        context()["actions"], swap={"tiles": ["1m"], "used": 2, "max": 5, "free": False}
    )
    [swap] = render(context(actions=used)).find_all(data_testid="swap")
    assert swap.attrs["data-used"] == "2" and "已换 2/5" in swap.all_text()


def test_short_win_explains_the_minimum():
    ctx = context(short_win=[{"tile": "5m", "fan": 6, "needed": 8}])
    [note] = render(ctx).find_all(data_testid="short-win")
    assert note.attrs["data-fan"] == "6" and note.attrs["data-needed"] == "8"
    assert "只有 6 番，8 番起和" in note.all_text()
    with translation.override("en"):
        from django.template.loader import render_to_string

        from .test_frame_templates import parse

        html = render_to_string("games/partials/frame.html", ctx)
    text = parse(html).find_all(data_testid="short-win")[0].all_text()
    assert "only 6 fan — 8 needed to win" in text
    assert not render(context()).find_all(data_testid="short-win")


def test_pool_full_draw_is_explained():
    st = settlement(result="draw", winner=None, reason="pool_full", fans=[], lines=[])
    root = render(
        context(
            phase="ended",
            settlement=st,
            pool={"limit": 54, "me": 54, "opponent": 30},
        )
    )
    [why] = root.find_all(data_testid="pool-full")
    assert "54 张" in why.all_text() and "流局" in why.all_text()
    [count] = root.find_all(data_testid="pool-count")
    assert count.all_text().strip().startswith("54/54")


def test_shortcut_line_names_only_the_rule_set_s_systems():
    """T (听) and S (换牌) are listed only where the rule set has 报听 and 换牌
    (fresh tester of issue 11: jj and liangren showed S 换牌)."""

    def keys(systems: list[str]) -> str:
        root = render(context(systems=systems))
        [line] = [
            n
            for n in root.iter()
            if n.tag == "p" and "mj-keys" in (n.attrs.get("class") or "").split()
        ]
        return line.all_text()

    both = keys(["ready", "swap"])
    assert "听" in both and "换牌" in both
    none = keys([])
    assert "换牌" not in none and "T" not in none and "托管" in none
    assert "换牌" not in keys(["ready"]) and "听" in keys(["ready"])


def test_a_draw_says_nothing_about_a_winner_and_the_bonus_tile():
    """A 流局 in jj has no winner: no 'the winner does (not) hold it' line."""
    st = settlement(
        result="draw",
        reason="wall",
        winner=None,
        self_drawn=False,
        fans=[],
        hands={"me": ["1z", "2m"], "opponent": ["3m"]},
    )
    ctx = context(
        phase="ended",
        my_turn=False,
        indicators={"bonus_tile": "1z", "wild": None},
        settlement=st,
    )
    root = render(ctx)
    assert not root.find_all(data_testid="settle-bonus")
    assert "和牌者" not in "".join(n.all_text() for n in root.children)


def settle_marks(root: Any, who: str) -> list[tuple[str, str]]:
    """(tile, mark) of each tile of a settlement hand's concealed run."""
    hand = root.find_all(data_testid=f"settle-hand-{who}")[0]
    runs = [n for n in hand.children if "mj-tiles-run" in n.attrs.get("class", "")]
    out = []
    for n in runs[0].children:
        if n.tag == "span":  # a marked tile: the live hand's badge around it
            [img] = [c for c in n.iter() if c.tag == "img"]
            out.append((n.attrs["data-tile"], n.attrs["data-mark"]))
            assert img.attrs["alt"].endswith(f" ({n.attrs['title']})")
        else:
            out.append((n.attrs["src"].rsplit("/", 1)[1][:-4], ""))
    return out


def liangren_settlement(wild: str | None, bonus: str | None = None) -> Any:
    st = settlement(
        winner="opponent",
        hands={"me": ["1m", "2m", "5z", "7p"], "opponent": ["5z", "1m", "1m", "9s"]},
    )
    table = dict(context()["table"], ruleset="liangren", ruleset_zh="两人麻将")
    indicators = {"bonus_tile": bonus, "wild": wild}
    return context(
        phase="ended",
        my_turn=False,
        table=table,
        indicators=indicators,
        settlement=st,
    )


def test_settlement_hands_mark_the_wild_and_its_standin_as_the_live_hand():
    # seed 002: 财神 by the wall, 白板代替财神牌 — the live hand marks 财 and 代
    ctx = liangren_settlement("1m")
    root = render(ctx)
    assert settle_marks(root, "me") == [
        ("1m", "财"),
        ("2m", ""),
        ("5z", "代"),
        ("7p", ""),
    ]
    assert settle_marks(root, "opponent") == [
        ("5z", "代"),
        ("1m", "财"),
        ("1m", "财"),
        ("9s", ""),
    ]
    spans = [
        n
        for n in root.find_all(data_testid="settle-hand-me")[0].iter()
        if n.tag == "span" and n.attrs.get("data-mark")
    ]
    assert [s.attrs["class"] for s in spans] == [
        "mj-tmark is-wild",
        "mj-tmark is-standin",
    ]
    assert [s.attrs["title"] for s in spans] == ["财神", "代替一万"]
    # the same marks as the live hand's, from the same rule
    live = hand_marks(render(context(indicators=ctx["indicators"])))
    assert (live["1m"], live["5z"], live["2m"]) == ("财", "代", "")
    # 白板 as the 财神 kind itself: marked 财, nothing stands in
    root = render(liangren_settlement("5z"))
    assert settle_marks(root, "me") == [
        ("1m", ""),
        ("2m", ""),
        ("5z", "财"),
        ("7p", ""),
    ]


def test_settlement_hands_mark_nothing_without_a_wild():
    # the other rule sets: no 财神 (erren, mcr, jj, youxi), or a 加番牌 (erren64)
    plain = liangren_settlement(None)
    plain["table"] = dict(plain["table"], ruleset="erren", ruleset_zh="二人麻将")
    for ctx in (plain, dict(plain, indicators={"bonus_tile": "1m", "wild": None})):
        root = render(ctx)
        for who in ("me", "opponent"):
            assert all(mark == "" for _, mark in settle_marks(root, who))
        assert not [n for n in root.iter() if "mj-tmark" in n.attrs.get("class", "")]
    # the 加番牌 keeps its ring in the settlement
    hand = root.find_all(data_testid="settle-hand-opponent")[0]
    ringed = [n for n in hand.iter() if "is-bonus" in n.attrs.get("class", "")]
    assert len(ringed) == 2


def test_replay_settlement_marks_the_wild_too():
    # the replay's last step includes the same settlement partial
    ctx = liangren_settlement("1m")
    side = {"tiles": [], "drawn": None, "count": 0, "melds": [], "discards": []}
    ctx.update(
        me=dict(side, seat=0, last=None, flowers=[], swapped=0),
        opponent=dict(side, seat=1, last=None, flowers=[], swapped=0),
        table=dict(ctx["table"], status="replay"),
        phase="ended",
        actions={},
        turn=None,
        rp={
            "index": 9,
            "last": 9,
            "seq": 30,
            "kind": "end",
            "seat": None,
            "who": None,
            "caption": "",
            "timeout": False,
            "decisions": [],
            "reviewed": [],
            "final": True,
            "annulled": False,
            "base_url": "/hands/99/",
            "bottom": 0,
        },
    )
    with translation.override("zh-hans"):
        root = parse(render_to_string("games/replay/board.html", ctx))
    assert [m for _, m in settle_marks(root, "me")] == ["财", "", "代", ""]
    assert [m for _, m in settle_marks(root, "opponent")] == ["代", "财", "财", ""]
