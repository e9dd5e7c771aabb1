"""A hand's compact snapshot: its whole state as JSON, without the log.

The live table stores one snapshot per hand (versioned by ``seq``) and loads
it for every action and frame instead of replaying seed + log
(games.services.hands).  :func:`hand_to_snapshot` and
:func:`hand_from_snapshot` are inverse: a hand rebuilt from its snapshot and
its recent events (:func:`recent_events`) applies every later action exactly
as the hand it was taken from, and shows the same frames
(``tests/engine/test_snapshot.py`` holds every rule set to that).

A transition reads the state only, never the log; the recent events are what
frames and the veil read beyond the state: the last discard, the event before
it (whether a turn timeout made it) and everything since (call-outs, the
claim and ROB windows).  The whole log (27 KB of JSON at a hand's end) stays
in the event rows, for the replay and for checks.

What a :class:`~.hand.Hand` holds besides :class:`~.state.HandState`:

* the seeded generator: it is used only by the deal (加番牌, 任务), so a hand
  before its deal (``PRE_DEAL``) gets it again from the seed
  (:func:`~.wall.build_wall`), and a dealt hand gets :class:`SpentRandom`,
  which refuses every draw (an engine change that draws after the deal fails
  its tests instead of diverging silently);
* ``prompt_locked``, ``turn_from_discard`` and the shuffle version (from
  ``hand_started``), the clock of the last action (``now``) and
  ``clock_from`` (a turn deadline counted from a discard, kept from a claim
  or ROB window to the TURN prompt that follows it);
* the settlement of an ended hand (also in ``state.result``).

The snapshot is server-only: it holds the wall and both hands (never sent to
a browser).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..rules.melds import Meld, MeldKind
from ..rules.rulesets import get as get_ruleset
from ..rules.tiles import ALL_TILES
from .events import Event, seat_set
from .hand import Hand
from .settle import Line, Settlement
from .state import HandState, Phase, Task
from .wall import build_wall

SNAPSHOT_VERSION = 1
"""Bumped when the format changes; an older snapshot is rebuilt from the log."""


class SnapshotError(ValueError):
    """A snapshot this engine cannot load (other version, malformed)."""


class SpentRandom(random.Random):
    """The generator of a dealt hand: any draw is an error (see module doc)."""

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Nothing to seed: no draw is made (seeding the Mersenne Twister cost
        about 4 µs of every snapshot load, issue 15)."""

    def random(self) -> float:
        raise RuntimeError("the hand's generator is spent after the deal")

    def getrandbits(self, k: int, /) -> int:
        raise RuntimeError("the hand's generator is spent after the deal")


def _meld_to_json(m: Meld) -> list[Any]:
    return [
        m.kind.value,
        [t.index for t in m.tiles],
        None if m.claimed is None else m.claimed.index,
    ]


def _meld_from_json(data: Sequence[Any]) -> Meld:
    kind, tiles, claimed = data
    return Meld(
        MeldKind(kind),
        tuple(ALL_TILES[int(i)] for i in tiles),
        None if claimed is None else ALL_TILES[int(claimed)],
    )


def _settlement_from_json(data: dict[str, Any]) -> Settlement:
    return Settlement(
        winner=data["winner"],
        loser=data["loser"],
        fan=int(data["fan"]),
        multiplier=int(data["multiplier"]),
        coins=int(data["coins"]),
        rake=int(data["rake"]),
        deltas=(int(data["deltas"][0]), int(data["deltas"][1])),
        skill=(int(data["skill"][0]), int(data["skill"][1])),
        lines=tuple(Line(**line) for line in data["lines"]),
    )


def events_to_rows(events: Sequence[Event]) -> list[list[Any]]:
    """The log as compact JSON rows ``[seq, kind, seat, payload, public,
    visible_to, at, action]`` (half the text of :meth:`Event.to_json`'s
    dicts, and half the time to read back)."""
    return [
        [
            e.seq,
            e.kind,
            e.seat,
            e.payload,
            e.public,
            sorted(e.visible_to),
            e.at,
            e.action,
        ]
        for e in events
    ]


def events_from_rows(rows: Sequence[Sequence[Any]]) -> list[Event]:
    """Inverse of :func:`events_to_rows`.

    Raises:
        SnapshotError: a row that is not an event.
    """
    try:
        return [
            Event(
                int(seq),
                kind,
                seat,
                payload,
                public,
                seat_set(visible_to),
                float(at),
                action,
            )
            for seq, kind, seat, payload, public, visible_to, at, action in rows
        ]
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"malformed event row: {exc}") from exc


