"""Settlement: the seed formulas, cap, rake and conservation."""

from __future__ import annotations

import pytest

from games.engine.settle import Outcome, settle
from games.rules.rulesets import get


def test_seed_000_example_adds_the_doubling_shares_to_84():
    # 底番10番，开始每人都选择加倍，胡加倍1次，任务加倍X2 → 84番 (seed 000)
    out = Outcome(
        winner=0,
        base_fan=10,
        start_double=(True, True),
        win_doubles=1,
        task_done=True,
        task_factor=2,
    )
    st = settle(out, ruleset=get("erren"), stake=1, balances=(10_000, 10_000))
    assert st.fan == 84
    keys = {line.key: line.value for line in st.lines}
    assert (
        keys["start_double"] == 40 and keys["win_double"] == 24 and keys["task"] == 20
    )
    assert st.multiplier == 1
    # The site keeps 5 % of every winner's gain (seed 002), whatever the rule set.
    assert st.coins == 84 and st.rake == 4
    assert st.deltas == (80, -84) and st.skill == (84, 0)
    liangren = settle(
        Outcome(winner=0, base_fan=84),
        ruleset=get("liangren"),
        stake=1,
        balances=(10_000, 10_000),
    )
    assert liangren.rake == 4  # 5 % of 84 = 4.2 → 4 (seed 002)
    assert liangren.deltas == (80, -84)


def test_win_doubles_follow_the_seed_table():
    rs = get("erren")
    for n, want in [(2, (10 + 4) * 4), (8, (10 + 16) * 256)]:
        st = settle(
            Outcome(winner=1, base_fan=10, win_doubles=n),
            ruleset=rs,
            stake=1,
            balances=(10**9, 10**9),
        )
        assert st.fan == want


def test_no_doubling_share_leaves_the_base():
    st = settle(
        Outcome(winner=1, base_fan=13, self_drawn=True),
        ruleset=get("erren"),
        stake=3,
        balances=(500, 500),
    )
    assert st.fan == 13 and st.coins == 39  # 自摸不加倍
    assert st.deltas == (-39, 37)  # 5 % of 39 = 1.95 → 2 kept by the site
    st = settle(
        Outcome(winner=1, base_fan=13, self_drawn=True),
        ruleset=get("liangren"),
        stake=3,
        balances=(500, 500),
    )
    assert st.rake == 2  # 5 % of 39 = 1.95 → 2 (half up)
    assert st.deltas == (-39, 37)


def test_liangren_multipliers_multiply():
    # 明牌 ×4 each (both opened: ×16), 加倍 ×2, 听牌胡 ×2 (seed 002)
    out = Outcome(
        winner=0,
        base_fan=8,
        open_hand=(True, True),
        deal_double=(False, True),
        ready_win=True,
    )
    st = settle(out, ruleset=get("liangren"), stake=2, balances=(100_000, 100_000))
    assert st.multiplier == 4 * 4 * 2 * 2
    assert st.coins == 8 * 2 * 64
    assert st.skill == (8 * 64, 0)


def test_coins_are_capped_at_the_poorer_balance():
    st = settle(
        Outcome(winner=0, base_fan=88),
        ruleset=get("mcr"),
        stake=10,
        balances=(5000, 300),
    )
    assert st.coins == 300 and st.rake == 15
    assert st.deltas == (285, -300)
    assert any(line.key == "cap" for line in st.lines)


def test_draw_moves_nothing():
    st = settle(Outcome(winner=None), ruleset=get("erren"), stake=5, balances=(1, 1))
    assert st.deltas == (0, 0) and st.rake == 0 and st.winner is None


@pytest.mark.parametrize("fan", [1, 7, 19, 20, 21, 99, 1234])
def test_balances_are_conserved(fan):
    st = settle(
        Outcome(winner=1, base_fan=fan),
        ruleset=get("liangren"),
        stake=7,
        balances=(10_000, 10_000),
    )
    assert st.deltas[0] + st.deltas[1] + st.rake == 0
    assert st.rake == (st.coins * 5 + 50) // 100


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        settle(
            Outcome(winner=0, base_fan=1),
            ruleset=get("erren"),
            stake=0,
            balances=(1, 1),
        )
    with pytest.raises(ValueError):
        settle(
            Outcome(winner=2, base_fan=1),
            ruleset=get("erren"),
            stake=1,
            balances=(1, 1),
        )


def test_worded_notes_are_codes_for_the_interface_to_translate():
    """Line notes hold no interface words: the worded ones are note codes
    (NOTE_CODES), translated by the presentation layer."""
    import re

    from games.engine.settle import NOTE_CODES
    from games.rules.rulesets import NAMES

    cjk = re.compile(r"[\u3400-\u9fff]")
    codes: set[str] = set()
    for name in NAMES:
        for out in (
            Outcome(
                winner=0,
                base_fan=10,
                self_drawn=True,
                open_hand=(True, True),
                deal_double=(True, False),
            ),
            Outcome(winner=None, base_fan=0),
        ):
            st = settle(out, ruleset=get(name), stake=10, balances=(10**6, 10**6))
            for line in st.lines:
                assert not cjk.search(line.note), (name, line)
                assert line.note_code in NOTE_CODES or not line.note_code
                assert line.to_json()["note_code"] == line.note_code
                codes.add(line.note_code)
    st = settle(
        Outcome(winner=1, base_fan=13, self_drawn=True),
        ruleset=get("erren"),
        stake=3,
        balances=(500, 500),
    )
    line = next(x for x in st.lines if x.key == "self_drawn")
    assert (line.value, line.note, line.note_code) == (1, "", "self_drawn_not_doubled")
    assert "draw_no_score" in codes
