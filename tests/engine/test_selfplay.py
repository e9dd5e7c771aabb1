"""Contract test: self-play with every check passes on every rule set."""

from __future__ import annotations

import json

import pytest

from games.engine.selfplay import main, run
from tests.engine.helpers import available_rulesets


@pytest.mark.parametrize("name", available_rulesets())
def test_selfplay_check_has_no_errors(name: str) -> None:
    summary = run(name, 12, 99, check=True)
    assert summary["errors"] == 0, summary.get("first_errors")
    assert summary["hands"] == 12
    assert summary["self_drawn"] + summary["by_discard"] + summary["draws"] == 12


def test_cli_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["selfplay", "--ruleset", "jj", "--hands", "3", "--seed", "5"])
    out = capsys.readouterr().out.strip().splitlines()
    assert status == 0 and len(out) == 1
    data = json.loads(out[0])
    assert data["ruleset"] == "jj" and data["hands"] == 3 and data["errors"] == 0
    assert set(data) >= {
        "self_drawn",
        "by_discard",
        "draws",
        "average_fan",
        "hands_per_second",
        "cpu_hands_per_second",
    }


@pytest.mark.parametrize("bot", ["simple", "easy", "normal", "hard"])
def test_selfplay_with_each_bot_level_passes_every_check(bot: str) -> None:
    summary = run("erren", 4, 7, check=True, bot=bot)
    assert summary["errors"] == 0, summary.get("first_errors")
    assert summary["bot"] == bot and summary["hands"] == 4


def test_unknown_bot_level_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match="easy, normal, hard"):
        run("erren", 1, 1, check=False, bot="grandmaster")
