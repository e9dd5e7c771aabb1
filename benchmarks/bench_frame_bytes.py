"""Bytes sent per move: whole frames against partial frames.

Self-plays ``--hands`` hands of every rule set between two human seats (the
moves a browser would pick from its frame's ws-send forms, as
``bench_ws.py``'s clients pick them) and, after each move, renders each
seat's frame as its consumer does.  Counts, per move and both seats together,
the bytes the consumer sent before partial frames (the whole frame whenever it
changed but for its render time) and what it sends now (the fragments that
changed, games.presenters.render.Frame.changes).  Prints one JSON line per rule
set and one for all.

    python benchmarks/bench_frame_bytes.py --hands 10

Database as ``bench_action.py`` (``--database-url``, created and migrated when
missing); no server.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_action import prepare  # noqa: E402 - database set-up
from bench_ws import choose  # noqa: E402 - the websocket client's move choice


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=10, help="hands per rule set")
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_bench"
        ),
    )
    return p.parse_args(argv)


class Count:
    """Moves, messages and bytes of one rule set."""

    def __init__(self) -> None:
        self.moves = 0
        self.whole_messages = self.whole_bytes = 0
        self.partial_messages = self.partial_bytes = 0

    def add(self, other: Count) -> None:
        for k, v in vars(other).items():
            setattr(self, k, getattr(self, k) + v)

    def row(self, name: str, hands: int) -> dict[str, object]:
        moves = max(1, self.moves)
        return {
            "ruleset": name,
            "hands": hands,
            "moves": self.moves,
            "bytes_per_move_whole": round(self.whole_bytes / moves),
            "bytes_per_move_partial": round(self.partial_bytes / moves),
            "ratio": round(self.partial_bytes / max(1, self.whole_bytes), 3),
            "messages_whole": self.whole_messages,
            "messages_partial": self.partial_messages,
        }


def send(table, seat: int, frames: list, count: Count) -> None:  # type: ignore[no-untyped-def]
    """Render ``seat``'s frame after a change and count both ways of sending it."""
    from games.presenters.render import RENDER_TIME, seat_frame

    table.refresh_from_db()
    old, new = frames[seat], seat_frame(table, seat)
    frames[seat] = new
    whole = new.html()
    if RENDER_TIME.sub("", whole) != RENDER_TIME.sub("", old.html()):
        count.whole_messages += 1
        count.whole_bytes += len(whole.encode())
    partial = new.changes(old.parts)
    if partial is not None:
        count.partial_messages += 1
        count.partial_bytes += len(partial.encode())


def play_ruleset(ruleset: str, hands_wanted: int, tag: str) -> tuple[Count, int]:
    """Self-play ``hands_wanted`` hands of ``ruleset``; return the count and
    the hands played."""
    from accounts.models import User
    from accounts.services import profile_create
    from games.engine.errors import AheadActionError
    from games.models import Room
    from games.presenters.render import seat_frame
    from games.protocol import parse_move
    from games.services import table_act, table_continue, table_quick_match

    room, _ = Room.objects.get_or_create(
        name=f"bench-bytes-{ruleset}",
        defaults={"stake": 1, "min_balance": 0, "ruleset": ruleset},
    )
    users = []
    for s in (0, 1):
        u = User.objects.create(username=f"bb{tag}_{ruleset}_{s}")
        profile_create(user=u)
        users.append(u)
    table_quick_match(user=users[0], room=room)
    table = table_quick_match(user=users[1], room=room)
    count = Count()
    frames = [seat_frame(table, s) for s in (0, 1)]
    hands = 0
    while hands < hands_wanted:
        moves = [choose(f.html()) for f in frames]
        seat = next((s for s in (0, 1) if moves[s] is not None), None)
        if seat is None:
            if 'data-phase="ended"' not in frames[0].html():
                raise SystemExit(f"{ruleset}: no move in either frame")
            hands += 1
            for s in (0, 1):
                table_continue(user=users[s], table_id=table.pk)
            for s in (0, 1):
                send(table, s, frames, count)
            continue
        try:
            table_act(user=users[seat], table_id=table.pk, move=parse_move(moves[seat]))
        except AheadActionError:  # a 加杠's maker waits out the ROB window
            table_act(
                user=users[seat],
                table_id=table.pk,
                move=parse_move(moves[seat]),
                now=time.time() + 120,
            )
        count.moves += 1
        for s in (0, 1):
            send(table, s, frames, count)
    return count, hands


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare(args.database_url)
    from games.rules.rulesets import NAMES

    tag = f"{int(time.time() * 1000) % 10**9}"
    total, played = Count(), 0
    for ruleset in NAMES:
        count, hands = play_ruleset(ruleset, args.hands, tag)
        sys.stdout.write(json.dumps(count.row(ruleset, hands)) + "\n")
        total.add(count)
        played += hands
    sys.stdout.write(json.dumps(total.row("all", played)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
