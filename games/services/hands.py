"""Loading and storing a live hand: one snapshot row per hand, the log beside it.

Every action and every frame loads one consistent state of its hand: the
hand's :class:`~games.models.HandSnapshot` (the engine's
:func:`~games.engine.snapshot.hand_to_snapshot`, versioned by ``seq``, with
the recent events frames and the veil read,
:func:`~games.engine.snapshot.recent_events`).  A write applies the action
to that hand and stores the new snapshot with the new event rows in the same
transaction, under the table's row lock (games.services.locking), so the
snapshot is always the state after the log's last event.  No process keeps a
copy of a hand between requests: nothing can go stale.

The log stays the truth, the audit trail and the replay.  The hand is
rebuilt from seed + log (:func:`rebuild_hand`) only when the snapshot cannot
serve: it is missing or of another format (a hand dealt before snapshots
existed), or a reader's table row is behind a move committed since.  The
older state a ROB veil shows (games.services.veil) is kept in the row
(``rob_base``).  :func:`check_snapshot` compares the stored snapshot with the
rebuilt one (tests, and crash recovery in games.services.resume).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.expressions import Col

from games.engine.events import Event
from games.engine.hand import Hand
from games.engine.snapshot import (
    SnapshotError,
    events_from_rows,
    events_to_rows,
    hand_from_snapshot,
    hand_to_snapshot,
    recent_events,
)

from ..models import HandEvent, HandRecord, HandSnapshot, Match, Room, Table
from .rows import (
    Writes,
    db_connection,
    json_rows_insert,
    prepared_cursor,
    row_update,
)

log = logging.getLogger(__name__)


class HandUnavailableError(RuntimeError):
    """The hand cannot be rebuilt from its log (missing seed or a broken log)."""


def event_from_row(row: HandEvent) -> Event:
    """Convert a stored log row back into the engine's :class:`Event`."""
    return Event(
        seq=row.seq,
        kind=row.kind,
        seat=row.seat,
        payload=row.payload,
        public=row.public,
        visible_to=frozenset(row.visible_to),
        at=row.at,
        action=row.action,
    )


def event_values(ev: Event) -> dict[str, Any]:
    """The log row's values for ``ev``, by field name (but ``hand``): what
    :func:`event_to_row` and :func:`events_insert` store."""
    return {
        "seq": ev.seq,
        "kind": ev.kind,
        "seat": ev.seat,
        "payload": ev.payload,
        "public": ev.public,
        "visible_to": sorted(ev.visible_to),
        "at": ev.at,
        "action": ev.action,
    }


def event_to_row(record: HandRecord, ev: Event) -> HandEvent:
    """Build (unsaved) the log row for ``ev`` of ``record``."""
    return HandEvent(hand=record, **event_values(ev))


def events_insert(
    record: HandRecord, events: Sequence[Event], *, writes: Writes | None = None
) -> None:
    """Insert the log rows of ``events`` of ``record``: the rows
    :func:`event_to_row` makes, written from the events' values without a
    model instance each (games.services.rows.json_rows_insert; a move writes
    about four).  ``writes``: queue the ``INSERT`` there."""
    pk = record.pk
    json_rows_insert(
        HandEvent,
        [{"hand_id": pk, **event_values(ev)} for ev in events],
        writes=writes,
    )


def _events(record: HandRecord, upto: int | None) -> list[Event]:
    query = HandEvent.objects.filter(hand=record)
    if upto is not None:
        query = query.filter(seq__lte=upto)
    return [event_from_row(r) for r in query.order_by("seq")]


