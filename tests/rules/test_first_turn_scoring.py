"""The scorer's first-turn rules (games/rules/first_turn.py), sentence by sentence.

Each test quotes the seed sentence it checks.  The sentences are the same in
seed 000 (二人麻将 牌型范例及规则结算, rule set ``erren``) and seed 001 (大众番种,
rule set ``jj``); every test runs in both, with the rule set's own suit
(erren 万, jj 条).  Values: 天胡 48, 地胡 32, 人胡 24 in both; 天听 32 in erren,
16 in jj; 报听一发 exists only in erren.
"""

from __future__ import annotations

import pytest

from games.rules import rulesets
from games.rules.api import score_hand
from games.rules.errors import InvalidHandError
from games.rules.melds import Meld
from games.rules.situation import EAST, WEST, WinSituation
from games.rules.tiles import Tile, parse_tiles

SUIT = {"erren": "m", "jj": "s"}
HEAVENLY_READY = {"erren": 32, "jj": 16}

# 123 456 789 + 东东东 + 南 single: wins on 2z
STANDING = "123m456m789m111z2z"


def score(name: str, standing: str = STANDING, melds: tuple[Meld, ...] = (), **flags):
    rs = rulesets.get(name)
    text = standing.replace("m", SUIT[name])
    flags.setdefault("seat_wind", EAST)
    situation = WinSituation(win_tile=Tile.parse("2z"), **flags)
    return score_hand(parse_tiles(text), melds, situation, rs)


def fans(name: str, **kw) -> dict[str, int]:
    out = score(name, **kw)
    assert out.win
    return {f.id: f.count for f in out.lines}


def kong(name: str, tile: str, *, concealed: bool) -> Meld:
    t = tile.replace("m", SUIT[name])
    return Meld.parse(
        "concealed_kong" if concealed else "kong", t * 4, None if concealed else t
    )


both = pytest.mark.parametrize("name", ["erren", "jj"])


# -- 天胡 ---------------------------------------------------------------------


@both
def test_heavenly_hand_is_the_dealers_self_drawn_win_on_the_deal(name):
    # "天胡 庄家在发完牌就和牌" … "以庄为东风位"
    got = fans(name, self_drawn=True, heavenly=True)
    assert got["HEAVENLY_HAND"] == 1
    assert score(name, self_drawn=True, heavenly=True).total >= 48


@both
def test_heavenly_hand_belongs_to_the_dealer_east(name):
    # "门风即是你坐风位，以庄为东风位": 天胡 by a seat that is not 东 cannot happen
    with pytest.raises(InvalidHandError, match="is the dealer's"):
        score(name, self_drawn=True, heavenly=True, seat_wind=WEST)


@both
def test_heavenly_hand_is_not_a_win_on_a_discard(name):
    # "庄家在发完牌就和牌": the dealer holds 14 tiles, no discard to win on
    with pytest.raises(InvalidHandError, match="is a self-drawn win"):
        score(name, heavenly=True)


@both
def test_heavenly_hand_after_flower_replacement_still_counts(name):
    # "如果庄家有补花，在补完花后就和牌也算"
    got = fans(name, self_drawn=True, heavenly=True, flowers=(Tile.parse("1f"),))
    assert got["HEAVENLY_HAND"] == 1


@both
def test_heavenly_hand_with_a_concealed_kong_is_refused(name):
    # "如果庄家在发完牌后有暗杠，那么不算天和"
    with pytest.raises(InvalidHandError, match="with a meld is impossible"):
        score(
            name,
            standing="123m456m789m2z",
            melds=(kong(name, "1z", concealed=True),),
            self_drawn=True,
            heavenly=True,
        )


@both
def test_heavenly_hand_cannot_follow_a_ready_declaration(name):
    # "庄家打出第一张牌时报听称为天听": the dealer's 报听 comes with a discard,
    # 天胡 before any discard — they never meet
    for flag in ("ready", "heavenly_ready", "ready_first"):
        with pytest.raises(InvalidHandError, match="before any 报听"):
            score(name, self_drawn=True, heavenly=True, **{flag: True})


@both
def test_heavenly_hand_drops_the_wait_fans(name):
    # "天胡 … 不记番： 单钓将、边张、砍张"
    got = fans(name, self_drawn=True, heavenly=True)
    assert "SINGLE_WAIT" not in got
    assert "SINGLE_WAIT" in fans(name, self_drawn=True)


