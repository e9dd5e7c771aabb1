"""The bot contract, held by every level (issue 5).

A bot gets ``view(seat)`` and ``legal_actions(seat)`` and returns one of the
legal actions; it never sees the wall or the opponent's concealed tiles, so
changing those while the view stays equal cannot change its decision.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine.actions import Action, Discard, Pass, Pung, Ready, Win
from games.engine.bots import LEVELS, make_bot
from games.engine.bots.arena import coin_deltas, play_hand
from games.engine.hand import Hand

RULESETS = ["erren", "mcr"]


def _seat_to_act(hand: Hand) -> int:
    return next(i for i in (0, 1) if hand.state.pending[i])


def _advance(hand: Hand, bots: list[Any], steps: int) -> None:
    for _ in range(steps):
        if hand.ended:
            return
        seat = _seat_to_act(hand)
        hand.apply(
            bots[seat].choose(hand.view(seat), hand.legal_actions(seat)), now=0.0
        )


def _hide_differently(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """A copy of ``hand`` where the wall order and the opponent's concealed
    tiles differ but ``seat``'s view is the same."""
    other = copy.deepcopy(hand)
    s = other.state
    opp = 1 - seat
    rest = s.wall[s.head : s.tail]
    rng.shuffle(rest)
    s.wall[s.head : s.tail] = rest
    for _ in range(4):
        held = [k for k, n in enumerate(s.concealed[opp]) if n and k != s.drawn[opp]]
        spots = [j for j in range(s.head, s.tail) if s.wall[j] < 34]
        if not held or not spots:
            break
        k = rng.choice(held)
        j = rng.choice(spots)
        w = s.wall[j]
        s.concealed[opp][k] -= 1
        s.concealed[opp][w] += 1
        s.wall[j] = k
    return other


@pytest.mark.parametrize("level", sorted(LEVELS))
class TestBotContract:
    """Every level: legal, deterministic, blind to hidden tiles."""

    @pytest.mark.parametrize("ruleset", RULESETS)
    def test_plays_whole_hands_with_legal_actions(
        self, level: str, ruleset: str
    ) -> None:
        for i in range(3):
            bots = [
                make_bot(level, random.Random(i)),
                make_bot(level, random.Random(9)),
            ]
            hand = play_hand(ruleset, f"{i:032x}", bots, dealer=i % 2)
            assert hand.ended
            d = coin_deltas(hand)
            if hand.state.result and hand.state.result.get("winner") is not None:
                w = hand.state.result["winner"]
                assert d[w] > 0 > d[1 - w]
            else:
                assert d == (0, 0)

    def test_choice_is_an_element_of_legal(self, level: str) -> None:
        hand = Hand.new("erren", now=0.0, seed="ab" * 16)
        bots = [make_bot(level, random.Random(1)), make_bot(level, random.Random(2))]
        for _ in range(60):
            if hand.ended:
                break
            seat = _seat_to_act(hand)
            legal = hand.legal_actions(seat)
            action = bots[seat].choose(hand.view(seat), legal)
            assert action in legal
            hand.apply(action, now=0.0)

    def test_same_rng_same_game(self, level: str) -> None:
        def run() -> list[dict[str, Any]]:
            bots = [
                make_bot(level, random.Random(5)),
                make_bot(level, random.Random(6)),
            ]
            hand = play_hand("mcr", "cd" * 16, bots)
            return [e.to_json() for e in hand.events]

        assert run() == run()

    @pytest.mark.parametrize("ruleset", RULESETS)
    def test_decision_ignores_the_wall_and_the_opponents_tiles(
        self, level: str, ruleset: str
    ) -> None:
        rng = random.Random(3)
        checked = 0
        for i in range(4):
            hand = Hand.new(ruleset, now=0.0, seed=f"{i:02x}" * 16, dealer=i % 2)
            bots = [
                make_bot(level, random.Random(1)),
                make_bot(level, random.Random(2)),
            ]
            for step in range(0, 80, 7):
                _advance(hand, bots, 7 if step else 1)
                if hand.ended:
                    break
                seat = _seat_to_act(hand)
                other = _hide_differently(hand, seat, rng)
                assert (
                    other.state.concealed[1 - seat] != hand.state.concealed[1 - seat]
                    or other.state.wall != hand.state.wall
                )
                view = hand.view(seat)
                assert other.view(seat) == view
                legal = hand.legal_actions(seat)
                assert other.legal_actions(seat) == legal
                a = make_bot(level, random.Random(7)).choose(view, legal)
                b = make_bot(level, random.Random(7)).choose(other.view(seat), legal)
                assert a == b
                checked += 1
        assert checked >= 8


