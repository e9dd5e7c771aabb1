"""Websocket benchmark: N live tables of two bot clients against a local cluster.

Starts (on loopback, and stops at the end) ``--daphnes`` Daphne processes,
``--workers`` Celery workers and ``--clocks`` processes of ``manage.py
run_clock`` (the tables' one clock) on PostgreSQL + Redis, creates ``2 × N`` players
paired at N tables, and connects every player over a real websocket — the
two seats of a table to different Daphne processes, so every move crosses
the Redis channel layer.  Each client plays from the frames it receives, as
a browser would: it reads the ``ws-send`` forms (``hx-vals``) of its frame
and sends one (和 when offered, else pass, else discard its drawn/rightmost
tile), after a think time; after a hand both send 继续.

Each table is dealt (快速开始 for both players, :func:`pair`) right before its
clients connect, as a browser opens the table page after 快速开始, so the
hand's timers start then.  A client whose frame is superseded while it thinks
(the pre-deal choice, where both seats answer and the first answer re-issues
the other's form at the next seq; a move of the clock) sends nothing, as the
browser's swapped-out form cannot be pressed; those are counted under
``superseded`` (the newer frame plans its own move).

Prints one JSON line: actions, actions per second, and the latency from
sending an action to the opponent's frame with the new sequence number
arriving (a refused action, e.g. one that raced a timeout of the clock, is
counted under ``refusals`` and not timed; an action whose frame the claim
veil of issue 11 §5.2 holds back until the mover's next action, e.g. a pass
on a claim, is counted under ``veiled`` and not timed) (p50/p90/p99/max, ms;
actions sent in the first ``--warmup`` seconds, while the tables are dealt
and connect, are not measured), the server
processes' CPU per action, frames, refusals, hands finished.

    python benchmarks/bench_ws.py --tables 100 --seconds 60

``--server bare`` runs the same clients against ``benchmarks/bare_asgi.py``,
a bare Channels consumer on the same Daphne processes and channel layer that
answers every message with one ~5 KB frame to each seat (the stack's own
cost, issue 15's yardstick); ``--server both --runs 5 --tables 50,100,200``
alternates the two servers run by run (table, bare, bare, table, ...) at each
size and prints one JSON line per run.  ``daphne_loop_cpu_s`` is the part of
each Daphne's CPU spent on its event-loop thread (the rest is its worker
threads': the services and renders run there), ``frame_chars_mean`` the mean
size of a frame message.  ``infra_cpu_s`` is the CPU of the benchmark
database's PostgreSQL backends and of Redis over the run (Redis is shared:
other work on the machine shows up there, and in ``load_average``).

Defaults: PostgreSQL ``postgres://postgres@127.0.0.1:5432/mahjong_bench``
(created if missing, migrated), Redis database 12 (flushed), think time
uniform in [0.5, 1.5] s (``--think 0`` measures raw throughput).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VALS = re.compile(r"hx-vals='([^']*)'")
SEQ = re.compile(r'data-seq="(\d+)"')
PHASE = re.compile(r'data-phase="([a-z_]*)"')


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--tables",
        default="100",
        help="tables per run; a comma-separated list runs each size in turn",
    )
    p.add_argument(
        "--server",
        choices=["table", "bare", "both"],
        default="table",
        help="the real table consumer, the bare consumer, or both alternately",
    )
    p.add_argument("--runs", type=int, default=1, help="runs per server and size")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--think", type=float, default=1.0, help="mean think time, s")
    p.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds at the start not measured (the tables are dealt and connect)",
    )
    p.add_argument(
        "--connect-spread",
        type=float,
        default=3.0,
        help="seconds over which the tables connect (during the warm-up)",
    )
    p.add_argument(
        "--beat",
        type=float,
        default=5.0,
        help="seconds between a client's presence heartbeats ({'action': 'ping'},"
        " as table.js sends every MAHJONG_PRESENCE_BEAT); 0 sends none",
    )
    p.add_argument("--daphnes", type=int, default=4)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument(
        "--clocks",
        type=int,
        default=1,
        help="processes of manage.py run_clock (timeouts, paced 托管, ...)",
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_bench"
        ),
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"),
    )
    return p.parse_args(argv)


def prepare(args: argparse.Namespace) -> dict[str, str]:
    """Create/migrate the database, flush the Redis db; return the env."""
    import psycopg
    import redis

    name = args.database_url.rsplit("/", 1)[1]
    admin = args.database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(args.redis_url).flushdb()
    env = {
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "MAHJONG_CLOCK": "command",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
        "DATABASE_CONN_MAX_AGE": "60",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0", "--noinput"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
    )
    return env


def make_tables(n: int) -> list[tuple[tuple[int, int], str, str]]:
    """Create 2n fresh players, two per table to be; return ((user0, user1),
    cookie0, cookie1) per table.  :func:`pair` seats them when their clients
    connect (a hand dealt now would use up its pre-deal window before the
    cluster is up)."""
    from django.test import Client

    from accounts.models import User
    from accounts.services import profile_create
    from games.models import Due, Table

    # tables of earlier runs (this database is the benchmark's own) are
    # closed and their due rows dropped, or this run's clock would play their
    # hands out (their players left: the disconnect grace, then paced 托管
    # to the end of each hand), CPU no move of this run causes
    Table.objects.exclude(status=Table.Status.CLOSED).update(
        status=Table.Status.CLOSED, deadline=None
    )
    Due.objects.all().delete()
    tag = f"{int(time.time()) % 100000:05d}"
    out = []
    for i in range(n):
        cookies = []
        users = []
        for s in (0, 1):
            # no password hashing (slow by design): the session is forced
            u = User.objects.create(username=f"b{tag}_{i}_{s}")
            profile_create(user=u)
            users.append(u.pk)
            c = Client()
            c.force_login(u)
            cookies.append(c.cookies["sessionid"].value)
        out.append(((users[0], users[1]), cookies[0], cookies[1]))
    return out


def pair(users: tuple[int, int], stats: Stats) -> int:
    """快速开始 for both players (the first hand is dealt); return the table id.

    Run on the one pairing thread right before the table's clients connect,
    as a browser opens the table page at once after 快速开始 pairs it: the
    hand's timers (the pre-deal window, 10 s) start now.  Dealing every table
    before starting the cluster let the windows run out before the clients
    connected: the clock timed out both seats of every table at its start and
    the clients' pre-deal answers were refused (the "refusals" of earlier
    runs).  One thread, so no player is paired with another table's.  Its
    CPU is counted apart (``pairing_cpu_s``), not as the clients'.
    """
    from accounts.models import User
    from games.models import Room
    from games.services import table_quick_match

    t0 = time.thread_time()
    room = Room.objects.get(name="新手场")
    found = User.objects.in_bulk(list(users))
    table_quick_match(user=found[users[0]], room=room)
    table = table_quick_match(user=found[users[1]], room=room)
    stats.pairing_cpu += time.thread_time() - t0
    return table.pk


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.frames = 0
        self.frame_chars = 0
        self.refusals = 0
        self.hands = 0
        self.errors: list[str] = []
        self.measure_from = 0.0
        self.refusal_samples: list[str] = []
        self.measured_actions = 0
        self.veiled = 0
        self.superseded = 0
        self.pairing_cpu = 0.0


def options(frame: str) -> list[dict]:
    """The moves of the frame's ws-send forms but 托管 (``auto_play``)."""
    found = []
    for raw in VALS.findall(frame):
        try:
            found.append(json.loads(html.unescape(raw)))
        except ValueError:
            continue
    return [o for o in found if o.get("action") != "auto_play"]