def rebuild_hand(record: HandRecord, *, upto: int | None = None) -> Hand:
    """Replay ``record``'s seed and stored log into a fresh :class:`Hand`.

    ``upto``: rebuild the hand as it was at that event (the log is append-only
    and every write ends at a move's last event, so the prefix up to a
    table row's ``seq`` is the state that row was committed with); ``None``
    replays the whole log.  For recovery, checks and older states only:
    a live action or frame loads the snapshot (:func:`load_hand`).

    Raises:
        HandUnavailableError: no events, no seed, or the replay does not
            reproduce the stored log (tampered or truncated).
    """
    events = _events(record, upto)
    if not events or not record.secret_seed:
        raise HandUnavailableError(f"hand {record.pk} has no log or no seed")
    try:
        hand = Hand.replay(record.secret_seed, events)
    except (ValueError, KeyError, TypeError) as exc:
        raise HandUnavailableError(f"hand {record.pk}: {exc}") from exc
    if hand.seq != events[-1].seq:
        raise HandUnavailableError(
            f"hand {record.pk}: replay stops at {hand.seq}, log at {events[-1].seq}"
        )
    return hand


def _stored(record: HandRecord) -> HandSnapshot | None:
    """The snapshot row of ``record`` (the one read with it, else a query)."""
    try:
        return record.snapshot
    except HandSnapshot.DoesNotExist:
        return None


def load_hand(record: HandRecord, *, seq: int) -> Hand:
    """Return the hand of ``record`` in its state at event ``seq``.

    Loads the snapshot row, which holds the recent events too (no read at
    all when the caller's query brought it along: :func:`fetch_table`).  The
    hand is the state at ``seq`` exactly, even when the hand has moved on
    since the caller read ``seq`` (a frame is built from one state, the one
    its table row describes; issue 11 §5.6).  The state before a 加杠 that a
    ROB veil shows its maker (games.services.veil) comes from the row too
    (``rob_base``).  Any other state, and a snapshot that is missing or of
    another format, is rebuilt from the log.  The returned hand is the
    caller's own: changing it changes nothing stored until
    :func:`store_hand`.

    Raises:
        HandUnavailableError: see :func:`rebuild_hand`, or the log does not
            reach ``seq``.
    """
    snap = _stored(record)
    hand = _from_row(record, snap, seq)
    if hand is None:
        # the row read with the record may be older than the caller's seq
        snap = HandSnapshot.objects.filter(hand=record).first()
        hand = _from_row(record, snap, seq)
    if hand is not None:
        return hand
    hand = rebuild_hand(record, upto=seq)
    if hand.seq != seq:
        raise HandUnavailableError(
            f"hand {record.pk}: log ends at {hand.seq}, table says {seq}"
        )
    return hand


def _from_row(record: HandRecord, snap: HandSnapshot | None, seq: int) -> Hand | None:
    """The hand at ``seq`` from the snapshot row, or None when it has not got it."""
    if snap is None:
        return None
    if snap.seq == seq:
        stored = {"data": snap.data, "events": snap.events}
    elif isinstance(snap.rob_base, dict) and snap.rob_base.get("seq") == seq:
        stored = snap.rob_base
    else:
        return None
    try:
        return hand_from_snapshot(stored["data"], events_from_rows(stored["events"]))
    except (SnapshotError, KeyError, TypeError) as exc:
        log.warning("hand %s: snapshot not loaded (%s); replaying", record.pk, exc)
        return None


def _rob_base(snap: HandSnapshot | None, hand: Hand) -> dict[str, Any] | None:
    """What ``hand``'s new snapshot keeps as ``rob_base``.

    ``snap``: the row as it was before this write (the state the write
    started from).  While every event after the hand's latest 加杠 keeps a
    ROB veil (:data:`~games.services.veil.ROB_QUIET`), the state just before
    that kong: the row's own state when the kong is this write's first event
    (its maker's action), else the one the row already kept.  A kong made
    otherwise (托管's, after a timeout) has none: its maker is not veiled.
    """
    from .veil import ROB_QUIET

    kong = None
    for ev in reversed(hand.events):
        if ev.kind == "added_kong":
            kong = ev
            break
        if ev.kind not in ROB_QUIET:
            return None
    if kong is None or snap is None:
        return None
    if snap.seq == kong.seq - 1:
        return {"seq": snap.seq, "data": snap.data, "events": snap.events}
    kept = snap.rob_base
    if isinstance(kept, dict) and kept.get("seq") == kong.seq - 1:
        return kept
    return None