# -- behaviour on synthetic views ------------------------------------------------


def _view(
    hand: list[str],
    *,
    phase: str = "turn",
    drawn: str | None = None,
    last_discard: str | None = None,
    ruleset: str = "mcr",
    opp_discards: list[str] | None = None,
    opp_ready: bool = False,
    wall: int = 60,
) -> dict[str, Any]:
    """A view shaped like ``Hand.view(0)``."""

    def side(i: int, mine: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": i,
            "wind": "1z" if i == 0 else "3z",
            "concealed_count": len(hand) + (1 if drawn else 0) if mine else 13,
            "melds": [],
            "discards": [] if mine else list(opp_discards or []),
            "flowers": [],
            "ready": False if mine else opp_ready,
            "auto_play": False,
            "open_hand": False,
            "start_double": False,
            "deal_double": False,
            "win_doubles": 0,
            "swaps": 0,
        }
        if mine:
            out["concealed"] = hand
            out["drawn"] = drawn
        return out

    return {
        "seq": 10,
        "ruleset": ruleset,
        "seat": 0,
        "dealer": 0,
        "round_wind": "1z",
        "phase": phase,
        "turn": 0,
        "pending": [0],
        "deadline": None,
        "wall_count": wall,
        "commitment": "x",
        "last_discard": last_discard,
        "indicators": {"bonus_tile": None, "wild": None},
        "task": None,
        "me": side(0, True),
        "opponent": side(1, False),
        "legal_actions": [],
        "result": None,
        "seed": None,
    }


def _tiles(text: str) -> list[str]:
    from games.rules.tiles import parse_tiles

    return [str(t) for t in parse_tiles(text)]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_always_wins_when_allowed(level: str) -> None:
    view = _view(_tiles("123456789m78s99p"), phase="claim", last_discard="9s")
    legal: list[Action] = [Win(0, 10), Pass(0, 10)]
    assert make_bot(level, random.Random(0)).choose(view, legal) == Win(0, 10)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_discards_the_lone_honour(level: str) -> None:
    from games.rules.tiles import Tile

    tiles = _tiles("123m456m789m23m11z")
    view = _view(tiles, drawn="7z")
    legal: list[Action] = [
        Discard(0, 10, Tile.parse(t)) for t in sorted(set(tiles) | {"7z"})
    ]
    picks = {make_bot(level, random.Random(s)).choose(view, legal) for s in range(5)}
    if level == "easy":
        # mostly greedy: the lone honour or, with noise, another tile that
        # keeps the hand one tile from waiting
        assert Discard(0, 10, Tile.parse("7z")) in picks
    else:
        assert picks == {Discard(0, 10, Tile.parse("7z"))}