def choose(frame: str) -> dict | None:
    """Pick a move from the frame's ws-send forms (None: nothing to do)."""
    moves = options(frame)
    if not moves:
        return None
    by = {}
    for o in moves:
        by.setdefault(o["action"], []).append(o)
    for kind in ("win",):
        if kind in by:
            return by[kind][0]
    if "pre_deal" in by:
        return next(
            (o for o in by["pre_deal"] if not o["open_hand"] and not o["double"]),
            by["pre_deal"][0],
        )
    if "double" in by:
        return next((o for o in by["double"] if not o["double"]), by["double"][0])
    if "pass" in by:
        return by["pass"][0]
    if "discard" in by:
        return by["discard"][-1]
    return None


async def table_clients(
    url0: str,
    url1: str,
    cookies: tuple[str, str],
    stats: Stats,
    args,
    stop: float,
) -> None:
    import websockets

    socks = []
    for url, cookie in ((url0, cookies[0]), (url1, cookies[1])):
        socks.append(
            await websockets.connect(
                url,
                additional_headers={"Cookie": f"sessionid={cookie}"},
                origin="http://127.0.0.1",
                max_size=2**22,
            )
        )
    seen = [0, 0]
    acted = [-1, -1]
    ended_for = [-1, -1]
    pending: list[tuple[int, int, float]] = []  # (opponent seat, old seq, t0)
    rng = random.Random()

    async def act(seat: int, payload: dict, seq: int) -> None:
        if args.think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
        if time.monotonic() > stop:
            return
        if seen[seat] != seq:
            # a newer frame came while thinking (the opponent moved, or the
            # clock did): the browser swapped this form out, and that frame
            # planned its own move if it offers one
            stats.superseded += 1
            return
        t0 = time.perf_counter()
        measured = time.monotonic() >= stats.measure_from
        # this seat's earlier action whose frame the opponent has not had
        # yet was veiled (issue 11 §5.2: after a claim window the discarder
        # sees the opponent's pass only with the opponent's next move), so
        # its frame comes with this action: not the earlier one's latency
        for item in [i for i in pending if i[0] == 1 - seat]:
            pending.remove(item)
            stats.veiled += item[2] > 0
        pending.append((1 - seat, seq, t0 if measured else -t0))
        stats.actions += 1
        stats.measured_actions += measured
        await socks[seat].send(json.dumps(payload))

    async def reader(seat: int) -> None:
        async for msg in socks[seat]:
            m = SEQ.search(msg)
            if m is None:
                if 'id="toast"' in msg:
                    stats.refusals += 1
                    # the refused action gets no frame: stop timing it (else
                    # the next, unrelated frame would count as its answer)
                    for item in reversed(pending):
                        if item[0] == 1 - seat:
                            pending.remove(item)
                            break
                    if len(stats.refusal_samples) < 3:
                        stats.refusal_samples.append(re.sub(r"<[^>]+>", "", msg))
                continue
            stats.frames += 1
            stats.frame_chars += len(msg)
            seq = int(m.group(1))
            now = time.perf_counter()
            for item in list(pending):
                if item[0] == seat and seq > item[1]:
                    if item[2] > 0:  # sent after the warm-up
                        stats.latencies.append(now - item[2])
                    pending.remove(item)
            seen[seat] = seq
            phase = PHASE.search(msg)
            if phase and phase.group(1) == "ended":
                if ended_for[seat] != seq:
                    ended_for[seat] = seq
                    if seat == 0:
                        stats.hands += 1
                    await socks[seat].send(json.dumps({"action": "continue"}))
                continue
            if acted[seat] == seq:
                continue
            move = choose(msg)
            if move is not None and move.get("seq") == seq:
                acted[seat] = seq
                asyncio.ensure_future(act(seat, move, seq))

    async def heartbeat(seat: int) -> None:
        # the browser's presence heartbeat (static/js/table.js beat()): without
        # it the seat's presence expires after MAHJONG_PRESENCE_TTL, the
        # clock puts the seat under 托管 and the server plays for it — racing
        # this client (refusals) and costing bot moves no browser causes
        while True:
            await asyncio.sleep(args.beat * rng.uniform(0.9, 1.1))
            await socks[seat].send(json.dumps({"action": "ping", "seq": seen[seat]}))

    tasks = [asyncio.ensure_future(reader(s)) for s in (0, 1)]
    if getattr(args, "beat", 0):
        tasks += [asyncio.ensure_future(heartbeat(s)) for s in (0, 1)]
    try:
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
    finally:
        for t in tasks:
            t.cancel()
        for s in socks:
            await s.close()


