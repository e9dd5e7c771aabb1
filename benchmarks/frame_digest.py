"""SHA-256 of every frame a browser is sent while hands are played, per rule set.

Usage::

    python benchmarks/frame_digest.py [HANDS] [--rulesets NAME ...] [--seed N]
        [--database-url URL] [--dump DIR]

Issue 15 §"Behaviour is unchanged": "the frames a browser ends up with are
the same as today's for the same hands (compare on recorded hands before and
after)".  Run it on two commits and compare the lines: equal digests mean
every whole frame of every seat after every move was byte for byte the same.

For each rule set, two people sit at a quick-match table of a room of that
rule set and play ``HANDS`` hands (default 3) through the services, as their
browsers would: after every move each seat's whole frame is rendered
(``games.presenters.render_frame``, what a browser holds after ``sync``) and
hashed; the next move is read from the frame's own ``ws-send`` forms
(``bench_ws.choose``, sometimes a random one of them, so claims, kongs and
报听 happen).  Everything that could differ between runs is fixed: the
database is dropped and created again (the same ids), the walls come from a
seeded generator (``games.services.deal``), and time is a virtual clock that
moves one second per move (passed as ``now`` to every service and render).

``--dump DIR`` writes every frame to ``DIR/<ruleset>/<n>-<seat>.html`` so two
runs can be compared with ``diff -r`` when the digests differ.

Default database: ``postgres://postgres@127.0.0.1:5432/frame_digest``
(dropped and created on every run), in-memory channel layer, no clock loop.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_action import prepare as migrate  # noqa: E402
from bench_ws import choose as choose_move  # noqa: E402 - the websocket client's
from bench_ws import options  # noqa: E402

START = 1_900_000_000.0
"""The virtual clock's first reading (epoch s): after any real table's
creation, so nothing depends on the wall clock."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("hands", nargs="?", type=int, default=3)
    p.add_argument("--rulesets", nargs="*")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--dump", type=Path)
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "FRAME_DIGEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/frame_digest",
        ),
    )
    return p.parse_args(argv)


def prepare(url: str) -> None:
    """Drop and create the database, then set up as ``bench_action`` does."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    migrate(url)


def pick(frame: str, rng: random.Random) -> dict | None:
    """The move a player makes on ``frame``: usually ``bench_ws.choose``'s,
    one time in four any of the frame's forms but 托管 (None: no move)."""
    move = choose_move(frame)
    if move is None or rng.random() >= 0.25:
        return move
    found = options(frame)
    return rng.choice(found) if found else move


def play(ruleset: str, hands: int, seed: int, dump: Path | None) -> tuple[str, int]:
    """Play ``hands`` hands of ``ruleset``; return (hex digest, frames)."""
    from accounts.models import User
    from accounts.services import profile_create
    from games.consumers import frame_table
    from games.models import Room
    from games.presenters import render_frame
    from games.protocol import parse_move
    from games.services import table_act, table_continue, table_quick_match

    rng = random.Random(f"{seed}:{ruleset}")
    room = Room.objects.filter(ruleset=ruleset).order_by("pk").first()
    if room is None:
        room = Room.objects.create(
            name=f"frames-{ruleset}", ruleset=ruleset, stake=10, min_balance=200
        )
    users = []
    for s in (0, 1):
        u = User.objects.create(username=f"fd_{ruleset}_{s}")
        profile_create(user=u)
        users.append(u)
    now = START
    table_quick_match(user=users[0], room=room, now=now)
    table = table_quick_match(user=users[1], room=room, now=now)
    h = hashlib.sha256()
    count = 0

    def frames() -> list[str]:
        nonlocal count
        fresh = frame_table(table.pk)
        out = [render_frame(fresh, s, now=now) for s in (0, 1)]
        for s, text in enumerate(out):
            h.update(text.encode())
            if dump is not None:
                path = dump / ruleset / f"{count:05d}-{s}.html"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
        count += 1
        return out

    seen = frames()
    played = 0
    for _ in range(5000):
        if played >= hands:
            break
        moves = [pick(f, rng) for f in seen]
        seat = next((s for s in (0, 1) if moves[s] is not None), None)
        now += 1.0
        if seat is None:
            if 'data-phase="ended"' not in seen[0]:
                raise SystemExit(f"{ruleset}: no move in either frame")
            played += 1
            if played < hands:
                for s in (0, 1):
                    table_continue(user=users[s], table_id=table.pk, now=now)
        else:
            table_act(
                user=users[seat],
                table_id=table.pk,
                move=parse_move(moves[seat]),
                now=now,
            )
        seen = frames()
    return h.hexdigest(), count


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare(args.database_url)
    from games.rules.rulesets import NAMES
    from games.services import deal

    walls = random.Random(args.seed)
    deal.secrets.token_hex = lambda n: walls.randbytes(n).hex()  # type: ignore[attr-defined]
    total = hashlib.sha256()
    for name in args.rulesets or list(NAMES):
        digest, count = play(name, args.hands, args.seed, args.dump)
        total.update(digest.encode())
        print(f"{name:<10} {count:5d} frames  {digest}")
    print(f"{'all':<10} {'':5} {'':7} {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
