"""The nightly recalculation at scale, on PostgreSQL (issue 13).

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_bench \\
        python benchmarks/bench_recalc.py [--players 100000] [--hands 1000000]
        [--reuse] [--fill-only] [--serial]

The database is migrated, emptied and filled with set-based SQL
(``generate_series``): ``--players`` players with their starting grants, and
``--hands`` settled hands (two ``HandSeat`` rows each, their ledger entries)
spread over the last 90 days, with a mix of rule sets, wins, 自摸, 流局
and practice hands.  The counters (``PlayerStats``) are left empty, so the
first run rebuilds every one of them.  The fill takes many minutes:
``--fill-only`` stops after it, ``--reuse`` skips it and runs on what an
earlier fill left (the hands, ledger and profiles; counters and snapshots
are emptied so the runs start alike).  Then it times:

1. ``first``: every counter row inserted, every snapshot row written;
2. ``second``: idempotence, nothing corrected, no snapshot row written;
3. ``after_corruption``: 1,000 counters and 100 balances corrupted, repaired;
4. ``next_day``: the nightly case, the next date's snapshot written whole.

Prints one JSON line per run: wall seconds per step (``seconds``: check,
repair, snapshots) and in all, rows changed, the CPU seconds of the
PostgreSQL backend and of this process, and the load average (1 min)
before and after, since other work on the machine stretches wall time.
``--serial`` turns off parallel query, so the backend's CPU time is all
the database's.  The target: under 60 s on this 2-core machine for
1,000,000 hands and 100,000 players.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")


def fill(players: int, hands: int) -> dict[str, float]:
    from django.db import connection

    t0 = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute(
            # CASCADE empties every table that refers to these (profiles,
            # ledger, hand rows and events, reports, ...), whatever app adds one
            "TRUNCATE accounts_user, games_handrecord, games_match, games_table,"
            " leaderboard_boardsnapshot CASCADE"
        )
        cur.execute(
            "INSERT INTO accounts_user (id, password, is_superuser, username,"
            " first_name, last_name, email, is_staff, is_active, date_joined)"
            " SELECT g, '!', false, 'u' || g, '', '', '', false, true,"
            " now() - interval '100 days' FROM generate_series(1, %s) g",
            [players],
        )
        cur.execute(
            "INSERT INTO accounts_profile (user_id, nickname, coins, rating_points,"
            " is_bot, bot_level, created)"
            " SELECT g, 'p' || g, 10000, 0, false, '', now() - interval '100 days'"
            " FROM generate_series(1, %s) g",
            [players],
        )
        cur.execute(
            "INSERT INTO accounts_ledgerentry (user_id, currency, kind, amount,"
            " balance_after, reason, created)"
            " SELECT g, 'coins', 'grant', 10000, 10000, '', now() - interval '100 days'"
            " FROM generate_series(1, %s) g",
            [players],
        )
        cur.execute("SELECT setval('accounts_user_id_seq', %s)", [players])
        cur.execute(
            'INSERT INTO games_room (name, stake, min_balance, ruleset, active, "order")'  # noqa: E501
            " VALUES ('bench', 10, 0, 'erren', true, 99)"
            " ON CONFLICT (name) DO NOTHING"
        )
        cur.execute(
            "INSERT INTO games_table (room_id, kind, status, bot_level, seq,"
            " continue_votes, away_since, closed_reason, created, updated)"
            " SELECT id, 'quick', 'closed', '', 0, '[]', '[]', '', now(), now()"
            " FROM games_room WHERE name = 'bench' RETURNING id"
        )
        (table_id,) = cur.fetchone()
        # hands: random pairs, 90 days, rule sets, 12 % 流局, 5 % practice
        cur.execute(
            "CREATE TEMP TABLE h AS SELECT g AS id,"
            " 1 + floor(random() * %s)::int AS a,"
            " now() - (random() * interval '90 days') AS ended,"
            " (ARRAY['erren','erren','erren','mcr','jj','liangren','erren64','youxi'])"
            "   [1 + floor(random() * 8)::int] AS ruleset,"
            " CASE WHEN random() < 0.12 THEN NULL ELSE floor(random() * 2)::int END"
            "   AS winner,"
            " (ARRAY[8,8,8,10,12,16,24,32,48,88])[1 + floor(random() * 10)::int] AS fan,"  # noqa: E501
            " (ARRAY[1,1,1,2,4])[1 + floor(random() * 5)::int] AS mult,"
            " random() < 0.3 AS tsumo, random() < 0.05 AS practice"
            " FROM generate_series(1, %s) g",
            [players, hands],
        )
        cur.execute(
            "ALTER TABLE h ADD COLUMN b int;"
            f" UPDATE h SET b = 1 + (a + floor(random() * ({players} - 1))::int) % {players};"  # noqa: E501
            " ANALYZE h"
        )
        cur.execute(
            "INSERT INTO games_handrecord (id, table_id, number, seat0_id, seat1_id,"
            " ruleset, stake, practice, commitment, seed, secret_seed, status, settled,"
            " started, ended, public)"
            " SELECT id, %s, 1, a, b, ruleset, 10, practice, 'c', 's', 's', 'ended',"
            " true, ended, ended, false FROM h",
            [table_id],
        )
        cur.execute("SELECT setval('games_handrecord_id_seq', %s)", [hands])
        for seat, me, them in ((0, "a", "b"), (1, "b", "a")):
            won = f"(winner = {seat})"
            lost = f"(winner = {1 - seat})"
            cur.execute(
                "INSERT INTO games_handseat (hand_id, seat, user_id, opponent_id,"
                " ruleset, stake, practice, ended, result, won, self_drawn, dealt_in,"
                " dealer, fan, multiplier, fans, coins, points, rating_before,"
                " rating_after, deviation_after, ruleset_rating_after,"
                " ruleset_deviation_after, ending, reversed)"
                f" SELECT id, {seat}, {me}, {them}, ruleset, 10, practice, ended,"
                f" CASE WHEN winner IS NULL THEN 'draw' WHEN {won} THEN 'win'"
                "   ELSE 'loss' END,"
                f" coalesce({won}, false), coalesce({won} AND tsumo, false),"
                f" coalesce({lost} AND NOT tsumo, false), {seat} = 0,"
                " CASE WHEN winner IS NULL THEN 0 ELSE fan END,"
                " CASE WHEN winner IS NULL THEN 1 ELSE mult END,"
                f" CASE WHEN {won} THEN '[\"ALL_CHOWS\"]'::jsonb ELSE '[]'::jsonb END,"
                f" CASE WHEN practice OR winner IS NULL THEN 0 WHEN {won}"
                "   THEN fan * mult * 10 - (fan * mult * 10 * 5 + 50) / 100"
                "   ELSE -fan * mult * 10 END,"
                f" CASE WHEN NOT practice AND {won} THEN fan * mult ELSE 0 END,"
                " CASE WHEN winner IS NULL THEN NULL ELSE 1500 END,"
                f" CASE WHEN winner IS NULL THEN NULL WHEN {won} THEN 1510 ELSE 1490 END,"  # noqa: E501
                " CASE WHEN winner IS NULL THEN NULL ELSE 100 END,"
                f" CASE WHEN winner IS NULL THEN NULL WHEN {won} THEN 1510 ELSE 1490 END,"  # noqa: E501
                " CASE WHEN winner IS NULL THEN NULL ELSE 100 END,"
                " 'played', false FROM h"
            )
        # the hands' ledger entries: loser −coins, winner +coins and −rake, points
        cur.execute(
            "INSERT INTO accounts_ledgerentry (user_id, currency, kind, amount,"
            " balance_after, hand_id, reason, created)"
            " SELECT user_id, 'coins', 'hand', CASE WHEN won THEN fan * multiplier * 10"
            "   ELSE -fan * multiplier * 10 END, 0, hand_id, '', ended"
            " FROM games_handseat WHERE result IN ('win', 'loss') AND NOT practice"
            " UNION ALL SELECT user_id, 'coins', 'rake',"
            "   -((fan * multiplier * 10 * 5 + 50) / 100), 0, hand_id, '', ended"
            " FROM games_handseat WHERE won AND NOT practice"
            " UNION ALL SELECT user_id, 'points', 'hand', points, 0, hand_id, '', ended"
            " FROM games_handseat WHERE won AND NOT practice"
        )
        # balances = the ledger's sums (as the settlement keeps them)
        cur.execute(
            "UPDATE accounts_profile p SET coins = s.c, rating_points = s.pt FROM ("
            " SELECT user_id, SUM(amount) FILTER (WHERE currency = 'coins') AS c,"
            " COALESCE(SUM(amount) FILTER (WHERE currency = 'points'), 0) AS pt"
            " FROM accounts_ledgerentry GROUP BY user_id) s WHERE s.user_id = p.user_id"
        )
        cur.execute("ANALYZE")
    return {"fill_seconds": round(time.perf_counter() - t0, 1)}


def sizes() -> dict[str, int]:
    from django.db import connection

    out = {}
    with connection.cursor() as cur:
        for table in (
            "accounts_profile",
            "games_handrecord",
            "games_handseat",
            "accounts_ledgerentry",
            "leaderboard_playerstats",
            "leaderboard_boardsnapshot",
        ):
            cur.execute(f"SELECT count(*) FROM {table}")
            out[table] = cur.fetchone()[0]
    return out


def corrupt() -> None:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "UPDATE leaderboard_playerstats SET hands = hands + 7, max_fan = 1"
            " WHERE id IN (SELECT id FROM leaderboard_playerstats ORDER BY random()"
            " LIMIT 1000)"
        )
        cur.execute(
            "UPDATE accounts_profile SET coins = coins - 1 WHERE id IN"
            " (SELECT id FROM accounts_profile ORDER BY random() LIMIT 100)"
        )


def backend_cpu() -> float:
    """CPU seconds (user + system) of this connection's PostgreSQL backend so far."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (pid,) = cur.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # the server on another machine
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def reset_derived() -> None:
    """Empty the counters and snapshots, as a fresh fill leaves them."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("TRUNCATE leaderboard_playerstats, leaderboard_boardsnapshot")


class StatementCpu:
    """Django execute wrapper: the backend's CPU and wall seconds per statement."""

    def __init__(self) -> None:
        self.rows: dict[str, list[float]] = {}

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        cpu, t0 = _cpu_of(self.pid), time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split())[:90]
            row = self.rows.setdefault(key, [0.0, 0.0, 0])
            row[0] += _cpu_of(self.pid) - cpu
            row[1] += time.perf_counter() - t0
            row[2] += 1

    def top(self, n: int = 12) -> list[dict[str, object]]:
        rows = sorted(self.rows.items(), key=lambda kv: -kv[1][0])[:n]
        return [
            {"cpu": round(c, 2), "wall": round(w, 2), "times": k, "sql": sql}
            for sql, (c, w, k) in rows
        ]


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(label: str, day: object, *, profile: bool = False) -> None:
    from django.db import connection

    from leaderboard.recalc import recalc_ranks

    load = os.getloadavg()[0]
    cpu, mine, t0 = backend_cpu(), time.process_time(), time.perf_counter()
    if profile:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            (pid,) = cur.fetchone()
        spy = StatementCpu()
        spy.pid = pid  # type: ignore[attr-defined]
        with connection.execute_wrapper(spy):
            report = recalc_ranks(day=day)  # type: ignore[arg-type]
        print(json.dumps({"run": label, "statements_by_cpu": spy.top()}), flush=True)
    else:
        report = recalc_ranks(day=day)  # type: ignore[arg-type]
    seconds = time.perf_counter() - t0
    cpu, mine = backend_cpu() - cpu, time.process_time() - mine
    print(
        json.dumps(
            {
                "run": label,
                "total_seconds": round(seconds, 1),
                "target_seconds": 60,
                "postgres_cpu_seconds": round(cpu, 1),
                "python_cpu_seconds": round(mine, 1),
                "load_before": round(load, 2),
                "load_after": round(os.getloadavg()[0], 2),
                **report.to_json(),
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the hands of an earlier fill (counters and snapshots emptied)",
    )
    parser.add_argument(
        "--fill-only", action="store_true", help="fill the database and stop"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also print the statements that took the most backend CPU",
    )
    parser.add_argument(
        "--runs",
        default="first,second,after_corruption,next_day",
        help="which runs, comma-separated",
    )
    parser.add_argument(
        "--serial",
        action="store_true",
        help="no parallel query (the backend's CPU time is then all the work)",
    )
    args = parser.parse_args()
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database (it is emptied)")
    call_command("migrate", verbosity=0)
    from leaderboard.periods import local_today

    if not args.reuse:
        filled: dict[str, object] = fill(args.players, args.hands)
    else:
        filled = {"reused": True}
        if args.runs.startswith("first"):
            reset_derived()
    print(json.dumps({**filled, **sizes()}), flush=True)
    if args.fill_only:
        return
    if args.serial:
        with connection.cursor() as cur:
            cur.execute("SET max_parallel_workers_per_gather = 0")
    day = local_today()
    for run in args.runs.split(","):
        if run == "after_corruption":
            corrupt()
        when = day + timedelta(days=1) if run == "next_day" else day
        timed(run, when, profile=args.profile)
    print(json.dumps(sizes()), flush=True)


if __name__ == "__main__":
    main()
