"""The command line (issue 3): ``python -m games.rules score|waits|shanten|describe``.

Run as a real subprocess on JSON lines, as tools and checks use it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def score_lines(ruleset: str, *lines: str) -> list[dict[str, Any]]:
    proc = cli("score", "--ruleset", ruleset, stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_score_answers_every_line_in_order() -> None:
    lines = [
        # erren 九莲宝灯 on 5m (seed 000: 不记 清一色、不求人、门前清、幺九刻)
        json.dumps({"id": "nine", "concealed": "1112345678999m", "win_tile": "5m"}),
        "",  # blank lines are skipped, not answered
        '{"id": "broken", "concealed": ',
        json.dumps({"id": 7, "concealed": "12x3m", "win_tile": "5m"}),
        json.dumps({"id": "typo", "concealed": "1m", "win_tile": "1m", "selfdrawn": 1}),
        json.dumps({"id": "pin", "concealed": "123p456m789m11z2z", "win_tile": "2z"}),
        json.dumps({"id": "open", "concealed": "123m456m789m11z23z", "win_tile": "4z"}),
        json.dumps(
            {
                "id": "low",
                "concealed": "345m666m7z",
                "win_tile": "7z",
                "melds": [
                    {"type": "chi", "tiles": "234m", "claimed": "2m"},
                    {"type": "pung", "tiles": "888m", "claimed": "8m"},
                ],
            }
        ),
    ]
    out = score_lines("erren", *lines)
    assert [o["id"] for o in out] == ["nine", None, 7, "typo", "pin", "open", "low"]
    nine = out[0]
    assert nine["win"] is True
    assert nine["fans"] == [
        {"id": "NINE_GATES", "name": "九莲宝灯", "points": 88, "count": 1},
        {"id": "NO_FLOWERS", "name": "无花牌", "points": 4, "count": 1},
        {"id": "TWO_CONCEALED_PUNGS", "name": "双暗刻", "points": 2, "count": 1},
    ]
    assert nine["total"] == 94
    broken = out[1]
    assert broken["win"] is False and broken["reason"] == "malformed"
    assert "line 3" in broken["error"] and "column" in broken["error"]
    notation = out[2]
    assert notation["reason"] == "malformed"
    assert "'concealed'" in notation["error"] and "position 2" in notation["error"]
    assert out[3]["reason"] == "malformed" and "selfdrawn" in out[3]["error"]
    assert out[4]["reason"] == "invalid" and "1p" in out[4]["error"]
    assert out[5] == {
        "id": "open",
        "win": False,
        "reason": "not_winning",
        "error": "not a complete hand",
    }
    low = out[6]
    assert low["win"] is False and low["reason"] == "below_minimum"
    assert low["error"] == "below the 8-fan minimum (7)"
    assert low["total"] == 11  # 混一色 6 + 单钓 1 + 无花牌 4 (not toward the minimum)


def test_no_fan_at_all_is_below_the_minimum() -> None:
    # youxi: a hand with no fan is complete but under its 1-fan minimum.
    out = score_lines(
        "youxi",
        json.dumps(
            {
                "concealed": "567p345s66s78m",
                "win_tile": "6m",
                "melds": [{"type": "pung", "tiles": "111z", "claimed": "1z"}],
            }
        ),
    )[0]
    assert out["reason"] == "below_minimum" and out["total"] == 0
    assert out["fans"] == []


def test_score_two_player_fields() -> None:
    hand = {"concealed": "1122334455667z", "win_tile": "7z", "self_drawn": True}
    out = score_lines(
        "erren",
        json.dumps({"id": 1, **hand, "heavenly": True}),
        json.dumps({"id": 2, **hand, "flowers": "5678f"}),
    )
    assert {f["id"] for f in out[0]["fans"]} == {
        "BIG_SEVEN_STARS",
        "HEAVENLY_HAND",
        "SELF_DRAWN",
        "NO_FLOWERS",
    }
    assert out[0]["total"] == 88 + 48 + 1 + 4
    assert out[1]["total"] == 88 + 1 + 4 + 4  # 大七星, 自摸, 梅兰竹菊, 4 花牌
    jj = score_lines(
        "jj",
        json.dumps(
            {
                "concealed": "123s456s789s111z5z",
                "win_tile": "5z",
                "bonus_tiles": "5z",
                "ready": True,
            }
        ),
    )[0]
    ids = {f["id"]: f["points"] for f in jj["fans"]}
    assert ids["BONUS_TILE"] == 10 and ids["READY_HAND"] == 4


def test_contradictory_two_player_flags_are_invalid() -> None:
    hand = {"concealed": "1122334455667z", "win_tile": "7z"}
    out = score_lines(
        "erren",
        json.dumps({"id": 1, **hand, "heavenly": True}),  # 天胡 not self-drawn
        json.dumps({"id": 2, **hand, "human": True, "self_drawn": True}),
        json.dumps(
            {"id": 3, **hand, "self_drawn": True, "heavenly": True, "earthly": True}
        ),  # fmt: skip
    )
    assert [o["reason"] for o in out] == ["invalid"] * 3
    assert "self-drawn" in out[0]["error"] and "人胡" in out[1]["error"]


def test_score_with_wild_reports_the_assignment() -> None:
    out = score_lines(
        "liangren",
        json.dumps(
            {
                "id": "w",
                "concealed": "123m456m78m111z9p9p",
                "win_tile": "6z",
                "wild": "9p",
            }
        ),
    )[0]
    assert out["win"] is True and out["assignment"] == "9m6z"
    assert out["total"] == 16 + 6 + 2 + 2 + 2 + 1


def test_waits_and_shanten() -> None:
    proc = cli("waits", "1112345678999m")
    assert proc.returncode == 0
    got = json.loads(proc.stdout)
    assert [w["tile"] for w in got["waits"]] == [f"{i}m" for i in range(1, 10)]
    assert got["waits"][0] == {"tile": "1m", "remaining": 1}
    proc = cli("shanten", "123m456m789m11z2z3z")
    assert json.loads(proc.stdout)["shanten"] == 1
    proc = cli("waits", "--ruleset", "liangren", "--wild", "9p", "123m456m789m111z9p")
    kinds = [w["tile"] for w in json.loads(proc.stdout)["waits"]]
    assert len(kinds) == 34  # a wild pair partner: any tile completes


def test_waits_bad_input_is_reported() -> None:
    proc = cli("waits", "12x")
    assert proc.returncode == 1
    assert "position 2" in json.loads(proc.stdout)["error"]
    proc = cli("waits", "--ruleset", "erren", "123p456m789m11z2z")
    assert "not in rule set" in json.loads(proc.stdout)["error"]


def test_describe() -> None:
    proc = cli("describe", "--ruleset", "youxi", "--json")
    d = json.loads(proc.stdout)
    assert d["wall_size"] == 136 and d["min_fan"] == 1
    assert d["fans"][0]["points"] == 20
    assert d["timers"]["discard"] == 15 and d["timers"]["claim"] == 10
    text = cli("describe").stdout  # default: erren
    assert text.startswith("erren — 二人麻将")
    assert "wall size:    72" in text and "HEAVENLY_READY" in text


def test_help_documents_the_two_player_fields() -> None:
    text = cli("score", "--help").stdout
    for field in (
        "heavenly",
        "earthly",
        "human",
        "heavenly_ready",
        "ready",
        "ready_first",
        "bonus_tiles",
        "wild",
    ):
        assert f"  {field} " in text, field