# -- 地胡 ---------------------------------------------------------------------


@both
def test_earthly_hand_is_the_non_dealers_win_on_its_first_draw(name):
    # "地胡 闲家摸到第一张牌就和牌,称为地和"
    got = fans(name, self_drawn=True, earthly=True, seat_wind=WEST)
    assert got["EARTHLY_HAND"] == 1


@both
def test_earthly_hand_is_not_the_dealers(name):
    # "闲家摸到第一张牌": the dealer (东) has no 地胡
    with pytest.raises(InvalidHandError, match="is the non-dealer's"):
        score(name, self_drawn=True, earthly=True, seat_wind=EAST)


@both
def test_earthly_hand_is_self_drawn(name):
    with pytest.raises(InvalidHandError, match="is a self-drawn win"):
        score(name, earthly=True, seat_wind=WEST)


@both
def test_earthly_hand_after_a_flower_first_draw_still_counts(name):
    # "如果闲家抓的第一张牌是花牌，那么补花之后和牌也算地和"
    got = fans(
        name,
        self_drawn=True,
        earthly=True,
        seat_wind=WEST,
        flowers=(Tile.parse("3f"),),
    )
    assert got["EARTHLY_HAND"] == 1


@both
@pytest.mark.parametrize(
    "meld",
    [
        ("pung", "111z", "1z"),
        ("kong", "1111z", "1z"),
        ("concealed_kong", "1111z", None),
    ],
)
def test_earthly_hand_with_a_meld_is_refused(name, meld):
    # "如果闲家抓牌前有人吃碰杠（包括暗杠），那么不算地和"
    kind, tiles, claimed = meld
    with pytest.raises(InvalidHandError, match="with a meld is impossible"):
        score(
            name,
            standing="123m456m789m2z",
            melds=(Meld.parse(kind, tiles, claimed),),
            self_drawn=True,
            earthly=True,
            seat_wind=WEST,
        )


@both
def test_earthly_hand_with_a_chow_is_refused(name):
    # "有人吃碰杠" — 吃 too
    s = SUIT[name]
    with pytest.raises(InvalidHandError, match="with a meld is impossible"):
        score(
            name,
            standing="456m789m111z2z",
            melds=(Meld.parse("chi", f"123{s}", f"1{s}"),),
            self_drawn=True,
            earthly=True,
            seat_wind=WEST,
        )


# -- 人胡 ---------------------------------------------------------------------


@both
def test_human_hand_is_the_non_dealers_win_on_the_dealers_first_discard(name):
    # "人胡 庄家打出的第一张牌闲家就和牌称为人和"
    got = fans(name, human=True, seat_wind=WEST)
    assert got["HUMAN_HAND"] == 1


@both
def test_human_hand_is_not_self_drawn(name):
    with pytest.raises(InvalidHandError, match="dealer's first discard"):
        score(name, human=True, self_drawn=True, seat_wind=WEST)


@both
def test_human_hand_is_not_the_dealers(name):
    # "庄家打出的第一张牌闲家就和牌": the winner is the 闲家
    with pytest.raises(InvalidHandError, match="is the non-dealer's"):
        score(name, human=True, seat_wind=EAST)


@both
def test_human_hand_is_not_a_robbed_kong(name):
    # "庄家打出的第一张牌": a discard, not an added kong
    with pytest.raises(InvalidHandError, match="not a robbed kong"):
        score(name, human=True, kong=True, seat_wind=WEST)


@both
def test_human_hand_winner_holds_no_melds(name):
    # "如果庄家出牌前有暗杠，那么不算人和" — and the 闲家 has had no turn before
    # the dealer's first discard, so it holds no meld at all
    with pytest.raises(InvalidHandError, match="with a meld is impossible"):
        score(
            name,
            standing="123m456m789m2z",
            melds=(kong(name, "1z", concealed=True),),
            human=True,
            seat_wind=WEST,
        )


@both
def test_only_one_first_turn_win(name):
    with pytest.raises(InvalidHandError, match="only one of"):
        score(name, self_drawn=True, heavenly=True, earthly=True)


# -- 天听 ---------------------------------------------------------------------


@both
def test_dealers_heavenly_ready_scores_on_a_later_win(name):
    # "庄家打出第一张牌时报听称为天听" … "天听要在和牌后才算番"
    got = fans(name, heavenly_ready=True, ready=True, seat_wind=EAST)
    assert got["HEAVENLY_READY"] == 1
    assert "READY_HAND" not in got  # 天听 implies 报听 (不重复, RULES.md)
    out = score(name, heavenly_ready=True, ready=True)
    line = next(f for f in out.lines if f.id == "HEAVENLY_READY")
    assert line.points == HEAVENLY_READY[name]


