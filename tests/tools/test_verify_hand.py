"""tools/verify_hand.py: the offline, standard-library-only check of a hand file.

The script shares no code with the site; these tests tie it to the engine
(its rule-set table, its shuffle) and feed it tampered files.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.bots import make_bot
from games.engine.hand import TASK_FANS, Hand
from games.engine.wall import SHUFFLE_MT, SHUFFLE_SHA256, build_wall, wall_tiles
from games.rules.rulesets import NAMES, System, get
from games.rules.tiles import ALL_TILES, format_tiles

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "verify_hand.py"

spec = importlib.util.spec_from_file_location("verify_hand", SCRIPT)
assert spec and spec.loader
vh = importlib.util.module_from_spec(spec)
sys.modules["verify_hand"] = vh  # dataclasses look their module up
spec.loader.exec_module(vh)


def _play(ruleset: str, seed: str, shuffle: int = SHUFFLE_SHA256) -> Hand:
    hand = Hand.new(ruleset, now=0.0, seed=seed, shuffle=shuffle)
    bots = [make_bot("easy", random.Random(1)), make_bot("easy", random.Random(2))]
    t = 0.0
    while not hand.ended:
        seat = next(i for i in (0, 1) if hand.state.pending[i])
        t += 1
        hand.apply(bots[seat].choose(hand.view(seat), hand.legal_actions(seat)), t)
    return hand


def _file(hand: Hand) -> dict[str, Any]:
    """The parts of an export the script reads (the site's export has more)."""
    last = copy.deepcopy(hand.events[-1].payload)
    return {
        "schema": "erren2-hand",
        "schema_version": 1,
        "fairness": {"seed": hand.state.seed, "commitment": hand.state.commitment},
        "events": [e.to_json() for e in hand.events],
        # as the site stores them: the last event's result and settlement
        "result": {
            k: v
            for k, v in last.items()
            if k not in ("melds", "swapped", "seed", "commitment")
        },
        "settlement": copy.deepcopy(last.get("settlement")),
    }


def test_the_scripts_rule_set_table_is_the_sites():
    assert set(vh.RULESETS) == set(NAMES)
    for name in NAMES:
        rs = get(name)
        kinds, flowers, fans = vh.RULESETS[name]
        assert kinds == format_tiles(list(rs.kinds))
        assert flowers == (format_tiles(list(rs.flowers)) if rs.flowers else "")
        wall = [t for t in vh.tiles_of(kinds) for _ in range(4)] + vh.tiles_of(flowers)
        assert wall == [str(ALL_TILES[i]) for i in wall_tiles(rs)]
        assert [vh.tile_index(t) for t in wall] == wall_tiles(rs)
        ids = {f.id for f in rs.fans}
        if System.TASK_DOUBLE in rs.systems:
            assert fans == tuple(f for f in TASK_FANS if f in ids)
        else:
            assert fans == ()


@pytest.mark.parametrize("version", [SHUFFLE_MT, SHUFFLE_SHA256])
@pytest.mark.parametrize("name", NAMES)
def test_the_scripts_wall_is_the_engines(name, version):
    rs = get(name)
    codes = [str(ALL_TILES[i]) for i in wall_tiles(rs)]
    engine, _ = build_wall(rs, f"w-{name}", version)
    script, _ = vh.shuffled(codes, f"w-{name}", version)
    assert script == [str(ALL_TILES[i]) for i in engine]


@pytest.mark.parametrize("name", NAMES)
def test_real_hands_of_every_rule_set_verify(name):
    for version in (SHUFFLE_MT, SHUFFLE_SHA256):
        for i in range(3):
            hand = _play(name, f"v-{name}-{i}", version)
            report = vh.verify(_file(hand))
            assert report.ok, report.lines
            # the deal and every draw were compared
            draws = sum(1 for e in hand.events if e.kind == "draw")
            wild = 1 if hand.state.wild is not None else 0
            assert report.tiles == 27 + draws + wild


def _first(data: dict[str, Any], kind: str, **where: Any) -> dict[str, Any]:
    return next(
        e
        for e in data["events"]
        if e["kind"] == kind and all(e["payload"].get(k) == v for k, v in where.items())
    )


def _other_tile(tile: str) -> str:
    return "9m" if tile != "9m" else "8m"


def test_tampered_files_fail():
    hand = _play("erren", "tamper")
    good = _file(hand)
    assert vh.verify(good).ok

    seed = copy.deepcopy(good)
    seed["fairness"]["seed"] = "0" * 32
    report = vh.verify(seed)
    assert not report.ok
    assert any("commitment" in line for line in report.lines if line.startswith("FAIL"))

    draw = copy.deepcopy(good)
    ev = _first(draw, "draw", replacement=False)
    ev["payload"]["tile"] = _other_tile(ev["payload"]["tile"])
    report = vh.verify(draw)
    assert not report.ok
    assert any(f"#{ev['seq']} draw" in line for line in report.lines)

    deal = copy.deepcopy(good)
    ev = _first(deal, "deal")
    ev["payload"]["tiles"][0] = _other_tile(ev["payload"]["tiles"][0])
    assert not vh.verify(deal).ok

    commit = copy.deepcopy(good)
    commit["events"][0]["payload"]["commitment"] = "f" * 64
    assert not vh.verify(commit).ok

    task = copy.deepcopy(good)
    ev = _first(task, "task")
    ev["payload"]["kind"] = "kong" if ev["payload"]["kind"] != "kong" else "double"
    assert not vh.verify(task).ok


def _won(ruleset: str) -> dict[str, Any]:
    """A file of a hand somebody won (the first of a few seeds)."""
    for i in range(20):
        data = _file(_play(ruleset, f"won-{i}"))
        if data["result"]["winner"] is not None:
            return data
    raise AssertionError("no won hand")


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        # issue 12 tester fault 1: an edited result passed every check
        (lambda d: d["result"].update(winner=1 - d["result"]["winner"]), "winner"),
        (
            lambda d: d["result"]["fans"][0].update(
                id="BIG_FOUR_WINDS", zh="大四喜", points=88
            ),
            "result.fans",
        ),
        (lambda d: d["settlement"].update(coins=d["settlement"]["coins"] + 1), "coins"),
        (lambda d: d["settlement"].update(deltas=[500, -500]), "deltas"),
        (
            lambda d: d["result"].update(self_drawn=not d["result"]["self_drawn"]),
            "self_drawn",
        ),
    ],
)
def test_an_edited_result_fails(edit, says):
    data = _won("erren")
    assert vh.verify(data).ok
    edit(data)
    report = vh.verify(data)
    assert not report.ok
    assert any(says in line for line in report.lines if line.startswith("FAIL  result"))