def store_hand(
    record: HandRecord,
    hand: Hand,
    *,
    repair: bool = False,
    new: bool = False,
    writes: Writes | None = None,
) -> None:
    """Write ``hand``'s snapshot as ``record``'s (insert or replace).

    Call in the transaction that writes the hand's new events, holding the
    table's row lock (games.services.locking), after its last event.
    ``repair``: the stored row is not trusted (crash recovery replaces one
    unequal to the log): nothing of it is kept.  ``new``: ``record`` was
    created in this transaction, so it has no snapshot yet: the row is
    inserted without looking for one (one statement instead of three).
    ``writes``: queue the UPDATE of an existing row there (a new row is
    inserted now, after what was queued).
    """
    data = hand_to_snapshot(hand)
    events = events_to_rows(recent_events(hand))
    snap = None if new else _stored(record)
    rob_base = None if repair else _rob_base(snap, hand)
    if snap is None:
        snap = HandSnapshot(
            hand=record, seq=hand.seq, data=data, events=events, rob_base=rob_base
        )
        record.snapshot = snap
        if writes is not None:
            writes.flush()
        snap.save(force_insert=new)
    else:
        snap.seq, snap.data, snap.events = hand.seq, data, events
        snap.rob_base = rob_base
        row_update(snap, ["seq", "data", "events", "rob_base"], writes=writes)


def check_snapshot(record: HandRecord, *, rebuilt: Hand | None = None) -> bool:
    """Whether ``record``'s stored snapshot equals the one its log rebuilds.

    ``rebuilt``: the hand :func:`rebuild_hand` gave for the whole log, if the
    caller has it.  False for a missing snapshot too.  Used by tests and by
    crash recovery (games.services.resume, which then stores the rebuilt one).

    Raises:
        HandUnavailableError: the log cannot be replayed.
    """
    stored = HandSnapshot.objects.filter(hand=record).first()
    rebuilt = rebuild_hand(record) if rebuilt is None else rebuilt
    if not (
        stored is not None
        and stored.seq == rebuilt.seq
        and stored.data == hand_to_snapshot(rebuilt)
        and stored.events == events_to_rows(recent_events(rebuilt))
    ):
        return False
    base = stored.rob_base
    if base is None:
        return True
    if not isinstance(base, dict) or not isinstance(base.get("seq"), int):
        return False
    before = rebuild_hand(record, upto=base["seq"])
    return (
        before.seq == base["seq"]
        and base.get("data") == hand_to_snapshot(before)
        and base.get("events") == events_to_rows(recent_events(before))
    )


# ------------------------------------------------------- the table of a move
_JOINED: tuple[tuple[str, type[Model]], ...] = (
    ("t", Table),
    ("r", Room),
    ("m", Match),
    ("h", HandRecord),
    ("s", HandSnapshot),
)
"""The rows :func:`fetch_table` reads in one statement, with their aliases."""

_Converter = tuple[Callable[[Any, Any, Any], Any], Col]
_Plan = tuple[str, list[tuple[type[Model], list[str], list[list[_Converter]]]]]