def test_normal_throws_a_lone_drawn_tile_without_ranking(monkeypatch) -> None:
    from games.engine.bots import evaluate as ev
    from games.rules.tiles import Tile

    ranked: list[int] = []
    real = ev.rank_discards

    def counting(*args, **kw):  # type: ignore[no-untyped-def]
        ranked.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(ev, "rank_discards", counting)
    tiles = _tiles("123m456m789m23m11z")

    def choose(drawn: str, **kw: object) -> Action:
        view = _view(tiles, drawn=drawn, **kw)
        legal: list[Action] = [
            Discard(0, 10, Tile.parse(t)) for t in sorted(set(tiles) | {drawn})
        ]
        return make_bot("normal", random.Random(0)).choose(view, legal)

    # 5p touches nothing (no copy, no 3p-7p): thrown, no ranking
    assert choose("5p") == Discard(0, 10, Tile.parse("5p"))
    assert ranked == []
    # 7z: an honour the hand does not hold
    assert choose("7z") == Discard(0, 10, Tile.parse("7z"))
    assert ranked == []
    # 5m touches the hand's 3m-7m: the discards are ranked
    choose("5m")
    assert ranked == [1]
    # against a declared opponent the discards are ranked (the fold rule)
    choose("5p", opp_ready=True)
    assert ranked == [1, 1]
    # hard always ranks
    view = _view(tiles, drawn="5p")
    legal: list[Action] = [
        Discard(0, 10, Tile.parse(t)) for t in sorted(set(tiles) | {"5p"})
    ]
    make_bot("hard", random.Random(0)).choose(view, legal)
    assert ranked == [1, 1, 1]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_pung_that_does_not_help(level: str) -> None:
    # waiting on 2s/5s with 34s+55s (or 5s alone): punging 5s leaves a
    # single wait — no closer, and the hand is open
    view = _view(_tiles("123m456m789p3455s"), phase="claim", last_discard="5s")
    legal: list[Action] = [Pung(0, 10), Pass(0, 10)]
    assert make_bot(level, random.Random(0)).choose(view, legal) == Pass(0, 10)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_claims_towards_a_worthwhile_hand(level: str) -> None:
    # erren: 111 222m 33z 44z 77z 5z — punging 7z and throwing 5z leaves an
    # all-pungs, half-flush hand waiting on 3z/4z
    view = _view(
        _tiles("111m222m33z44z77z5z"),
        phase="claim",
        last_discard="7z",
        ruleset="erren",
    )
    legal: list[Action] = [Pung(0, 10), Pass(0, 10)]
    assert make_bot(level, random.Random(0)).choose(view, legal) == Pung(0, 10)


def test_hard_folds_against_ready_with_a_poor_hand() -> None:
    from games.rules.tiles import Tile

    # far from waiting; the opponent declared 报听 and then threw 5m and 9m
    tiles = _tiles("147m2589m1234z56z")
    view = _view(
        tiles,
        drawn="7z",
        ruleset="erren",
        opp_discards=["3m", "5m", "9m"],
        opp_ready=True,
        wall=10,
    )
    legal: list[Action] = [
        Discard(0, 10, Tile.parse(t)) for t in sorted(set(tiles) | {"7z"})
    ]
    view["opponent"]["ready_discard_index"] = 1  # declared after 3m
    choice = make_bot("hard", random.Random(0)).choose(view, legal)
    # 5m and 9m were thrown by the locked hand: they cannot be its wait
    assert choice in (
        Discard(0, 10, Tile.parse("5m")),
        Discard(0, 10, Tile.parse("9m")),
    )


def test_make_bot_levels() -> None:
    rng = random.Random(0)
    assert [make_bot(name, rng).level for name in ("easy", "normal", "hard")] == [
        "easy",
        "normal",
        "hard",
    ]
    with pytest.raises(KeyError, match="unknown bot level"):
        make_bot("grandmaster", rng)


def test_ready_declared_when_waiting_with_live_waits() -> None:
    from games.rules.tiles import Tile

    # erren: 123 456 789m 11z 23m + drawn 7z: throwing 7z waits on 1m/4m
    tiles = _tiles("123m456m789m11z23m")
    view = _view(tiles, drawn="7z", ruleset="erren")
    seven = Tile.parse("7z")
    legal: list[Action] = [Discard(0, 10, Tile.parse(t)) for t in sorted(set(tiles))]
    legal += [Discard(0, 10, seven), Ready(0, 10, seven)]
    for level in ("easy", "normal", "hard"):
        assert make_bot(level, random.Random(0)).choose(view, legal) == Ready(
            0, 10, seven
        ), level