def ws_path(args, tid: int, seat: int) -> str:
    """The websocket path of seat ``seat`` at table ``tid`` on this server."""
    path = getattr(args, "path", None)
    return path(tid, seat) if path else f"/ws/table/{tid}/"


async def run_clients(cluster, tables, args, stats: Stats, paired: bool) -> float:
    """Run every table's two clients until ``args.seconds`` have passed.

    ``paired``: ``tables`` holds players to seat (:func:`pair`, on one
    thread, each table right before its clients connect), else table ids
    (the bare consumer)."""
    from concurrent.futures import ThreadPoolExecutor

    start = time.monotonic()
    stop = start + args.seconds
    stats.measure_from = start + min(args.warmup, args.seconds / 2)
    loop = asyncio.get_running_loop()
    pairing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pairing")

    async def table(i: int, key, c0: str, c1: str) -> None:
        await asyncio.sleep(args.connect_spread * i / max(1, len(tables)))
        tid = await loop.run_in_executor(pairing, pair, key, stats) if paired else key
        await table_clients(
            cluster.url(i, ws_path(args, tid, 0)),
            cluster.url(i + 1, ws_path(args, tid, 1)),
            (c0, c1),
            stats,
            args,
            stop,
        )

    coros = [table(i, key, c0, c1) for i, (key, c0, c1) in enumerate(tables)]
    try:
        results = await asyncio.wait_for(
            asyncio.gather(*coros, return_exceptions=True), timeout=args.seconds + 60
        )
    finally:
        if paired:
            await loop.run_in_executor(pairing, _close_connection)
        pairing.shutdown()
    for r in results:
        if isinstance(r, Exception):
            stats.errors.append(f"{type(r).__name__}: {r}")
    return time.monotonic() - start


