"""Frame fixes after the fresh-user test: hand number during settlement, the live
region on an own-turn kong, practice settlement without coins, the 继续/分组 hints,
and the settlement countdown taking the player back to the lobby.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from .test_frame_templates import NO_ACTIONS, context, parse, render, settlement


def _text(node: Any) -> str:
    return " ".join(node.all_text().split())


def roomline(ctx: dict[str, Any]) -> str:
    root = render(ctx)
    return _text(root.find_all(id="mj-roomline")[0])


def test_roomline_shows_the_hand_that_just_ended_during_settlement():
    # hand 1 settled: the match already counts it (hands_played 1, score 1:0)
    match = {"hands_played": 1, "wins": {"me": 1, "opponent": 0}}
    line = roomline(context(phase="ended", match=match, settlement=settlement()))
    assert "第 1 盘 · 1:0" in line
    # the next hand is being played: its number
    assert "第 2 盘 · 1:0" in roomline(context(match=match))
    # an annulled hand is not counted: its number is still hands_played + 1
    annulled = settlement(annulled=True, result="draw", winner=None)
    assert "第 2 盘" in roomline(
        context(phase="ended", match=match, settlement=annulled)
    )
    # the presenter's own number for the settled hand wins when it is given
    numbered = settlement(annulled=True, hand_number=1)
    assert "第 1 盘" in roomline(
        context(phase="ended", match=match, settlement=numbered)
    )
    first = {"hands_played": 0, "wins": {"me": 0, "opponent": 0}}
    assert "第 1 盘" in roomline(context(match=first))


def say(ctx: dict[str, Any]) -> str:
    return render(ctx).find_all(id="mj-status")[0].attrs["data-say"]


def test_live_region_on_own_turn_with_a_kong_offer_is_the_turn_prompt():
    base = context()
    kong = [{"tile": "1z", "kind": "concealed_kong"}]
    own = dict(base["actions"], kong=kong)
    # the opponent's last discard is still on the table: not announced
    assert say(context(actions=own)) == "摸到发，请出牌，可以杠"
    after_claim = context(actions=own, me=dict(base["me"], drawn=None))
    assert say(after_claim) == "轮到你出牌，可以杠"
    # without a kong: the plain prompt
    assert say(context()) == "摸到发，请出牌"
    # the claim window still names the opponent's discard
    claim = context(
        phase="claim",
        me=dict(base["me"], drawn=None),
        actions=dict(NO_ACTIONS, pung=True, **{"pass": True}),
        last_discard={"seat": "opponent", "tile": "5z", "index": 2},
    )
    # ... and names exactly the claims offered (issue 11: "可以碰" when only 碰)
    assert say(claim) == "对手打出白，可以碰"
    prompt = render(claim).find_all(data_testid="claim-prompt")[0]
    assert prompt.all_text().strip() == "可以碰"
    both = context(
        phase="claim",
        me=dict(base["me"], drawn=None),
        actions=dict(
            NO_ACTIONS,
            pung=True,
            chi=[{"tiles": "345m", "list": ["3m", "4m", "5m"]}],
            **{"pass": True},
        ),
        last_discard={"seat": "opponent", "tile": "4m", "index": 2},
    )
    assert say(both) == "对手打出四万，可以碰、吃"
    win = context(
        phase="claim",
        me=dict(base["me"], drawn=None),
        actions=dict(NO_ACTIONS, hu=True, **{"pass": True}),
        last_discard={"seat": "opponent", "tile": "4m", "index": 2},
    )
    assert render(win).find_all(data_testid="claim-prompt")[0].all_text() == "可以和"
    rob = dict(win, phase="rob")
    assert render(rob).find_all(data_testid="claim-prompt")[0].all_text() == (
        "可以抢杠和"
    )


def test_claim_prompt_in_english_names_the_claims():
    base = context()
    claim = context(
        phase="claim",
        me=dict(base["me"], drawn=None),
        actions=dict(NO_ACTIONS, pung=True, kong=[{"tile": "5z", "kind": "kong"}]),
        last_discard={"seat": "opponent", "tile": "5z", "index": 2},
    )
    with translation.override("en"):
        html = render_to_string("games/partials/frame.html", claim)
    text = parse(html).find_all(data_testid="claim-prompt")[0].all_text()
    assert text == "You can kong or pung"


def test_practice_settlement_lists_fans_and_factors_but_no_coins():
    lines = [
        {"key": "base_fan", "zh": "番种合计", "en": "Fan", "value": 17, "note": ""},
        {"key": "fan", "zh": "总番数", "en": "Total fan", "value": 17, "note": ""},
        {"key": "multiplier", "zh": "倍数", "en": "Multiplier", "value": 2, "note": ""},
        {
            "key": "coins_raw",
            "zh": "游戏币",
            "en": "Coins",
            "value": 340,
            "note": "17×10×2",
        },
        {"key": "rake", "zh": "系统回收", "en": "Rake", "value": 9, "note": "5%"},
    ]
    st = settlement(practice=True, lines=lines, coins={"me": 0, "opponent": 0})
    root = render(context(phase="ended", settlement=st))
    panel = root.find_all(data_testid="settlement")[0]
    shown = [li.attrs["data-line"] for li in panel.find_all(data_line="*")]
    assert shown == ["multiplier"]
    assert "×2" in _text(panel.find_all(data_line="multiplier")[0])
    text = _text(panel)
    assert "340" not in text and "系统回收" not in text and "游戏币 " not in text
    assert not panel.find_all(data_testid="delta-me")
    assert "人机练习不计游戏币和实力积分" in _text(
        panel.find_all(data_testid="practice-note")[0]
    )
    # a real table shows the coin lines and the deltas
    real = settlement(lines=lines)
    panel = render(context(phase="ended", settlement=real)).find_all(
        data_testid="settlement"
    )[0]
    shown = [li.attrs["data-line"] for li in panel.find_all(data_line="*")]
    assert shown == ["multiplier", "coins_raw", "rake"]
    assert "游戏币 340 (总番数 17 × 房间基数 10 × 倍数 2)" in _text(
        panel.find_all(data_line="coins_raw")[0]
    )
    assert panel.find_all(data_testid="delta-me")


def test_a_rated_practice_hand_says_it_counts_for_the_rating_and_shows_it():
    """Fresh tester (stop 26): practice hands against the bot are rated (README),
    but the settlement said only "不计游戏币和实力积分" and the rating moved
    1500 → 1833? without a word.  The practice settlement now says the hand
    counts for the rating and shows it with its change, as a staked hand does."""
    st = settlement(
        practice=True,
        coins={"me": 0, "opponent": 0},
        rating={"me": {"after": 1612, "change": 112}, "opponent": None},
    )
    panel = render(context(phase="ended", settlement=st)).find_all(
        data_testid="settlement"
    )[0]
    note = _text(panel.find_all(data_testid="practice-note")[0])
    assert note == "人机练习不计游戏币和实力积分，但计入等级分。"
    rating = panel.find_all(data_testid="rating-change")
    assert len(rating) == 1
    assert "等级分 1612" in _text(rating[0])
    assert rating[0].find_all(data_rating_change="112")
    assert "(+112)" in _text(rating[0])
    assert not panel.find_all(data_testid="delta-me")
    # an unrated practice hand (流局, annulled) keeps the plain note
    plain = settlement(practice=True, coins={"me": 0, "opponent": 0})
    panel = render(context(phase="ended", settlement=plain)).find_all(
        data_testid="settlement"
    )[0]
    note = _text(panel.find_all(data_testid="practice-note")[0])
    assert note == "人机练习不计游戏币和实力积分。"
    assert not panel.find_all(data_testid="rating-change")


def test_continue_and_regroup_explain_themselves():
    panel = render(context(phase="ended", settlement=settlement()))
    for hook, hint in (
        ("continue", "和同一对手打下一盘"),
        ("regroup", "换个对手，重新匹配"),
    ):
        button = panel.find_all(data_testid=hook)[0]
        assert button.attrs["title"] == hint
        described = panel.find_all(id=button.attrs["aria-describedby"])[0]
        assert _text(described) == hint


def test_closed_table_has_one_way_back_and_no_countdown():
    ctx = context(
        phase="ended",
        settlement=settlement(countdown=1_700_000_000_000 - 1),
        table=dict(context()["table"], status="closed"),
    )
    panel = render(ctx).find_all(data_testid="settlement")[0]
    assert len(panel.find_all(href="/lobby/")) == 1
    assert panel.find_all(data_testid="back-to-lobby")
    assert not panel.find_all(data_testid="settle-countdown")
    # closed because the countdown ran out: the page goes to the lobby itself
    closed = panel.find_all(data_testid="table-closed")[0]
    assert closed.attrs["data-goto"] == "/lobby/"
    # opened again long after (a bookmark, a reload the next day): no
    # silent trip to the lobby; the result and the way back stay on screen
    late = dict(ctx, settlement=settlement(countdown=1_700_000_000_000 - 300_000))
    panel = render(late).find_all(data_testid="settlement")[0]
    closed = panel.find_all(data_testid="table-closed")[0]
    assert "data-goto" not in closed.attrs
    assert panel.find_all(data_testid="back-to-lobby")
    assert panel.find_all(data_testid="replay-link")
    # closed early (the opponent left): the player reads the result first
    early = dict(ctx, settlement=settlement(countdown=1_700_000_000_000 + 9000))
    closed = render(early).find_all(data_testid="table-closed")[0]
    assert "data-goto" not in closed.attrs
    # the player sits at another table now (分组, or re-queued after 继续):
    # go there, countdown or not
    moved = dict(
        ctx,
        settlement=settlement(countdown=1_700_000_000_000 + 9000, goto="/table/9/"),
    )
    closed = render(moved).find_all(data_testid="table-closed")[0]
    assert closed.attrs["data-goto"] == "/table/9/"


def test_open_table_countdown_sits_in_the_button_bar():
    panel = render(context(phase="ended", settlement=settlement()))
    bar = panel.find_all(**{"class": "mj-settle-actions"})[0]
    assert bar.find_all(data_testid="settle-countdown")
    assert bar.find_all(data_testid="continue") and bar.find_all(data_testid="regroup")
    # 离开，回到大厅 posts to the table's leave (it closes the table, so the
    # opponent is told at once), not a plain link to the lobby
    assert panel.find_all(href="/lobby/") == []
    assert panel.find_all(data_lobby_url="/lobby/")  # where the countdown goes
    (leave,) = panel.find_all(data_testid="leave-link")
    assert leave.tag == "button" and leave.attrs["type"] == "submit"
    assert leave.parent.attrs["hx-post"] == "/table/7/leave/"  # the context's table


@pytest.mark.browser
def test_countdown_running_out_goes_to_the_lobby(browser):
    import time
    from pathlib import Path

    now = int(time.time() * 1000)
    ctx = context(phase="ended", now=now, settlement=settlement(countdown=now + 300))
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", ctx)
    js = (Path(__file__).resolve().parents[2] / "static/js/table.js").read_text()
    table = (
        '<html><body><div id="mj-root">' + frame + "</div>"
        '<div id="mj-live"></div><script>' + js + "</script></body></html>"
    )
    page = browser.new_page()
    page.route(
        "http://mj.test/table/7/",
        lambda route: route.fulfill(
            body=table, content_type="text/html; charset=utf-8"
        ),
    )
    page.route(
        "http://mj.test/lobby/",
        lambda route: route.fulfill(
            body="<p>lobby</p>", content_type="text/html; charset=utf-8"
        ),
    )
    page.goto("http://mj.test/table/7/")
    assert page.locator("[data-testid=settle-countdown]").is_visible()
    page.wait_for_url("http://mj.test/lobby/", timeout=8000)
    page.close()


@pytest.mark.browser
def test_countdown_text_is_not_covered_on_a_phone(browser):
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    now = int(time.time() * 1000)
    ctx = context(phase="ended", now=now, settlement=settlement(countdown=now + 60_000))
    with translation.override("zh-hans"):
        frame = render_to_string("games/partials/frame.html", ctx)
    css = (root / "static/css/site.css").read_text() + (
        root / "static/css/table.css"
    ).read_text()
    js = (root / "static/js/table.js").read_text()
    html = (
        f"<html><head><style>{css}</style></head><body><div id='mj-root'>{frame}"
        f"</div><div id='mj-live'></div><script>{js}</script></body></html>"
    )
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.route(
        "http://mj.test/table/7/",
        lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"),
    )
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("http://mj.test/table/7/")
    num = page.locator(".mj-settle-timer .mj-timer-num")
    page.wait_for_function(
        "() => document.querySelector('.mj-settle-timer .mj-timer-num')"
        ".textContent.includes('秒后回到大厅')"
    )
    box = num.bounding_box()
    assert box["height"] > 0 and box["y"] + box["height"] <= 640
    for hook in ("continue", "regroup"):
        b = page.locator(f"[data-testid={hook}]").bounding_box()
        below = b["y"] >= box["y"] + box["height"]
        above = b["y"] + b["height"] <= box["y"]
        assert below or above, hook
    # what is on top at the number's centre is the countdown itself
    hit = page.evaluate(
        """() => {
          const r = document.querySelector('.mj-settle-timer .mj-timer-num')
            .getBoundingClientRect();
          const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !!el && el.closest('.mj-settle-timer') !== null;
        }"""
    )
    assert hit and errors == []
    page.screenshot(path="/tmp/fix9_phone_settlement.png")
    page.close()


def test_an_empty_seat_is_not_cut_at_a_nicknames_width():
    """Tester fault: at a waiting table on a phone the opponent's plate read
    "Waiting for a pla…" (the 11em cap meant for nicknames)."""
    empty = dict(context()["players"]["opponent"], nickname="等待入座")
    empty.update(level=None, balance=None, rating=None, wind=None)
    ctx = context(players={"me": context()["players"]["me"], "opponent": empty})
    names = [
        n
        for n in render(ctx).iter()
        if "mj-name" in (n.attrs.get("class") or "").split()
    ]
    classes = {_text(n).split()[0]: n.attrs["class"].split() for n in names}
    assert "is-empty" in classes["等待入座"]
    assert "is-empty" not in classes["Alice"]


@pytest.mark.parametrize(
    ("phase", "pre_deal", "prompt"),
    [
        ("pre_deal", {"open": True, "double": False}, "开局前：明牌吗？"),
        ("pre_deal", {"open": False, "double": True}, "开局前：加倍吗？"),
        ("pre_deal", {"open": True, "double": True}, "开局前：明牌或加倍？"),
        ("double", None, "是否加倍？"),
    ],
)
def test_live_region_before_the_deal_says_the_turn_bars_prompt(phase, pre_deal, prompt):
    """Fresh tester: 两人麻将 offers only 明牌 before the deal; the bar said
    开局前：明牌吗？ but the screen reader said 请选择是否加倍."""
    actions = dict(NO_ACTIONS, pre_deal=pre_deal, double=phase == "double")
    ctx = context(phase=phase, me=None, actions=actions)
    root = render(ctx)
    bar = _text(root.find_all(data_testid="turn")[0])
    assert bar == prompt
    assert root.find_all(id="mj-status")[0].attrs["data-say"] == prompt
    with translation.override("en"):
        root = parse(render_to_string("games/partials/frame.html", ctx))
    bar = _text(root.find_all(data_testid="turn")[0])
    assert bar.isascii() and bar.endswith("?")
    assert root.find_all(id="mj-status")[0].attrs["data-say"] == bar


def test_an_erren_settlement_shows_its_doublings_added_up_not_multiplied():
    """Fresh tester: 二人麻将's chips "开始加倍 32 (16×2)", "胡加倍 ×1 36",
    "任务加倍 32 (16×2)" and "倍数 ×1" over 总番数 100 read as if multiplied
    (128 expected).  Seed 000 adds the shares; the panel now says so with the
    engine's own values, and drops the 倍数 ×1 that multiplies nothing."""
    from games.engine.settle import Outcome, settle
    from games.presenters.settlement import settlement_view
    from games.rules.rulesets import get

    done = settle(
        Outcome(
            winner=0,
            self_drawn=True,
            base_fan=16,
            start_double=(True, False),
            win_doubles=1,
            task_done=True,
        ),
        ruleset=get("erren"),
        stake=10,
        balances=(10_000, 10_000),
    )
    assert done.fan == 100 and done.multiplier == 1
    view = settlement_view(
        result={"winner": 0, "self_drawn": True, "fan_total": 16, "fans": []},
        settlement=done.to_json(),
        seat=0,
        practice=True,
        annulled=False,
        ruleset="erren",
    )
    assert view["fan_shares"] == [32, 36, 32]
    for language, words in (
        ("zh-hans", "总番数是各项加倍相加：32 + 36 + 32 = 100"),
        ("en", "Total fan adds up the doublings: 32 + 36 + 32 = 100"),
    ):
        ctx = context(phase="ended", settlement=settlement(**view))
        with translation.override(language):
            root = parse(render_to_string("games/partials/frame.html", ctx))
        panel = root.find_all(data_testid="settlement")[0]
        assert _text(panel.find_all(data_testid="fan-shares")[0]) == words
        shown = [li.attrs["data-line"] for li in panel.find_all(data_line="*")]
        # 自摸 ×1 stays: 自摸不加倍 is a stated erren rule
        assert shown == ["start_double", "win_double", "task", "self_drawn"]
    # one share is the total itself: nothing to add up
    single = settlement_view(
        result={"winner": 0, "fan_total": 16, "fans": []},
        settlement=settle(
            Outcome(winner=0, base_fan=16, task_done=True),
            ruleset=get("erren"),
            stake=10,
            balances=(10_000, 10_000),
        ).to_json(),
        seat=0,
        practice=True,
        annulled=False,
        ruleset="erren",
    )
    assert single["fan_shares"] == []
    root = render(context(phase="ended", settlement=settlement(**single)))
    assert not root.find_all(data_testid="fan-shares")