def recent_events(hand: Hand) -> list[Event]:
    """The events a snapshot keeps: from the one before the hand's last
    discard to the end (the whole log before the first discard) — from the
    one before the discard before it when both were made at the same time
    (one write: a bot's answer to a timed-out discard, whose notice the
    frame still shows).

    Everything a frame or the veil reads of the log lies there
    (games.presenters.events, games.services.veil): a hand continued from
    these holds enough for its own next snapshot, as every later discard
    comes after them.
    """
    events = hand.events
    start = -1
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind != "discard":
            continue
        if start < 0:
            start = i
            continue
        if events[i].at == events[start].at:
            start = i
        break
    if start < 0:
        return list(events)
    return events[max(0, start - 1) :]


def hand_to_snapshot(hand: Hand) -> dict[str, Any]:
    """Return ``hand``'s snapshot: JSON-ready, without its events.

    Call between actions (never inside :meth:`Hand.apply`).
    """
    st = hand.state
    state = {
        name: getattr(st, name)
        for name in st.__dataclass_fields__
        if name not in ("melds", "task", "phase", "balances")
    }
    state["balances"] = list(st.balances)
    state["phase"] = st.phase.value
    state["task"] = None if st.task is None else st.task.to_json()
    state["melds"] = [[_meld_to_json(m) for m in ms] for ms in st.melds]
    return {
        "v": SNAPSHOT_VERSION,
        "seq": st.seq,
        "shuffle": hand.shuffle,
        "prompt_locked": hand.prompt_locked,
        "turn_from_discard": hand.turn_from_discard,
        "now": hand._now,
        "clock_from": hand._clock_from,
        "settlement": None if hand.settlement is None else hand.settlement.to_json(),
        "state": {k: _fresh(v) for k, v in state.items()},
    }


def _fresh(value: Any) -> Any:
    """A copy of ``value``'s nested lists (their other items are shared:
    ints, strings and the ended hand's ``result``, never changed in place).

    A list holding no list (the wall, a seat's counts: most of a state) is
    copied whole by ``list[:]``, not item by item: a snapshot is read for
    every move and every frame (issue 15)."""
    if type(value) is not list:
        return value
    if list in map(type, value):
        return [_fresh(v) for v in value]
    return value[:]


def hand_from_snapshot(data: dict[str, Any], events: Sequence[Event]) -> Hand:
    """Rebuild the hand a snapshot was taken from.

    ``events``: consecutive events of the hand's log ending at the
    snapshot's ``seq`` — its :func:`recent_events` (or more, up to the whole
    log); the hand holds those (``log_from``: the seq before the first).

    Raises:
        SnapshotError: another format version, a malformed snapshot, or
            events that are not consecutive or do not end at its ``seq``.
    """
    if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
        raise SnapshotError("snapshot of another version")
    try:
        # melds are read into new objects: no copy of their lists first
        raw = {k: v if k == "melds" else _fresh(v) for k, v in data["state"].items()}
        raw["balances"] = (int(raw["balances"][0]), int(raw["balances"][1]))
        raw["phase"] = Phase(raw["phase"])
        raw["task"] = Task.from_json(raw["task"])
        raw["melds"] = [[_meld_from_json(m) for m in ms] for ms in raw["melds"]]
        state = HandState(**raw)
        ruleset = get_ruleset(state.ruleset)
        shuffle = int(data["shuffle"])
        rng: random.Random
        if state.phase is Phase.PRE_DEAL:
            rng = build_wall(ruleset, state.seed, shuffle)[1]
        else:
            rng = SpentRandom(0)
        hand = Hand(ruleset, state, rng)
        hand.shuffle = shuffle
        hand.prompt_locked = bool(data["prompt_locked"])
        hand.turn_from_discard = bool(data["turn_from_discard"])
        hand._now = float(data["now"])
        clock_from = data["clock_from"]
        hand._clock_from = None if clock_from is None else float(clock_from)
        settled = data["settlement"]
        hand.settlement = None if settled is None else _settlement_from_json(settled)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"malformed snapshot: {exc}") from exc
    if int(data["seq"]) != state.seq or (events and events[-1].seq != state.seq):
        raise SnapshotError("the events do not end at the snapshot's seq")
    if events and events[-1].seq - events[0].seq != len(events) - 1:
        raise SnapshotError("the events are not consecutive")
    hand.events = list(events)
    hand.log_from = state.seq - len(events)
    return hand


__all__ = [
    "SNAPSHOT_VERSION",
    "SnapshotError",
    "SpentRandom",
    "events_from_rows",
    "events_to_rows",
    "hand_from_snapshot",
    "hand_to_snapshot",
    "recent_events",
]
