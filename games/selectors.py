"""Reads for live play: the lobby, table and hand-record access checks.

Keyword-only; ``user`` is whoever asks (``request.user``: a user, or
anonymous).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, Count, F, IntegerField, Q, Sum, When
from django.http import Http404

from accounts.models import User

from .models import HandEvent, HandRecord, HandSeat, Room, Table
from .presence import waiters_present


@dataclass(frozen=True)
class LobbyRoom:
    """A room as the lobby shows it: players waiting and tables playing."""

    room: Room
    waiting: int
    playing: int


def lobby_rooms(*, now: float | None = None) -> list[LobbyRoom]:
    """Active rooms in display order with their waiting/playing counts.

    ``waiting`` counts only present players (games.presence: their waiting
    table or the lobby open, a heartbeat within ``MAHJONG_PRESENCE_TTL``);
    a queued player who closed the page or went idle is not counted
    (issue 11 §1).
    """
    # explicit order: Meta.ordering is not applied to GROUP BY queries
    rooms = (
        Room.objects.filter(active=True)
        .order_by("order", "stake", "id")
        .annotate(
            n_playing=Count(
                "tables",
                filter=Q(
                    tables__status__in=[Table.Status.PLAYING, Table.Status.SETTLING]
                ),
            ),
        )
    )
    waiting = waiting_by_room(now=now)
    return [LobbyRoom(r, waiting.get(r.pk, 0), r.n_playing) for r in rooms]


def _waiting_tables() -> list[tuple[int, int, int]]:
    """``(table_id, room_id, user_id)`` of every 快速开始 table waiting."""
    return [
        (pk, room_id, user_id)
        for pk, room_id, user_id in Table.objects.filter(
            status=Table.Status.WAITING, kind=Table.Kind.QUICK, seat0__isnull=False
        ).values_list("pk", "room_id", "seat0_id")
    ]


def waiting_by_room(*, now: float | None = None) -> dict[int, int]:
    """Present queued players per room id (rooms with none are left out)."""
    tables = _waiting_tables()
    present = waiters_present([(t, u) for t, _, u in tables], now=now)
    out: dict[int, int] = {}
    for table_id, room_id, _ in tables:
        if table_id in present:
            out[room_id] = out.get(room_id, 0) + 1
    return out


@dataclass(frozen=True)
class QueueState:
    """A queued player's view of the queue (the lobby's queue-waiting panel).

    ``table``: their waiting 快速开始 table; ``waiting``: present players
    queued in that room, themselves included.
    """

    table: Table
    waiting: int


def queue_state(
    *, user: User | AnonymousUser, now: float | None = None
) -> QueueState | None:
    """The queue ``user`` is in (a waiting 快速开始 table), or None."""
    uid = user.pk
    if uid is None:
        return None
    table = (
        Table.objects.select_related("room")
        .filter(seat0_id=uid, status=Table.Status.WAITING, kind=Table.Kind.QUICK)
        .order_by("-id")
        .first()
    )
    if table is None:
        return None
    count = waiting_by_room(now=now).get(table.room_id, 0)
    return QueueState(table, count)


@dataclass(frozen=True)
class LobbyGroup:
    """One rule set's rooms in the lobby (``ruleset`` is its name, ``erren``)."""

    ruleset: str
    rooms: list[LobbyRoom]


def lobby_groups(rooms: list[LobbyRoom] | None = None) -> list[LobbyGroup]:
    """The lobby's rooms grouped by rule set, in ``rulesets.NAMES`` order.

    Rule sets without an active room are left out; within a group the rooms
    keep :func:`lobby_rooms`' order.  ``rooms`` defaults to
    :func:`lobby_rooms` (pass it to reuse one query).
    """
    from .rules.rulesets import NAMES

    if rooms is None:
        rooms = lobby_rooms()
    by_ruleset: dict[str, list[LobbyRoom]] = {}
    for item in rooms:
        by_ruleset.setdefault(item.room.ruleset, []).append(item)
    order = [n for n in NAMES if n in by_ruleset]
    order += sorted(n for n in by_ruleset if n not in NAMES)
    return [LobbyGroup(n, by_ruleset[n]) for n in order]


def access_table(*, user: User | AnonymousUser, table_id: int) -> tuple[Table, int]:
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
    seat = table.seat_of(user.pk) if table else None
    if table is None or seat is None:
        raise Http404("no such table")
    return table, seat


def access_hand_record(*, user: User | AnonymousUser, hand_id: int) -> HandRecord:
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
    allowed = user.is_staff or record.seat_of(user.pk) is not None
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


