"""The replay's 任务 box says how the task stands at each step (tester).

The replay board showed the task without its state; the live table shows
进行中 / 和牌即达成 / 已达成 / 未达成 from games.engine.task.task_state.  The
replay now shows, at every step, the state the live table showed after the
move the step belongs to, for the seat at the bottom.
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse
from django.utils import translation

from games.engine.task import task_state
from games.replay.board import step_of
from games.replay.handfile import hand_file_from_record as from_record
from games.replay.replay import build_replay, clear_cache
from tests.games.driver import stored_hand


def _played(alice: Any, room: Any, seed: str) -> tuple[Any, list[tuple[int, Any]]]:
    """A stored erren hand and, after each move, (the seq of its last step's
    event, both seats' 任务 state as the live table showed them)."""
    seen: list[tuple[int, Any]] = []

    def watch(hand: Any) -> None:
        states = (task_state(hand.state, 0), task_state(hand.state, 1))
        # the move's last event that is a replay step of its own (a prompt
        # or the engine's pass belongs to the next move's step)
        shown = [
            e
            for e in hand.events
            if e.kind != "prompt" and not (e.kind == "pass" and e.payload.get("auto"))
        ]
        seen.append((shown[-1].seq, states))

    record = stored_hand(alice, room, seed=seed, shuffle=2, watch=watch)
    return record, seen


def test_every_step_shows_the_task_state_the_live_table_showed(alice, room):
    assert room.ruleset == "erren"
    record, seen = _played(alice, room, "task-replay-1")
    replay = build_replay(from_record(record))
    assert replay.engine_ok
    assert seen and seen[-1][1][0] in ("met", "missed")
    for seq, states in seen:
        step = step_of(replay.steps, seq)
        for seat in (0, 1):
            assert replay.task_state_at(step, seat) == states[seat], (seq, seat)
    # the states change over the hand: not one value copied to every step
    shown = {replay.task_state_at(i, 0) for i in range(len(replay.steps))}
    assert None in shown and len(shown) >= 3, shown  # before the task, then two


def test_the_replay_board_shows_it_in_words(client, alice, room):
    record, seen = _played(alice, room, "task-replay-1")
    clear_cache()
    client.force_login(alice)
    url = reverse("games:hand_record", args=[record.pk])
    replay = build_replay(from_record(record))
    last = len(replay.steps) - 1
    words = {
        "met": "已达成",
        "missed": "未达成",
        "open": "进行中",
        "ready": "和牌即达成",
    }
    for step in (last // 2, last):
        want = replay.task_state_at(step, 0)
        with translation.override("zh-hans"):
            html = client.get(f"{url}?step={step}&part=board").content.decode()
        box = re.search(r'data-testid="task">(.*?)</div>', html, re.S).group(1)
        assert f'data-task-state="{want}"' in box, (step, box)
        if want in words:
            assert words[want] in box
    client.cookies["django_language"] = "en"
    html = client.get(f"{url}?step={last}&part=board").content.decode()
    box = re.search(r'data-testid="task">(.*?)</div>', html, re.S).group(1)
    assert ("Met" in box) or ("Missed" in box), box
