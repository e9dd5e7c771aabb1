"""A replay: a :class:`~games.replay.handfile.HandFile`, its steps and decisions.

:func:`build_replay` turns a hand file into the steps of the viewer
(:func:`games.replay.board.build_steps`) and, by replaying the log through
the engine (:func:`games.engine.walk.walk`), the decision each seat made at
each step: the options it had (吃 碰 杠 和 过, 报听, 换牌 … — the engine's
``legal_actions``), what it chose, how long it took and how long it had.
The engine's replay also says whether the log is consistent with its seed
and the rules, and the stored result with the log's (``engine_ok``); a log
that is not still has its board.

Replays are kept in a small per-process cache (:func:`cached_replay`): the
viewer asks for one step at a time.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache
from django.utils.translation import gettext as _

from games.engine.actions import Action, AutoPlay, Timeout
from games.engine.errors import LogMismatchError
from games.engine.hand import Hand
from games.engine.review import action_key
from games.engine.task import task_state
from games.engine.walk import walk

from .board import Step, build_steps, step_of
from .handfile import HandFile, result_difference, result_from_log


@dataclass(frozen=True)
class Decision:
    """A seat's move at one step, with what it could have done.

    Attributes:
        seat: who moved.
        seq: the sequence number of the event that carries the move.
        step: the step it belongs to.
        phase: ``pre_deal``, ``double``, ``turn``, ``claim`` or ``rob``.
        chosen: the move (kind and tiles, as ``games.engine.review.action_key``).
        options: the moves it could have made (托管 toggles left out).
        seconds: how long it took, from its prompt; ``None`` if unprompted.
        allowed: the seconds its prompt gave it, or ``None``.
        timeout: the seat let the time run out (the engine moved for it).
        auto: the seat was in 托管 (the server moved for it).
    """

    seat: int
    seq: int
    step: int
    phase: str
    chosen: dict[str, Any]
    options: tuple[dict[str, Any], ...]
    seconds: float | None
    allowed: float | None
    timeout: bool = False
    auto: bool = False


@dataclass
class Replay:
    """A hand ready for the viewer."""

    file: HandFile
    steps: list[Step]
    decisions: dict[int, list[Decision]] = field(default_factory=dict)
    engine_ok: bool = True
    engine_error: str = ""
    engine_mismatch: LogMismatchError | None = None
    result_where: str = ""
    task_states: list[tuple[str | None, str | None]] = field(default_factory=list)
    """Per step, how each seat stood with the 任务 there (empty when the
    engine could not replay the log): :func:`games.engine.task.task_state`
    of the hand as the live table showed it after the move the step belongs
    to (the table shows a move's events together, the replay one by one)."""

    def task_state_at(self, step: int, seat: int) -> str | None:
        """``seat``'s 任务 state at step ``step`` (None: no task, or unknown)."""
        if not 0 <= step < len(self.task_states):
            return None
        return self.task_states[step][seat]

    def engine_reason(self) -> str:
        """Why the engine's replay disagrees with the file, in the reader's
        language (empty when it agrees).  Worded at each call, not when the
        (cached, shared by every language) replay was built."""
        if self.engine_ok:
            return ""
        wrong = self.engine_mismatch
        if wrong is not None:
            return mismatch_words(wrong)
        if self.result_where:
            return _("文件里的结果（%(where)s）与记录最后一个事件不符") % {
                "where": self.result_where
            }
        return _("记录无法按规则重放（%(detail)s）") % {"detail": self.engine_error}

    def decision_steps(self, seat: int) -> list[int]:
        """Steps where ``seat`` decided something (prompted, not 托管)."""
        return sorted(
            step
            for step, ds in self.decisions.items()
            if any(d.seat == seat and not d.auto and d.seconds is not None for d in ds)
        )


def _options(legal: list[Action]) -> tuple[dict[str, Any], ...]:
    return tuple(action_key(a) for a in legal if not isinstance(a, AutoPlay | Timeout))


def build_replay(hf: HandFile) -> Replay:
    """Steps and decisions of ``hf`` (see the module docstring).

    Raises:
        ValueError: the log does not start with ``hand_started``.
    """
    events = list(hf.events)
    steps = build_steps(events)
    replay = Replay(file=hf, steps=steps)
    found: dict[int, list[Decision]] = {}
    # (seq of a move's first event, each seat's 任务 state just before it)
    before: list[tuple[int, tuple[str | None, str | None]]] = []
    hand: Hand | None = None
    try:
        for point in walk(hf.seed, events):
            before.append((point.event.seq, _task_states(point.hand)))
            action = point.action
            if isinstance(action, AutoPlay):
                continue
            hand = point.hand
            seat = point.seat
            state = hand.state
            timeout = isinstance(action, Timeout)
            chosen_action = hand.default_action(seat) if timeout else action
            if chosen_action is None:
                continue
            allowed = (
                state.deadline - point.asked_at
                if state.deadline is not None and point.asked_at is not None
                else None
            )
            step = step_of(steps, point.event.seq)
            found.setdefault(step, []).append(
                Decision(
                    seat=seat,
                    seq=point.event.seq,
                    step=step,
                    phase=state.phase.value,
                    chosen=action_key(chosen_action),
                    options=_options(hand.legal_actions(seat)),
                    seconds=point.seconds,
                    allowed=allowed,
                    timeout=timeout,
                    auto=bool(state.auto[seat]),
                )
            )
    except (ValueError, KeyError, TypeError) as exc:
        replay.engine_ok = False
        replay.engine_error = str(exc)[:300]
        if isinstance(exc, LogMismatchError):
            replay.engine_mismatch = exc
    else:
        replay.decisions = found
        # after the walk the hand has its last move applied: the end
        final = _task_states(hand) if hand is not None else (None, None)
        replay.task_states = _per_step(steps, before, final)
        rebuilt = result_from_log(hf.events, practice=hf.practice)
        if rebuilt is not None:
            # the stored result must be the one the (replayed) log carries
            where = result_difference(hf.result, hf.settlement, rebuilt)
            if where is not None:
                replay.engine_ok = False
                replay.engine_error = f"the stored {where} differs from the log"
                replay.result_where = where
    return replay


def _task_states(hand: Hand) -> tuple[str | None, str | None]:
    return (task_state(hand.state, 0), task_state(hand.state, 1))


def _per_step(
    steps: list[Step],
    before: list[tuple[int, tuple[str | None, str | None]]],
    final: tuple[str | None, str | None],
) -> list[tuple[str | None, str | None]]:
    """Each step's 任务 states: those before the first move logged after
    the step's last event (``before``, in log order), else ``final``."""
    seqs = [seq for seq, _states in before]
    out = []
    for step in steps:
        i = bisect_right(seqs, step.seq)
        out.append(before[i][1] if i < len(before) else final)
    return out


def mismatch_words(wrong: LogMismatchError) -> str:
    """``wrong`` in player words: which event, what the file says, what the
    rules give (e.g. 第 12 个事件（打牌）：文件里是 9m，按种子和规则应为 9p)."""
    from games.record import KIND_LABELS  # games.record imports the models

    what = str(KIND_LABELS.get(wrong.kind, wrong.kind))
    if wrong.field == "count":
        return _("按种子和规则重放得到 %(replayed)s 个事件，文件里有 %(logged)s 个") % {
            "replayed": wrong.replayed,
            "logged": wrong.logged,
        }
    if wrong.logged and wrong.replayed and len(wrong.logged + wrong.replayed) <= 80:
        return _(
            "第 %(seq)s 个事件（%(what)s）：文件里是 %(logged)s，"
            "按种子和规则应为 %(replayed)s"
        ) % {
            "seq": wrong.seq,
            "what": what,
            "logged": wrong.logged,
            "replayed": wrong.replayed,
        }
    return _("第 %(seq)s 个事件（%(what)s）与按种子和规则重放的结果不同") % {
        "seq": wrong.seq,
        "what": what,
    }


CACHE_SIZE = 32
"""Replays kept per process (a long hand's steps take about 1 MB)."""

# Bound: CACHE_SIZE replays.  Why: the replay page asks for every step of a
# hand while a reader steps through it, and building one replays the whole
# log through the engine.  A lock: views run in several threads, and
# cachetools' caches are not thread-safe.
_CACHE: LRUCache[Any, Replay] = LRUCache(maxsize=CACHE_SIZE)
_LOCK = threading.Lock()


def cached_replay(key: Any, make: Callable[[], HandFile]) -> Replay:
    """The replay cached under ``key``, built from ``make()`` when missing.

    ``key`` must change when the hand file would (a stored hand never
    changes once ended; an imported file is keyed by its digest).
    """
    with _LOCK:
        got = _CACHE.get(key)
    if got is not None:
        return got
    replay = build_replay(make())
    with _LOCK:
        _CACHE[key] = replay
    return replay


def clear_cache() -> None:
    """Forget cached replays (tests)."""
    with _LOCK:
        _CACHE.clear()
