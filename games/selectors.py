"""Reads for live play: the lobby, table and hand-record access checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.http import Http404

from .models import HandEvent, HandRecord, Room, Table


@dataclass(frozen=True)
class LobbyRoom:
    """A room as the lobby shows it: players waiting and tables playing."""

    room: Room
    waiting: int
    playing: int


def lobby_rooms() -> list[LobbyRoom]:
    """Active rooms in display order with their waiting/playing counts."""
    # explicit order: Meta.ordering is not applied to GROUP BY queries
    rooms = (
        Room.objects.filter(active=True)
        .order_by("order", "stake", "id")
        .annotate(
            n_waiting=Count(
                "tables",
                filter=Q(tables__status=Table.Status.WAITING, tables__kind="quick"),
            ),
            n_playing=Count(
                "tables",
                filter=Q(
                    tables__status__in=[Table.Status.PLAYING, Table.Status.SETTLING]
                ),
            ),
        )
    )
    return [LobbyRoom(r, r.n_waiting, r.n_playing) for r in rooms]


def access_table(user: Any, table_id: int) -> tuple[Table, int]:
    """Return ``(table, seat)`` for a player seated at ``table_id``.

    Raises:
        Http404: no such table, or ``user`` has no seat there (a table's
            existence is not revealed to others).
    """
    table = (
        Table.objects.select_related("room", "hand", "match")
        .filter(pk=table_id)
        .first()
    )
    seat = table.seat_of(getattr(user, "pk", None)) if table else None
    if table is None or seat is None:
        raise Http404("no such table")
    return table, seat


def access_hand_record(user: Any, hand_id: int) -> HandRecord:
    """Return a hand for its two players and staff, only once it has ended.

    Raises:
        Http404: no such hand, not allowed, or still being played.
    """
    record = (
        HandRecord.objects.select_related("table", "seat0", "seat1")
        .filter(pk=hand_id)
        .first()
    )
    if record is None or record.status == HandRecord.Status.LIVE:
        raise Http404("no such hand")
    allowed = (
        getattr(user, "is_staff", False)
        or record.seat_of(getattr(user, "pk", None)) is not None
    )
    if not allowed:
        raise Http404("no such hand")
    return record


def hand_log(record: HandRecord) -> list[dict[str, Any]]:
    """Every event of an ended hand, full payloads (both hands open).

    Shape: ``[{seq, kind, seat, data, at}]``.  Only for hands that passed
    :func:`access_hand_record` (ended or annulled).
    """
    if record.status == HandRecord.Status.LIVE:
        raise ValueError("the log of a live hand is not public")
    return [
        {"seq": e.seq, "kind": e.kind, "seat": e.seat, "data": e.payload, "at": e.at}
        for e in HandEvent.objects.filter(hand=record).order_by("seq")
    ]