def test_a_result_edited_in_the_log_too_fails_where_the_log_decides():
    """Edited in both places, the result still has to follow from the moves:
    the winner is the seat of the winning move, the total the sum of the fans."""
    data = _won("erren")
    last = data["events"][-1]["payload"]
    for place in (data["result"], last):
        place["winner"] = 1 - place["winner"]
    report = vh.verify(data)
    assert not report.ok
    assert any("winning move" in line for line in report.lines)
    data = _won("erren")
    for place in (data["result"], data["events"][-1]["payload"]):
        place["fans"][0]["points"] += 80
    report = vh.verify(data)
    assert any("fan_total" in line for line in report.lines if line.startswith("FAIL"))


def test_tampered_indicators_fail():
    wild = _file(_play("liangren", "tamper-wild"))
    assert vh.verify(wild).ok
    ev = _first(wild, "indicator")
    ev["payload"]["wild"] = _other_tile(ev["payload"]["wild"])
    assert not vh.verify(wild).ok
    bonus = _file(_play("jj", "tamper-bonus"))
    assert vh.verify(bonus).ok
    ev = _first(bonus, "indicator")
    ev["payload"]["bonus_tile"] = _other_tile(ev["payload"]["bonus_tile"])
    assert not vh.verify(bonus).ok


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"schema": "other", "schema_version": 1},
        {"schema": "erren2-hand", "schema_version": 99},
        {"schema": "erren2-hand", "schema_version": 1, "fairness": {}},
        {
            "schema": "erren2-hand",
            "schema_version": 1,
            "fairness": {"seed": "x"},
            "events": [],
        },
        [1, 2, 3],
    ],
)
def test_files_that_are_not_hands_are_refused(bad):
    with pytest.raises(vh.BadFile):
        vh.verify(bad)


def test_the_script_runs_on_its_own(tmp_path):
    hand = _play("mcr", "cli")
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(_file(hand)), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(good)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout
    # a file with a tampered move passes this seed-only check, so the output
    # says in as many words that the rules were not checked (fresh tester)
    *_, rules, verdict = run.stdout.strip().splitlines()
    assert verdict == "VERIFIED (seed, wall and result; the rules were not checked)"
    assert rules.startswith("NOT CHECKED  the rules of play")
    data = _file(hand)
    data["fairness"]["seed"] = "changed"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert "NOT VERIFIED" in run.stdout
    # it imports nothing outside the standard library
    source = SCRIPT.read_text(encoding="utf-8")
    assert "games" not in {
        line.split()[1].split(".")[0]
        for line in source.splitlines()
        if line.startswith(("import ", "from "))
    }


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,
        bytes(range(256)) * 40,  # a binary file
        b'{"schema": "erren2-hand", "schema_version": 1, "fairness": [], "events": 7}',
        b"[1, 2",
    ],
)
def test_a_file_that_cannot_be_read_fails_cleanly(tmp_path, raw):
    """Issue 12 tester fault 3: a clean FAIL, never a traceback."""
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    run = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout.startswith("FAIL  ")
    assert "Traceback" not in run.stderr + run.stdout