@pytest.mark.parametrize("ruleset", RULESETS)
def test_observation_matches_the_seat_s_own_state(ruleset: str) -> None:
    from games.engine.bots.observation import observation_from_view

    bots = [make_bot("normal", random.Random(1)), make_bot("normal", random.Random(2))]
    seen = 0
    hands = (Hand.new(ruleset, now=0.0, seed=s * 16) for s in ("ef", "fe", "ee"))
    hand = next(hands)
    while seen < 40:
        if hand.ended:  # a short hand: look at the next one too
            hand = next(hands, hand)
            if hand.ended:
                break
        seat = _seat_to_act(hand)
        o = observation_from_view(hand.view(seat))
        s = hand.state
        # the test may look at the state; the bot only gets the view
        assert list(o.hand) == s.concealed[seat]
        assert o.wall_count == s.wall_count
        assert list(o.discards) == s.discards[seat]
        assert list(o.opp_discards) == s.discards[1 - seat]
        assert len(o.melds) == len(s.melds[seat])
        assert o.opp_meld_count == len(s.melds[1 - seat])
        assert sum(o.unseen()) == sum(4 - v for v in o.visible() if v <= 4) - sum(
            4 for k in range(34) if k not in {t.index for t in hand.ruleset.kinds}
        )
        seen += 1
        _advance(hand, bots, 1)
    assert seen >= 20


def test_hard_declines_a_cheap_early_win_for_a_win_double() -> None:
    from games.rules.tiles import Tile

    # erren, locked by 报听, 40 tiles left, waiting on 1m/4m/7m and drawing
    # 4m: winning again later at (base+2)×2 is worth more
    tiles = _tiles("23456m789m111z22z")
    view = _view(tiles, drawn="4m", ruleset="erren", wall=40)
    view["me"]["ready"] = True
    legal: list[Action] = [Win(0, 10), Discard(0, 10, Tile.parse("4m"))]
    assert make_bot("hard", random.Random(0)).choose(view, legal) == Discard(
        0, 10, Tile.parse("4m")
    )
    # the cap on 胡加倍 reached, or late in the wall: take it
    view["me"]["win_doubles"] = 8
    assert make_bot("hard", random.Random(0)).choose(view, legal) == Win(0, 10)
    view["me"]["win_doubles"] = 0
    view["wall_count"] = 6
    assert make_bot("hard", random.Random(0)).choose(view, legal) == Win(0, 10)
    # the other levels always win
    for level in ("easy", "normal"):
        assert make_bot(level, random.Random(0)).choose(view, legal) == Win(0, 10)


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("ruleset", ["erren64", "jj", "liangren", "youxi"])
def test_every_rule_set_plays_to_the_end(level: str, ruleset: str) -> None:
    # 财神 (liangren), 加番牌 (jj), 加倍 and 明牌 prompts, a full pool (youxi)
    for i in range(2):
        bots = [make_bot(level, random.Random(i)), make_bot(level, random.Random(4))]
        hand = play_hand(ruleset, f"{i + 7:032x}", bots, dealer=i % 2)
        assert hand.ended
        assert hand.state.result is not None


def test_the_view_says_where_the_opponents_ready_began() -> None:
    # issue 15: the seat's view carries it; the bots keep no memory of their own
    from games.engine.actions import Discard, Ready
    from games.engine.bots.observation import observation_from_view
    from games.rules.tiles import Tile
    from tests.engine.helpers import stacked

    hand = stacked("erren", "123m456m789m22z1z6z7z", "123456789m1z3z4z5z", draws="5z6z")
    assert hand.view(1)["opponent"]["ready_discard_index"] is None
    hand.apply(Discard(0, hand.seq, Tile.parse("1z")), now=1002.0)
    while hand.state.pending[1]:
        hand.apply(hand.default_action(1), now=1003.0)
    ready = Ready(0, hand.seq, Tile.parse("7z"))
    assert ready in hand.legal_actions(0)
    hand.apply(ready, now=1004.0)
    view = hand.view(1)
    assert view["opponent"]["discards"] == ["1z", "7z"]
    assert view["opponent"]["ready_discard_index"] == 1  # 7z made with 报听
    assert observation_from_view(view).opp_ready_index == 1
    assert hand.view(0)["me"]["ready_discard_index"] == 1
