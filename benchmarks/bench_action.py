"""Server work per action, in one process: CPU time and SQL queries.

Plays ``--hands`` hands between two human seats at one table the way the
websocket path does — ``games.services.table_act`` for the seat to move, then
each seat's frame rendered as its consumer renders it
(``TableConsumer._render_state``) — and prints one JSON line: actions, CPU
milliseconds per action (apply; render of the actor's frame; render of the
opponent's frame) and SQL queries per action for each part, and the CPU
milliseconds per action of the PostgreSQL backend serving it (its
``/proc`` entry, when the server runs on this machine: the three parts and
the hands' settling between them).  Queries are counted with
``connection.execute_wrapper``, not ``CaptureQueriesContext``: logging
queries would turn off the live table's server-bound, prepared statements
(games.services.rows.prepared_cursor) and measure another path.

Every action and every frame loads its hand from the hand's snapshot row and
its log (games.services.hands: no process keeps a hand), so both renders do
what a consumer in any process does.  Unlike ``bench_ws.py`` this needs no
server, and CPU time (``time.thread_time``) is little disturbed by other
load on the machine, so it shows what one change saves.

    python benchmarks/bench_action.py --hands 20
    python benchmarks/bench_action.py --hands 20 --profile   # + cProfile top 25
    python benchmarks/bench_action.py --hands 20 --bot normal  # against the bot

With ``--bot LEVEL`` seat 0 plays the server's bot (人机练习): "apply"
then includes the bot's answers, chosen in the same request.

With ``--live`` each move takes the websocket's own path,
``TableConsumer._move_sync``: the move, the mover's frame from the hand it
left and the opponent's frame carried in the move's group message, in one
thread; all three are one part, "move" (the renders of a hand's last move,
and after 继续, are as without ``--live``).

Default database: PostgreSQL ``postgres://postgres@127.0.0.1:5432/mahjong_bench``
(``--database-url``; created and migrated when missing), in-memory channel
layer, no clock loop (``MAHJONG_CLOCK=command`` and no ``run_clock``: the
due rows are written, nobody runs them).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_ws import choose  # noqa: E402 - the websocket client's move choice


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--profile", action="store_true", help="print cProfile top 25")
    p.add_argument("--bot", metavar="LEVEL", help="seat 0 plays the bot of LEVEL")
    p.add_argument(
        "--live",
        action="store_true",
        help="moves through TableConsumer._move_sync (move + both frames)",
    )
    p.add_argument(
        "--show-queries",
        action="store_true",
        help="print how often each statement ran (first 80 characters)",
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_bench"
        ),
    )
    return p.parse_args(argv)


def prepare(url: str) -> None:
    """Create the database if missing, set the environment, migrate."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DATABASE_CONN_MAX_AGE": "60",
            "MAHJONG_CLOCK": "command",
            "DJANGO_DEBUG": "0",
            "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def backend_cpu(connection) -> float | None:  # type: ignore[no-untyped-def]
    """CPU seconds the PostgreSQL backend of ``connection`` has used (its
    ``/proc`` entry: the server must run on this machine), or None."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # utime and stime, fields 14 and 15 of proc(5), in clock ticks
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Part:
    """CPU seconds and query count of one part of the work."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.queries = 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare(args.database_url)
    from django.db import connection

    from accounts.models import User
    from accounts.services import profile_create
    from games.consumers import TableConsumer
    from games.models import Room
    from games.protocol import parse_move
    from games.services import (
        table_act,
        table_continue,
        table_play_bot,
        table_quick_match,
    )

    room = Room.objects.get(name="新手场")
    tag = f"{int(time.time() * 1000) % 10**9}"
    users = []
    for s in (0, 1):
        u = User.objects.create(username=f"ba{tag}_{s}")
        profile_create(user=u)
        users.append(u)
    if args.bot:
        table = table_play_bot(user=users[0], room=room, level=args.bot)
        seats: tuple[int, ...] = (0,)
    else:
        table_quick_match(user=users[0], room=room)
        table = table_quick_match(user=users[1], room=room)
        seats = (0, 1)

    consumers = []
    for s in seats:
        c = TableConsumer()
        c.table_id, c.seat, c.lang = table.pk, s, None
        c.scope = {"user": users[s]}
        consumers.append(c)
    parts = {"apply": Part(), "render_actor": Part(), "render_opponent": Part()}
    if args.live:
        parts["move"] = Part()
        from games.presenters.render import Frame
        from games.services import notify

        carried: list[dict] = []
        send = notify._send

        def keep(message):  # type: ignore[no-untyped-def]
            if "frame" in message:
                carried.append(message["frame"])
            send(message)

        notify._send = keep

    counted = [0]
    statements: list[str] = []

    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        counted[0] += 1
        if args.show_queries:
            statements.append(sql)
        return execute(sql, params, many, context)

    def timed(part: str, fn):  # type: ignore[no-untyped-def]
        # counted by an execute wrapper, not CaptureQueriesContext: logging
        # queries turns off the server-bound, prepared statements of the
        # live table (games.services.rows.prepared_cursor)
        before = counted[0]
        with connection.execute_wrapper(count):
            t0 = time.thread_time()
            out = fn()
            parts[part].cpu += time.thread_time() - t0
        parts[part].queries += counted[0] - before
        return out

    def html(rendered) -> str:  # type: ignore[no-untyped-def]
        """The frame's HTML from _render_state's (frame, (hand id, seq))."""
        return rendered[0].html() if rendered is not None else ""

    frames = [html(consumers[s]._render_state()) for s in seats]
    actions = hands = 0
    db_before = backend_cpu(connection)
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    if profiler:
        profiler.enable()
    while hands < args.hands:
        moves = [choose(f) for f in frames]
        seat = next((s for s in seats if moves[s] is not None), None)
        if seat is None:
            if 'data-phase="ended"' in frames[0]:
                hands += 1
                for s in seats:
                    table_continue(user=users[s], table_id=table.pk)
                frames = [html(consumers[s]._render_state()) for s in seats]
                continue
            raise SystemExit("no move in either frame:\n" + frames[0][:2000])
        if args.live:
            carried.clear()
            _, rendered = timed(
                "move",
                lambda s=seat, m=moves[seat]: consumers[s]._move_sync(
                    users[s], parse_move(m)
                ),
            )
            actions += 1
            frames[seat] = html(rendered)
            if len(seats) == 2:
                frames[1 - seat] = (
                    Frame.from_wire(carried[0]).html()
                    if carried
                    else html(
                        timed("render_opponent", consumers[1 - seat]._render_state)
                    )
                )
            continue
        timed(  # the consumer's work: read the message, apply the move
            "apply",
            lambda s=seat, m=moves[seat]: table_act(
                user=users[s], table_id=table.pk, move=parse_move(m)
            ),
        )
        actions += 1
        frames[seat] = html(timed("render_actor", consumers[seat]._render_state))
        if len(seats) == 2:
            frames[1 - seat] = html(
                timed("render_opponent", consumers[1 - seat]._render_state)
            )
    if profiler:
        profiler.disable()
    db_after = backend_cpu(connection)
    out = {
        "hands": hands,
        "actions": actions,
        "cpu_ms_per_action": {
            k: round(1000 * p.cpu / actions, 2) for k, p in parts.items()
        },
        "cpu_ms_per_action_total": round(
            1000 * sum(p.cpu for p in parts.values()) / actions, 2
        ),
        "queries_per_action": {
            k: round(p.queries / actions, 2) for k, p in parts.items()
        },
    }
    if db_before is not None and db_after is not None:
        # all three parts, and the hands' settling and continuing between
        out["db_backend_cpu_ms_per_action"] = round(
            1000 * (db_after - db_before) / actions, 2
        )
    sys.stdout.write(json.dumps(out) + "\n")
    if args.show_queries:
        seen: dict[str, int] = {}
        for sql in statements:
            seen[sql[:80]] = seen.get(sql[:80], 0) + 1
        for sql, n in sorted(seen.items(), key=lambda kv: -kv[1]):
            sys.stdout.write(f"{n:6d}  {sql}\n")
    if profiler:
        buf = io.StringIO()
        pstats.Stats(profiler, stream=buf).sort_stats(
            os.environ.get("BENCH_SORT", "cumulative")
        ).print_stats(40)
        sys.stdout.write(buf.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
