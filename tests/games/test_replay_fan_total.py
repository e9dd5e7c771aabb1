"""The replay's last step and the record's 和牌 note give 总番数, not 番种合计.

Fresh tester (stop 28): an erren hand with 任务加倍 read "#37 东风客 自摸，17 番"
at the replay's last step while the settlement under it said 总番数 34.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from games.record import _note
from games.replay.board import Step
from games.replay.present import caption


def _ended(fan_total: int, settled: int) -> dict:
    line = {"key": "fan", "zh": "总番数", "en": "Total fan", "value": settled}
    return {
        "reason": "win",
        "winner": 0,
        "loser": 1,
        "self_drawn": True,
        "fan_total": fan_total,
        "settlement": {"fan": settled, "lines": [line]},
    }


def _replay() -> SimpleNamespace:
    players = [SimpleNamespace(display="东风客"), SimpleNamespace(display="西窗月")]
    return SimpleNamespace(file=SimpleNamespace(players=players))


def _step(data: dict) -> Step:
    return Step(37, 120, "hand_ended", None, data, False, {})


def test_the_last_step_says_the_settled_total():
    with translation.override("zh-hans"):
        assert caption(_replay(), _step(_ended(17, 34))) == "东风客 自摸，34 番"
        won = dict(_ended(8, 8), self_drawn=False)
        assert caption(_replay(), _step(won)) == "东风客 和牌，8 番"


def test_the_record_note_says_the_settled_total():
    with translation.override("zh-hans"):
        assert _note("hand_ended", _ended(17, 34)) == "和牌 34 番"
        # a stored result without a settlement falls back to the scorer's sum
        assert _note("hand_ended", {"winner": 1, "fan_total": 9}) == "和牌 9 番"