# Bound: 8 plans, two (with and without the lock) per database alias.  Why:
# building one costs about 250 µs of CPU (every field's converters), and a
# move reads about three tables (its own and each seat's frame), so about
# 0.75 ms per move; a remembered plan, about 3 µs.  lru_cache locks its own
# bookkeeping (two threads may build the same plan once each: harmless).
@lru_cache(maxsize=8)
def _plan(using: str, lock: bool) -> _Plan:
    """The statement of :func:`fetch_table` on database ``using`` and how to
    read its columns.

    Built from the models' concrete fields (so a field added to a model is
    read without touching this), with each field's converters as the ORM
    applies them to a selected column (the backend's, then the field's
    ``from_db_value``).
    """
    db = connections[using]
    qn = db.ops.quote_name
    columns: list[str] = []
    readers: list[tuple[type[Model], list[str], list[list[_Converter]]]] = []
    for alias, model in _JOINED:
        fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        # concrete fields: each has a column (the stubs allow None)
        columns += [f"{alias}.{qn(f.column)}" for f in fields]  # type: ignore[arg-type]
        converters = []
        for f in fields:
            col = Col(alias, f)
            converters.append(
                [
                    (conv, col)
                    for conv in db.ops.get_db_converters(col) + f.get_db_converters(db)
                ]
            )
        readers.append((model, [f.attname for f in fields], converters))

    def fk(model: type[Model], name: str) -> str:
        return qn(model._meta.get_field(name).column)  # type: ignore[union-attr,arg-type]

    def pk(model: type[Model]) -> str:
        return qn(model._meta.pk.column)  # type: ignore[arg-type]

    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(Table._meta.db_table)} t"
        f" INNER JOIN {qn(Room._meta.db_table)} r"
        f" ON r.{pk(Room)} = t.{fk(Table, 'room')}"
        f" LEFT OUTER JOIN {qn(Match._meta.db_table)} m"
        f" ON m.{pk(Match)} = t.{fk(Table, 'match')}"
        f" LEFT OUTER JOIN {qn(HandRecord._meta.db_table)} h"
        f" ON h.{pk(HandRecord)} = t.{fk(Table, 'hand')}"
        f" LEFT OUTER JOIN {qn(HandSnapshot._meta.db_table)} s"
        f" ON s.{fk(HandSnapshot, 'hand')} = h.{pk(HandRecord)}"
        f" WHERE t.{pk(Table)} = %s"
    )
    features = db.features
    if lock and features.has_select_for_update:
        of = " OF t" if features.has_select_for_update_of else ""
        sql += f" FOR UPDATE{of}"
    return (sql, readers)


def fetch_table(table_id: int, *, lock: bool = False) -> Table | None:
    """Table ``table_id`` with its room, match, hand and the hand's snapshot,
    in one statement; None when there is no such table.

    What ``Table.objects.select_related("room", "match", "hand",
    "hand__snapshot")`` returns (and with ``lock``, ``select_for_update(of=
    ("self",))``: call inside ``transaction.atomic``), read without the ORM
    compiling the five-table statement on every call (about 2 ms of CPU per
    move and per frame, ``benchmarks/bench_action.py``): the statement is
    built once from the models' fields and each row made with the public
    ``Model.from_db``.  Relies on the ORM's converters per column and on the
    related-object caches being set by plain assignment;
    ``tests/games/test_games_fetch_table.py`` compares every field with the
    ORM's answer, so a Django upgrade that changes either fails there.
    """
    connection = db_connection()
    db = connection.alias
    sql, readers = _plan(db, lock)
    with prepared_cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    objs: list[Model | None] = []
    at = 0
    for model, names, converters in readers:
        values: Sequence[Any] = row[at : at + len(names)]
        at += len(names)
        if values[0] is None:  # the primary key: no such row joined
            objs.append(None)
            continue
        values = [
            _convert(v, convs, connection) if convs else v
            for v, convs in zip(values, converters, strict=True)
        ]
        objs.append(model.from_db(db, names, values))
    table, room, match, record, snap = objs
    assert isinstance(table, Table) and isinstance(room, Room)
    table.room = room
    if isinstance(match, Match):
        table.match = match
    if isinstance(record, HandRecord):
        table.hand = record
        if isinstance(snap, HandSnapshot):
            record.snapshot = snap
        else:  # known to have none: asking for it is no query
            HandRecord._meta.get_field("snapshot").set_cached_value(record, None)
    return table


def _convert(
    value: Any, converters: list[_Converter], connection: BaseDatabaseWrapper
) -> Any:
    for conv, col in converters:  # as the ORM's compiler applies them
        value = conv(value, col, connection)
    return value
