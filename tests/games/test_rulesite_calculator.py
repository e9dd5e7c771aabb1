"""The fan calculator: analysis (games.rulesite.calculator), clicks
(games.rulesite.builder) and the page (issue 12)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.rules import rulesets
from games.rulesite.builder import EditError, apply_edit, full_kinds
from games.rulesite.calculator import CalcInput, ErrorCode, calculate


def calc(hand: str, ruleset: str = "mcr", **kw):
    return calculate(CalcInput(ruleset=ruleset, hand=hand, **kw))


def test_a_nine_gates_win_is_scored_with_its_breakdown():
    c = calc("1112345678999m5m")
    assert c.mode == "win" and c.error is None
    assert c.total == 89 + 2  # 九莲宝灯 88, 幺九刻 1, 双暗刻 2 (MCR)
    ids = {f.id for f in c.outcome.lines}
    assert "NINE_GATES" in ids
    excluded = {f.id for f in c.outcome.result.not_counted}
    assert "FULL_FLUSH" in excluded


def test_thirteen_tiles_list_the_waits_with_fan_and_unseen_copies():
    c = calc("1112345678999m")
    assert c.mode == "waits"
    assert [w.tile for w in c.waits] == [f"{r}m" for r in range(1, 10)]
    unseen = {w.tile: w.unseen for w in c.waits}
    assert unseen["1m"] == 1 and unseen["5m"] == 3
    assert all(w.win and w.total >= 88 for w in c.waits)


def test_fourteen_tiles_that_do_not_win_give_the_best_discards():
    c = calc("123456789m1234z5z")
    assert c.mode == "discards"
    assert c.error.code is ErrorCode.NOT_A_WIN
    best = c.discards[0]
    assert best.tile.endswith("z") and best.shanten == min(
        d.shanten for d in c.discards
    )
    assert best.useful_count == sum(n for _t, n in best.useful)


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ("11111m", ErrorCode.TOO_MANY_COPIES),
        ("123m", ErrorCode.WRONG_COUNT),
        ("11x", ErrorCode.NOTATION),
        ("[12m]1m", ErrorCode.BAD_MELD),
        ("1m+5m", ErrorCode.BAD_FLOWER),
    ],
)
def test_invalid_input_gets_a_code(hand, code):
    assert calc(hand).error.code is code


def test_tiles_outside_the_rule_set_and_flowers_without_flowers():
    assert calc("1112345678999p5p", "erren").error.code is ErrorCode.NOT_IN_RULESET
    assert calc("1112345678999m5m+1f", "liangren").error.code is ErrorCode.NO_FLOWERS


def test_the_engine_refuses_a_kong_win_without_a_kong():
    c = calc("1112345678999m5m", self_drawn=True, kong=True)
    assert c.error.code is ErrorCode.IMPOSSIBLE


def test_clicks_build_the_notation():
    text = ""
    for t in "1112345678999":
        text = apply_edit(text, tap=f"{t}m")
    assert text == "1112345678999m"
    text = apply_edit(text, tap="5m")
    assert text == "1112345678999m5m"
    assert apply_edit(text, tap="6m", mode="win") == "1112345678999m6m"
    assert apply_edit("", tap="3s", mode="chi") == "[345s]"
    assert apply_edit("", tap="7z", mode="pung") == "[777z]"
    assert apply_edit("", tap="1m", mode="concealed_kong") == "[1111m]*"
    assert apply_edit("[345s]", op="claim:0:1") == "[34'5s]"
    assert apply_edit("[345s]11m", op="del:m:0") == "11m"
    assert apply_edit("11m", tap="2f") == "11m+2f"
    with pytest.raises(EditError):
        apply_edit("", tap="8m", mode="chi")


def test_the_tiles_with_all_four_copies_in_the_hand():
    """Fresh tester: the palette took a fifth 2p (1122222p, then an error);
    the tiles listed here are greyed out in it."""
    assert full_kinds("1122p") == []
    assert full_kinds("112222p") == ["2p"]
    assert full_kinds("1122222p") == ["2p"]
    assert full_kinds("[2222p]*1p") == ["2p"]
    assert full_kinds("[234p]222p5z5z5z5z") == ["2p", "5z"]
    assert full_kinds("1111m+1f") == ["1m"]
    assert full_kinds("") == []
    assert full_kinds("[22") == []  # unreadable: the answer says why


@pytest.mark.django_db
def test_the_palette_greys_out_a_tile_with_all_four_copies(client):
    url = reverse("games:calculator")
    html = client.get(url, {"ruleset": "mcr", "hand": "112222p"}).content.decode()
    assert 'data-full="2p"' in html
    full = re.findall(r'data-tile="(\w+)" title="[^"]*" aria-disabled="true"', html)
    assert full == ["2p"]
    html = client.get(url, {"ruleset": "mcr", "hand": "11222p"}).content.decode()
    assert 'data-full=""' in html and 'aria-disabled="true"' not in html


@pytest.mark.django_db
def test_the_page_shows_total_fans_and_waits(client):
    url = reverse("games:calculator")
    html = client.get(url, {"ruleset": "mcr", "hand": "1112345678999m5m"}).content
    html = html.decode()
    assert 'data-testid="calc-total">91<' in html
    assert 'data-fan="NINE_GATES"' in html
    html = client.get(url, {"ruleset": "mcr", "hand": "1112345678999m"}).content
    assert html.decode().count("data-wait=") == 9


@pytest.mark.django_db
def test_a_click_without_htmx_redirects_to_the_hands_own_url(client):
    url = reverse("games:calculator")
    response = client.get(url, {"ruleset": "mcr", "hand": "1m", "tap": "2m"})
    assert response.status_code == 302
    assert response["Location"] == f"{url}?ruleset=mcr&hand=12m"
    response = client.get(
        url, {"ruleset": "mcr", "hand": "1m", "tap": "2m"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Push-Url"] == f"{url}?ruleset=mcr&hand=12m"


def test_waits_of_a_wild_hand_past_the_budget_are_listed_unscored():
    inp = CalcInput(ruleset="liangren", hand="1122335566778m", wild="5m")
    full = calculate(inp, wild_waits_budget_ms=None)
    assert len(full.waits) == 34  # two wilds: any tile completes the hand
    assert all(w.total is not None and not w.deferred for w in full.waits)
    cut = calculate(inp, wild_waits_budget_ms=0)
    assert [w.tile for w in cut.waits] == [w.tile for w in full.waits]
    scored = [w for w in cut.waits if not w.deferred]
    assert len(scored) == 1  # the first is always scored: the most unseen copies
    assert scored[0].unseen == max(w.unseen for w in full.waits)
    assert scored[0].total == {w.tile: w.total for w in full.waits}[scored[0].tile]


@pytest.mark.django_db
def test_a_deferred_wait_links_to_its_own_score(client, monkeypatch):
    from games.rulesite import calculator

    monkeypatch.setattr(calculator, "WILD_WAITS_BUDGET_MS", 0.0)
    monkeypatch.setattr(
        calculator.calculate, "__kwdefaults__", {"wild_waits_budget_ms": 0.0}
    )
    url = reverse("games:calculator")
    html = client.get(
        url, {"ruleset": "liangren", "hand": "1122335566778m", "wild": "5m"}
    ).content.decode()
    assert html.count('data-deferred="1"') == 33
    assert "hand=1122335566778m9p" in html.replace("&amp;", "&")


@pytest.mark.parametrize(
    ("situation", "words"),
    [
        ({"self_drawn": True, "kong": True}, "杠上开花要有杠"),
        ({"first": "heavenly"}, "都是自摸"),
        ({"first": "human", "self_drawn": True}, "人胡是和庄家打出的第一张牌"),
        ({"first": "earthly", "self_drawn": True}, "门风不能选东"),
        ({"first": "heavenly", "self_drawn": True, "seat": "3z"}, "门风要选东"),
        ({"first": "heavenly", "self_drawn": True, "ready": True}, "还没有报听"),
        (
            {"first": "human", "seat": "3z", "ready_first": True},
            "请勾选天听",
        ),
        ({"first": "human", "seat": "3z", "kong": True}, "不是抢杠和"),
    ],
)
def test_situations_the_engine_refuses_are_explained_in_words(situation, words):
    from games.rulesite.messages import explain

    c = calculate(CalcInput(ruleset="erren", hand="1112345678999m5m", **situation))
    assert c.error.code is ErrorCode.IMPOSSIBLE
    assert words in explain(c.error)


@pytest.mark.django_db
@pytest.mark.parametrize("name", rulesets.NAMES)
def test_each_rule_sets_palette_and_situation_fields(client, name):
    import re

    rs = rulesets.get(name)
    html = client.get(reverse("games:calculator"), {"ruleset": name}).content.decode()
    palette = html.split('data-testid="calc-palette"', 1)[1].split("</div>\n", 1)[0]
    tiles = re.findall(r'class="palette-tile" data-tile="(\w+)"', html)
    assert tiles == [str(t) for t in (*rs.kinds, *rs.flowers)]
    assert palette
    ids = {f.id for f in rs.fans}
    assert ('name="first"' in html) == ("HEAVENLY_HAND" in ids)
    assert ('name="bonus"' in html) == (name == "jj")
    assert ('name="wild"' in html) == (name == "liangren")
    assert ('name="last_tile"' in html) == ("LAST_TILE" in ids)


def test_a_complete_hand_below_the_minimum_says_so_and_keeps_its_fans():
    c = calc("123789m456p234s55s")
    assert c.error.code is ErrorCode.BELOW_MINIMUM
    assert c.error.expected == (8,) and c.error.count == 5  # 门前清 2 平和 2 老少副 1
    assert c.total is None
    assert "ALL_CHOWS" in {f.id for f in c.outcome.lines}


def test_a_first_turn_win_with_a_meld_is_explained_in_words():
    from games.rulesite.messages import explain

    # seed 000 天胡 "如果庄家在发完牌后有暗杠，那么不算天和"
    c = calculate(
        CalcInput(
            ruleset="erren",
            hand="123456789m2z[1111z]*2z",
            first="heavenly",
            self_drawn=True,
        )
    )
    assert c.error.code is ErrorCode.IMPOSSIBLE
    assert "请去掉副露" in explain(c.error)


@pytest.mark.parametrize(
    ("query", "zh", "en"),
    [
        # tester's finding: seat=9 was answered with how to write a tile
        ({"seat": "9z"}, "门风要选东、南、西、北之一", "Seat wind must be"),
        ({"seat": "9"}, "门风要选东、南、西、北之一", "Seat wind must be"),
        ({"round": "x"}, "圈风要选东、南、西、北之一", "Round must be"),
        ({"seat": "1m"}, "门风要选东、南、西、北之一", "Seat wind must be"),
        ({"round": "1z2z"}, "圈风只能填一张牌", "Round takes one tile"),
        (
            {"first": "garbage"},
            "天胡/地胡/人胡只能是天胡、地胡、人胡之一",
            "Heavenly/earthly/human win can only be",
        ),
    ],
)
def test_situation_errors_are_in_the_pages_language(client, query, zh, en):
    """Issue 12 tester fault 8: the engine's English ("rank 9 is out of range
    for suit 'z'", "first: one of heavenly, …") leaked into the Chinese page."""
    url = reverse("games:calculator")
    params = {"hand": "1112345678999m5m", **query}
    with translation.override("zh-hans"):
        html = client.get(url, params).content.decode()
    error = html.split('data-testid="calc-error"', 1)[1].split("</", 1)[0]
    assert zh in error
    assert not re.search(r"[A-Za-z]{4,}", error.split(">", 1)[1]), error
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        html = client.get(url, params, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    error = html.split('data-testid="calc-error"', 1)[1].split("</", 1)[0]
    assert en in error


@pytest.mark.parametrize(
    ("hand", "zh", "en"),
    [
        ("[123m", "第 1 个字符的 [ 没有配对的 ]", "has no closing ]"),
        ("11m[123m", "第 4 个字符的 [ 没有配对的 ]", "has no closing ]"),
        ("123m]", "第 5 个字符的 ] 前面没有 [", "has no [ before it"),
        ("[1[23]m]", "方括号不能套方括号", "cannot be nested"),
        ("[]123m", "[] 里没有牌", "no tiles"),
        ("123m*", "* 紧跟在暗杠的 ] 后面", "right after the ]"),
        ("123m+1f+2f", "只能有一个 +", "only one +"),
        ("123x", "第 4 个字符看不懂", "character 4"),
        # the ranges each suit has: "1-9 加 … f（花）" read as if 9f were a tile
        ("1112345678999m5m+9f", "1-8 加 f（花）", "1-8 followed by f"),
        ("1112345678999m8z", "1-7 加 z（东南西北白发中）", "1-7 followed by z"),
    ],
)
def test_notation_errors_say_what_is_wrong(client, hand, zh, en):
    """Tester's finding: "[123m" said "character 1 cannot be read" where the
    fault is the bracket that is never closed."""
    url = reverse("games:calculator")
    with translation.override("zh-hans"):
        html = client.get(url, {"hand": hand}).content.decode()
    error = html.split('data-testid="calc-error"', 1)[1].split("</", 1)[0]
    assert zh in error
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        html = client.get(url, {"hand": hand}, HTTP_ACCEPT_LANGUAGE="en").content
    error = html.decode().split('data-testid="calc-error"', 1)[1].split("</", 1)[0]
    assert en in error


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_the_notation_placeholder_is_a_win_of_the_chosen_rule_set(client, name):
    """Issue 12 tester fault 9: the placeholder [123s][777z]11m45m6m+1f was
    not a hand of the default rule set (erren has no 条)."""
    html = client.get(reverse("games:calculator"), {"ruleset": name}).content.decode()
    example = re.search(r'data-testid="calc-notation"[^>]*placeholder="([^"]+)"', html)
    calc = calculate(CalcInput(ruleset=name, hand=example.group(1)))
    assert calc.error is None and calc.total, (name, example.group(1))


@pytest.mark.django_db
def test_enter_in_the_notation_submits_without_adding_a_tile(client):
    """Enter submits a form with its first submit button (HTML's implicit
    submission): that must be the unnamed default button, not a palette tile
    (a fresh tester's Enter turned 1112345678999m5m into 15 tiles)."""
    html = client.get(
        reverse("games:calculator"), {"ruleset": "mcr", "hand": "1112345678999m5m"}
    ).content.decode()
    form = html[html.index('id="calc-form"') :]
    buttons = re.findall(r"<button\b[^>]*>", form)
    first_submit = next(b for b in buttons if 'type="button"' not in b)
    assert 'data-testid="calc-default-submit"' in first_submit
    assert "name=" not in first_submit


@pytest.mark.parametrize(
    ("text", "tap", "mode", "tile", "count"),
    [
        ("22p", "2p", "pung", "2p", 5),  # 2 + a pung of 3
        ("5m", "5m", "kong", "5m", 5),
        ("55m", "5m", "concealed_kong", "5m", 6),
        ("2222p", "1p", "chi", "2p", 5),  # the chow 123p takes a 2p
        ("2222p", "2p", "hand", "2p", 5),
        ("1111m2345678m99p9p", "1m", "win", "1m", 5),  # replaces the 9p
    ],
)
def test_a_click_that_would_make_a_fifth_copy_is_refused(text, tap, mode, tile, count):
    """Polish (item 1): in 碰 mode a click on 2p with 22p in the hand gave
    [222p]22p, five 2p, and only then the error; the palette greys a tile out
    only at 4 copies.  The click is refused and names the tile and the count it
    would have made; the hand is not touched."""
    with pytest.raises(EditError) as caught:
        apply_edit(text, tap=tap, mode=mode)
    assert caught.value.code == "too_many_copies"
    assert (caught.value.tile, caught.value.count) == (tile, count)


def test_clicks_up_to_the_fourth_copy_still_apply():
    assert apply_edit("2p", tap="2p", mode="pung") == "[222p]2p"
    assert apply_edit("", tap="2p", mode="kong") == "[2222p]"
    assert apply_edit("222p", tap="1p", mode="chi") == "[123p]222p"
    # win mode replacing the winning tile by a copy of itself: still 4
    assert apply_edit("11112345678m99p1m", tap="1m", mode="win") == (
        "11112345678m99p1m"
    )
    # a hand typed with five 1m already: a click on another tile still applies
    assert apply_edit("11111m", tap="2m") == "111112m"


@pytest.mark.django_db
def test_a_refused_fifth_copy_keeps_the_hand_and_says_why(client):
    url = reverse("games:calculator")
    params = {"ruleset": "mcr", "hand": "22p5m", "tap": "2p", "mode": "pung"}
    with translation.override("zh-hans"):
        response = client.get(url, params, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="22p5m"' in html  # the notation field: unchanged
    assert "hand=22p5m" in response["HX-Push-Url"]
    edit = html.split('data-testid="calc-edit-error"', 1)[1].split("</p>", 1)[0]
    assert 'data-code="too_many_copies"' in edit
    assert "会有 5 张二筒" in edit and "每种牌只有 4 张" in edit
    # without htmx: no redirect, the same page with the message
    response = client.get(url, params)
    assert response.status_code == 200
    assert 'data-code="too_many_copies"' in response.content.decode()
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        html = client.get(url, params, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    edit = html.split('data-testid="calc-edit-error"', 1)[1].split("</p>", 1)[0]
    assert "5 copies of 2 Dots" in edit and "only 4" in edit