def review_agreement(
    *,
    user_id: int,
    hand_ids: Iterable[int] | None = None,
    limit: int | None = None,
) -> tuple[int, int]:
    """How often ``user_id``'s decisions matched the hard bot: ``(agreed, decisions)``.

    Summed over the user's seats (``HandSeat``) in reviewed hands
    (``HandReview``, games.services.review): ``hand_ids`` restricts to those
    hands (None: all the user's reviewed hands); ``limit`` keeps the newest
    ``limit`` of them (by the hand's end).  Hands without a review count
    nothing.  ``(0, 0)`` when nothing was reviewed.  The "matches the bot"
    signal of moderation; the review itself is described in
    games.engine.review.

    Raises:
        ValueError: a negative ``limit``.
    """
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    seats = HandSeat.objects.filter(user_id=user_id, hand__review__isnull=False)
    if hand_ids is not None:
        seats = seats.filter(hand_id__in=list(hand_ids))
    agreed = Case(
        When(seat=0, then=F("hand__review__seat0_agreed")),
        default=F("hand__review__seat1_agreed"),
        output_field=IntegerField(),
    )
    made = Case(
        When(seat=0, then=F("hand__review__seat0_decisions")),
        default=F("hand__review__seat1_decisions"),
        output_field=IntegerField(),
    )
    if limit is not None:
        rows = list(
            seats.order_by("-ended", "-id")
            .annotate(a=agreed, d=made)
            .values_list("a", "d")[:limit]
        )
        return sum(a for a, _ in rows), sum(d for _, d in rows)
    totals = seats.aggregate(a=Sum(agreed), d=Sum(made))
    return int(totals["a"] or 0), int(totals["d"] or 0)


@dataclass(frozen=True)
class ReplayAccess:
    """Who is looking at a replay: their seat in the hand (or None) and staff.

    ``review_seats``: the seats whose review they may read — their own seat,
    both for staff, none for anyone else (a public replay shows no review).
    """

    record: HandRecord
    seat: int | None
    staff: bool

    @property
    def review_seats(self) -> list[int]:
        if self.staff:
            return [0, 1]
        return [self.seat] if self.seat is not None else []

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def access_replay(*, user: User | AnonymousUser, hand_id: int) -> ReplayAccess:
    """May ``user`` watch the replay of hand ``hand_id``?  Returns who they are.

    Nobody while the hand is played; after it (ended or annulled) its two
    players and staff, and anyone once a player made it public.

    Raises:
        Http404: no such hand, still being played, or not allowed (a
            hand's existence is not revealed).
    """
    record = HandRecord.objects.select_related("table").filter(pk=hand_id).first()
    if record is None or record.status == HandRecord.Status.LIVE:
        raise Http404("no such hand")
    staff = bool(user.is_staff)
    seat = record.seat_of(user.pk)
    if seat is None and not staff and not record.public:
        raise Http404("no such hand")
    return ReplayAccess(record=record, seat=seat, staff=staff)


def player_hands(
    *,
    user_id: int,
    ruleset: str | None = None,
    result: str | None = None,
    opponent: str | None = None,
    date_from: Any = None,
    date_to: Any = None,
) -> Any:
    """The user's hands, newest first, for "我的对局" (a ``HandSeat`` queryset).

    Filters: ``ruleset`` name, ``result`` (win / loss / draw / annulled),
    ``opponent`` (nickname, case-insensitive, a part is enough),
    ``date_from`` / ``date_to`` (dates, inclusive, by when the hand ended).
    Each row has its opponent's profile and the hand's status at hand.
    """
    rows = HandSeat.objects.filter(user_id=user_id).select_related(
        "opponent__profile", "hand"
    )
    if ruleset:
        rows = rows.filter(ruleset=ruleset)
    if result:
        rows = rows.filter(result=result)
    if opponent:
        rows = rows.filter(opponent__profile__nickname__icontains=opponent)
    if date_from:
        rows = rows.filter(ended__date__gte=date_from)
    if date_to:
        rows = rows.filter(ended__date__lte=date_to)
    return rows.order_by("-ended", "-id")


def live_events_hidden(*, user: User | AnonymousUser, status: str) -> bool:
    """True when ``user`` may not read a hand's private events now.

    While a hand is played (``status`` live) its private events (the deal,
    each draw, the causing actions) are the players' alone: staff see the
    redacted form the opponent sees, only a superuser the full log (and that
    view is audited, :func:`moderation.services.audit.audit_live_hand_view`).
    Once the hand has ended or been annulled, staff see everything (issue 11
    §5.7).
    """
    return status == HandRecord.Status.LIVE and not user.is_superuser


def events_as_seen(*, events: Any, user: User | AnonymousUser) -> Any:
    """``events`` (a HandEvent queryset) annotated with ``shown``: the payload
    ``user`` may read — a live hand's private events in their public
    (redacted) form unless ``user`` is a superuser (see
    :func:`live_events_hidden`)."""
    from django.db.models import JSONField

    if user.is_superuser:
        return events.annotate(shown=F("payload"))
    return events.annotate(
        shown=Case(
            When(
                hand__status=HandRecord.Status.LIVE,
                public__isnull=False,
                then=F("public"),
            ),
            default=F("payload"),
            output_field=JSONField(),
        )
    )