def _close_connection() -> None:
    """Close this thread's database connection (the pairing thread's)."""
    from django.db import connection

    connection.close()


def _stat_cpu(path: str) -> float:
    """CPU time (user + system, s) of the process or thread whose
    ``/proc/.../stat`` is ``path``."""
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(cluster) -> dict[str, float]:
    """CPU time (user + system, s) used so far by each cluster process."""
    out = {}
    for log, proc in zip(cluster.logs, cluster.procs, strict=True):
        try:
            out[log.stem] = _stat_cpu(f"/proc/{proc.pid}/stat")
        except (OSError, IndexError, ValueError):
            continue
    return out


def loop_cpu_seconds(cluster) -> dict[str, float]:
    """CPU time (s) used so far by each Daphne process's main thread, the
    one that runs its event loop (Twisted on asyncio: websocket frames, the
    channel layer, the consumers' async code); the rest of a process's CPU
    is its worker threads' (``sync_to_async``: the services, the renders)."""
    out = {}
    for log, proc in zip(cluster.logs, cluster.procs, strict=True):
        if not log.stem.startswith("daphne"):
            continue
        try:
            out[log.stem] = _stat_cpu(f"/proc/{proc.pid}/task/{proc.pid}/stat")
        except (OSError, IndexError, ValueError):
            continue
    return out


