"""Board pages at scale, on PostgreSQL (issue 13): time, queries and plan.

Usage (after ``bench_recalc.py`` filled the database and ran once, so the
counters and snapshots exist)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_bench \\
        python benchmarks/bench_boards.py [--repeat 7] [--boards all|period|every]

For each board it times :func:`leaderboard.selectors.board_page` (the
view's work without the template) for the first page, the 3rd page, and
the first page with a signed-in player whose own row is far down the board
(the median player of it), and prints one JSON line per board: median
milliseconds of ``--repeat`` calls each, the queries one call makes, and
whether PostgreSQL's plan of the page query (``EXPLAIN`` of
``board_queryset()[:per_page]``) sorts rows (``sort``: a ``Sort`` node
anywhere; an index scan in board order has none), its ``EXPLAIN ANALYZE``
milliseconds and its first nodes and indexes (``plan``).  The default
``--boards all`` is every all-time board (5 kinds × overall and each rule
set); ``period`` the day / week / month boards of the overall rule set;
``every`` both.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")


def _plan(sql: str, params: tuple[object, ...]) -> tuple[bool, float, str]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
        plan = cur.fetchone()[0]
    plan = plan[0] if isinstance(plan, list) else json.loads(plan)[0]
    nodes: list[str] = []

    def walk(node: dict[str, object]) -> None:
        nodes.append(str(node["Node Type"]))
        if node.get("Index Name"):
            nodes[-1] += f" {node['Index Name']}"
        for child in node.get("Plans", []):  # type: ignore[union-attr]
            walk(child)  # type: ignore[arg-type]

    walk(plan["Plan"])
    sorts = any(n.split()[0] in ("Sort", "Incremental") for n in nodes)
    # the plan's first nodes and every index it reads
    shown = nodes[:3] + [n for n in nodes[3:] if "Index" in n or "Sort" in n]
    return sorts, round(float(plan["Execution Time"]), 1), " > ".join(shown)


def _ms(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--boards", default="all", choices=("all", "period", "every"))
    args = parser.parse_args()
    import django

    django.setup()
    from django.conf import settings

    from games.rules.rulesets import NAMES
    from leaderboard.models import BOARD_KINDS, OVERALL
    from leaderboard.selectors import BoardKey

    per_page = settings.MAHJONG_LEADERBOARD_PAGE_SIZE
    keys = []
    if args.boards in ("all", "every"):
        keys += [
            BoardKey(b, "all", rs) for rs in (OVERALL, *NAMES) for b in BOARD_KINDS
        ]
    if args.boards in ("period", "every"):
        periods = ("day", "week", "month")
        keys += [BoardKey(b, p, OVERALL) for p in periods for b in BOARD_KINDS]
    print(json.dumps({"load": round(os.getloadavg()[0], 2), "per_page": per_page}))
    for key in keys:
        result = measure(key, per_page=per_page, repeat=args.repeat)
        if result:
            print(json.dumps(result), flush=True)


def measure(key: Any, *, per_page: int, repeat: int) -> dict[str, object] | None:
    """Board ``key``'s figures (None when nobody is on it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leaderboard.selectors import board_page, board_queryset

    rows = board_queryset(key=key)
    total = rows.count()
    if not total:
        return None
    middle = rows[total // 2 : total // 2 + 1][0]["user_id"]
    sql, params = rows[:per_page].query.sql_with_params()
    sorts, explain_ms, plan = _plan(sql, params)
    with CaptureQueriesContext(connection) as ctx:
        board_page(key=key, page_number=1, per_page=per_page, user_id=middle)
    calls = {
        "first_ms": {"page_number": 1},
        "page3_ms": {"page_number": 3},
        "own_row_ms": {"page_number": 1, "user_id": middle},
    }
    return {
        "board": f"{key.board}/{key.period}/{key.ruleset or '*'}",
        "rows": total,
        **{
            name: _ms(lambda a=kw: board_page(key=key, per_page=per_page, **a), repeat)
            for name, kw in calls.items()
        },
        "queries": len(ctx.captured_queries),
        "sort": sorts,
        "explain_ms": explain_ms,
        "plan": plan,
    }


if __name__ == "__main__":
    main()
