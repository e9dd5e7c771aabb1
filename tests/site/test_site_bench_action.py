"""benchmarks/bench_action.py still runs against the code it measures.

It calls the consumer's render function by name; when that was renamed
(``_render_sync`` → ``_render_state``) the benchmark broke unnoticed.  This runs
it for one hand on a database of its own and checks its figures are real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]


def test_bench_action_plays_a_hand_and_prints_its_figures():
    base = urlsplit(os.environ["DATABASE_URL"])
    name = f"bench_action_smoke_{os.getpid()}"
    url = urlunsplit(base._replace(path=f"/{name}"))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    try:
        done = subprocess.run(
            [sys.executable, "benchmarks/bench_action.py", "--hands", "1"]
            + ["--database-url", url],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        assert figures["hands"] == 1
        assert figures["actions"] >= 20  # a hand has at least the deal's turns
        parts = figures["cpu_ms_per_action"]
        assert set(parts) == {"apply", "render_actor", "render_opponent"}
        assert all(v > 0 for v in parts.values())
        # a plain move's two statements on PostgreSQL (the table's lock read,
        # then its writes as one: tests/games/test_games_move_queries.py)
        assert figures["queries_per_action"]["apply"] >= 2
    finally:
        subprocess.run(
            ["dropdb", "--if-exists", "-h", base.hostname or "127.0.0.1"]
            + ["-U", base.username or "postgres", name],
            check=False,
            capture_output=True,
        )