def infra_cpu(database: str) -> float:
    """CPU seconds (user + system) used so far by this database's PostgreSQL
    backends and by Redis (a backend that exits during a run takes its CPU
    time with it: the figure is a lower bound)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            comm = text[text.index("(") + 1 : text.rindex(")")]
            if comm.startswith("postgres"):
                cmd = (stat.parent / "cmdline").read_bytes().decode(errors="replace")
                if f" {database} " not in cmd:
                    continue
            elif not comm.startswith("redis-server"):
                continue
        except (OSError, ValueError):
            continue
        parts = text.rsplit(")", 1)[1].split()
        total += int(parts[11]) + int(parts[12])
    return total / tick


def bare_tables(n: int) -> list[tuple[int, str, str]]:
    """n tables of the bare consumer: no players, no database rows."""
    return [(i, "", "") for i in range(n)]


def run_once(args, env: dict[str, str], server: str, n_tables: int) -> dict:
    """One run of ``args.seconds`` at ``n_tables`` tables; the result line."""
    from tests.games.live import Cluster

    bare = server == "bare"
    tables = bare_tables(n_tables) if bare else make_tables(n_tables)
    cluster = Cluster(
        env,
        daphnes=args.daphnes,
        workers=0 if bare else args.workers,
        clocks=0 if bare else args.clocks,
        asgi="benchmarks.bare_asgi:application" if bare else Cluster.asgi,
    )
    args.path = (lambda tid, s: f"/ws/bare/{tid}/{s}/") if bare else None
    stats = Stats()
    cpu_before: dict[str, float] = {}
    cpu_after: dict[str, float] = {}
    loop_before: dict[str, float] = {}
    loop_after: dict[str, float] = {}
    client_cpu = 0.0
    infra = 0.0
    run_args = argparse.Namespace(**{**vars(args), "tables": n_tables})
    try:
        cluster.start()
        cpu_before = cpu_seconds(cluster)
        loop_before = loop_cpu_seconds(cluster)
        database = args.database_url.rsplit("/", 1)[1]
        infra_before = infra_cpu(database)
        client_before = time.process_time()
        elapsed = asyncio.run(
            run_clients(cluster, tables, run_args, stats, paired=not bare)
        )
        client_cpu = time.process_time() - client_before - stats.pairing_cpu
        infra = infra_cpu(database) - infra_before
        cpu_after = cpu_seconds(cluster)
        loop_after = loop_cpu_seconds(cluster)
    finally:
        cluster.stop()
    cpu = {k: round(cpu_after[k] - cpu_before.get(k, 0.0), 1) for k in cpu_after}
    loop = {k: round(loop_after[k] - loop_before.get(k, 0.0), 1) for k in loop_after}
    lat = sorted(x * 1000 for x in stats.latencies)

    def pct(p: float) -> float | None:
        if not lat:
            return None
        return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 1)

    warmup = min(args.warmup, args.seconds / 2)
    return {
        "server": server,
        "tables": n_tables,
        "clients": 2 * n_tables,
        "daphnes": args.daphnes,
        "workers": 0 if bare else args.workers,
        "clocks": 0 if bare else args.clocks,
        "seconds": round(elapsed, 1),
        "think_mean_s": args.think,
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1) if elapsed else 0,
        "warmup_s": warmup,
        "measured_actions_per_second": round(
            stats.measured_actions / (elapsed - warmup), 1
        ),
        "latency_ms": {
            "n": len(lat),
            "p50": pct(50),
            "p90": pct(90),
            "p99": pct(99),
            "max": round(lat[-1], 1) if lat else None,
            "mean": round(statistics.fmean(lat), 1) if lat else None,
        },
        "server_cpu_s": cpu,
        "server_cpu_ms_per_action": (
            round(1000 * sum(cpu.values()) / stats.actions, 1)
            if stats.actions
            else None
        ),
        # of server_cpu_s, each Daphne's event-loop thread (the rest of its
        # CPU is its worker threads')
        "daphne_loop_cpu_s": loop,
        "infra_cpu_s": round(infra, 1),
        "server_and_infra_cpu_ms_per_action": (
            round(1000 * (sum(cpu.values()) + infra) / stats.actions, 1)
            if stats.actions
            else None
        ),
        # the 2 × N clients share this one process and the server's cores:
        # while it is busy, frames wait in its event loop and the latencies
        # above include that wait
        "client_cpu_s": round(client_cpu, 1),
        # the bench process dealing the tables as their clients connect
        # (pair(): 快速开始 twice), not counted in client_cpu_s
        "pairing_cpu_s": round(stats.pairing_cpu, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "frames": stats.frames,
        # mean characters of a frame message (a whole frame or the fragments
        # that changed)
        "frame_chars_mean": (
            round(stats.frame_chars / stats.frames) if stats.frames else None
        ),
        # measured actions whose opponent frame the claim veil held back
        "veiled": stats.veiled,
        "refusals": stats.refusals,
        # moves not sent: a newer frame arrived during the think time
        "superseded": stats.superseded,
        "refusal_samples": stats.refusal_samples,
        "hands_finished": stats.hands,
        "errors": stats.errors[:5],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    env = prepare(args)
    os.environ.update(env)
    import django

    django.setup()
    sizes = [int(x) for x in str(args.tables).split(",") if x.strip()]
    servers = ["table", "bare"] if args.server == "both" else [args.server]
    failed = False
    for n in sizes:
        for r in range(args.runs):
            # alternate which server goes first, so drift in the machine's
            # load does not always favour the same one
            order = servers if r % 2 == 0 else servers[::-1]
            for server in order:
                out = run_once(args, env, server, n)
                out["run"] = r + 1
                failed = failed or bool(out["errors"])
                sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
                sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