@both
def test_non_dealers_heavenly_ready_goes_with_a_human_hand(name):
    # "发完牌后闲家便报听也称为天听": the 闲家's 天听 comes before the dealer's
    # first discard, so it can win 人胡 on it — and that win is on the first
    # discard after its 报听: 报听一发 (erren; jj has no 报听一发)
    got = fans(name, human=True, heavenly_ready=True, ready=True, seat_wind=WEST)
    assert got["HUMAN_HAND"] == 1 and got["HEAVENLY_READY"] == 1
    if name == "erren":
        assert got["READY_FIRST_DISCARD"] == 1
    else:
        assert "READY_FIRST_DISCARD" not in got
    explicit = fans(
        name,
        human=True,
        heavenly_ready=True,
        ready=True,
        ready_first=True,
        seat_wind=WEST,
    )
    assert explicit == got


@both
def test_non_dealers_heavenly_ready_goes_with_an_earthly_hand(name):
    # "发完牌后闲家便报听也称为天听" + "闲家摸到第一张牌就和牌": 地胡 after 天听;
    # self-drawn, so no 报听一发 ("报听后，对家打出的第一张牌点炮")
    got = fans(
        name,
        self_drawn=True,
        earthly=True,
        heavenly_ready=True,
        ready=True,
        seat_wind=WEST,
    )
    assert got["EARTHLY_HAND"] == 1 and got["HEAVENLY_READY"] == 1
    assert "READY_FIRST_DISCARD" not in got


@both
def test_a_plain_ready_goes_with_a_human_hand_without_ready_first(name):
    # a 报听 made in the claim window of the dealer's first discard is after
    # that discard: not 天听, and the win on that same discard is not 一发
    got = fans(name, human=True, ready=True, seat_wind=WEST)
    assert got["HUMAN_HAND"] == 1 and got["READY_HAND"] == 1
    assert "HEAVENLY_READY" not in got and "READY_FIRST_DISCARD" not in got


@both
def test_ready_first_on_the_dealers_first_discard_needs_heavenly_ready(name):
    # only 天听 ("发完牌后闲家便报听") is declared before the dealer's first
    # discard, so 报听一发 on that discard without 天听 cannot happen
    with pytest.raises(InvalidHandError, match="needs heavenly_ready"):
        score(name, human=True, ready=True, ready_first=True, seat_wind=WEST)


def test_ready_first_on_a_self_drawn_win_scores_without_it():
    # "报听一发 报听后，对家打出的第一张牌点炮": a discard; a self-drawn win with
    # the flag is scored without the fan (RULES.md, first-turn fans)
    got = fans("erren", self_drawn=True, ready=True, ready_first=True)
    assert "READY_FIRST_DISCARD" not in got and got["READY_HAND"] == 1


def test_first_turn_check_is_skipped_only_without_a_first_turn_flag():
    """check_first_turn returns at once when none of 天胡/地胡/人胡 is set
    (issue 15: every score calls it): over every combination of the flags
    it reads, that is exactly when first_turn_win finds none, and the
    combinations with one are still refused or passed as the rules say (a
    first-turn win with a meld is always refused)."""
    import itertools

    from games.rules.first_turn import check_first_turn, first_turn_win

    meld = Meld.parse("pung", "111m", "1m")
    names = (
        "heavenly",
        "earthly",
        "human",
        "self_drawn",
        "kong",
        "ready",
        "heavenly_ready",
        "ready_first",
    )
    checked = refused = 0
    for flags in itertools.product((False, True), repeat=len(names)):
        for wind in (EAST, WEST):
            s = WinSituation(
                win_tile=Tile.parse("1m"),
                seat_wind=wind,
                **dict(zip(names, flags, strict=True)),
            )
            none = not (s.heavenly or s.earthly or s.human)
            try:
                first = first_turn_win(s)
            except InvalidHandError:
                assert not none
                continue
            assert (first is None) is none
            for melds in ((), (meld,)):
                checked += 1
                try:
                    check_first_turn(s, melds)
                except InvalidHandError:
                    refused += 1
                    assert not none
                else:
                    assert none or not melds
    assert checked > 200
    assert 0 < refused < checked
