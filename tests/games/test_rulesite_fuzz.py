"""The calculator never crashes: random text, random hands, random clicks
(hypothesis), and the errors it reports agree with the engine."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import rulesets
from games.rules.api import score_hand
from games.rules.errors import RulesError
from games.rules.hand_notation import parse_hand
from games.rules.situation import WinSituation
from games.rulesite.builder import MODES, EditError, apply_edit
from games.rulesite.calculator import FIRST_TURN, CalcInput, ErrorCode, calculate

TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
TILES += [f"{r}z" for r in range(1, 8)] + [f"{r}f" for r in range(1, 9)]
NOTATION_CHARS = "123456789mpszf[]*'+ 0x"

FAST = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

inputs = st.builds(
    CalcInput,
    ruleset=st.sampled_from([*rulesets.NAMES, "nope"]),
    hand=st.text(alphabet=NOTATION_CHARS, max_size=40),
    self_drawn=st.booleans(),
    last_tile=st.booleans(),
    kong=st.booleans(),
    wall_last=st.booleans(),
    seat=st.sampled_from(["1z", "2z", "3z", "4z", "5z", "x", ""]),
    round=st.sampled_from(["1z", "3z", "9m"]),
    ready=st.booleans(),
    ready_first=st.booleans(),
    heavenly_ready=st.booleans(),
    first=st.sampled_from(["", *FIRST_TURN, "bogus"]),
    bonus=st.sampled_from(["", "5s", "5m", "1f", "zz"]),
    wild=st.sampled_from(["", "5m", "5z", "1f", "??"]),
)


@FAST
@given(inputs)
def test_any_text_and_situation_gives_an_answer_not_an_exception(inp):
    calc = calculate(inp)
    assert calc.mode in ("empty", "win", "waits", "discards", "error")
    if calc.mode == "error":
        assert calc.error is not None
    if calc.mode == "win":
        assert calc.total is not None and calc.total >= calc.ruleset.min_fan


def _hand(draw, n: int) -> str:
    tiles = draw(st.lists(st.sampled_from(TILES[:34]), min_size=n, max_size=n))
    return "".join(tiles)


@st.composite
def hands(draw):
    melds = draw(
        st.lists(
            st.sampled_from(["[123m]", "[777z]", "[1111p]", "[2222s]*", "[345s]"]),
            max_size=3,
        )
    )
    n = draw(st.sampled_from([13, 14])) - 3 * len(melds)
    flowers = draw(st.sampled_from(["", "+1f", "+1f5f"]))
    return "".join(melds) + _hand(draw, n) + flowers


@FAST
@given(hands(), st.sampled_from(rulesets.NAMES), st.booleans())
def test_random_hands_of_the_right_size_never_crash(hand, ruleset, self_drawn):
    calc = calculate(CalcInput(ruleset=ruleset, hand=hand, self_drawn=self_drawn))
    assert calc.mode in ("win", "waits", "discards", "error")
    for w in calc.waits:
        assert 0 <= w.unseen <= 4
    for d in calc.discards:
        assert d.shanten >= 0 and d.useful_count >= 0


@FAST
@given(hands(), st.sampled_from(["mcr", "erren", "liangren"]))
def test_a_hand_the_calculator_refuses_for_its_tiles_the_engine_refuses_too(
    hand, ruleset
):
    calc = calculate(CalcInput(ruleset=ruleset, hand=hand))
    tile_codes = {
        ErrorCode.NOT_IN_RULESET,
        ErrorCode.TOO_MANY_COPIES,
        ErrorCode.NO_FLOWERS,
        ErrorCode.DUPLICATE_FLOWER,
    }
    if calc.error is None or calc.error.code not in tile_codes:
        return
    parsed = parse_hand(hand)
    if parsed.tile_count != 14:
        return
    tiles = list(parsed.concealed)
    win = tiles.pop()
    situation = WinSituation(win_tile=win, flowers=parsed.flowers)
    try:
        score_hand(tiles, list(parsed.melds), situation, rulesets.get(ruleset))
    except RulesError:
        return
    raise AssertionError(f"engine accepted {hand} that the calculator refused")


@FAST
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("tap"), st.sampled_from(TILES), st.sampled_from(MODES)),
            st.tuples(
                st.just("op"),
                st.sampled_from(
                    ["clear", "del:c:0", "del:c:13", "del:m:0", "del:f:0", "claim:0:1"]
                    + ["claim:0:9", "del:x:0", "bogus", "del:c:-1"]
                ),
                st.just(""),
            ),
        ),
        max_size=25,
    )
)
def test_any_sequence_of_clicks_keeps_a_readable_notation(clicks):
    text = ""
    for kind, value, mode in clicks:
        try:
            if kind == "tap":
                text = apply_edit(text, tap=value, mode=mode)
            else:
                text = apply_edit(text, op=value)
        except EditError as exc:
            assert exc.code in (
                "chi_range",
                "bad_click",
                "unreadable",
                "too_many_copies",
            )
        parse_hand(text)  # always parses
        calculate(CalcInput(ruleset="mcr", hand=text))


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.dictionaries(
        st.sampled_from(
            ["ruleset", "hand", "tap", "op", "mode", "seat", "first", "wild", "kong"]
        ),
        st.text(alphabet=NOTATION_CHARS + 'abcdelrswz:<>&"', max_size=30),
        max_size=6,
    ),
    st.sampled_from(["", "calc-out", "calc"]),
)
def test_the_page_answers_any_query(client, query, target):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target} if target else {}
    response = client.get(reverse("games:calculator"), query, **headers)
    assert response.status_code in (200, 302)
