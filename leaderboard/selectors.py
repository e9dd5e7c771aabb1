"""Leaderboard reads: the boards (排行榜), a player's own row, rank movement.

A board is (``board``, ``period``, ``ruleset``): by 实力积分 (``points``, with
levels), 游戏币 (``coins``), skill rating (``rating``), win rate
(``winrate``, at least ``MAHJONG_BOARD_MIN_HANDS`` hands) or biggest hand
(``maxfan``); over today, this week, this month or all time; in one rule set
or all (``ruleset=""``).

* All-time boards sort ``PlayerStats`` rows (indexed per rule set and
  board); the overall 实力积分 and 游戏币 boards sort the balances
  themselves (``Profile.rating_points`` / ``coins``, indexed).
* Period boards aggregate ``HandSeat`` rows in the period (indexed by
  ``ended`` and by ``ruleset, ended``): the points and coins the hands
  moved, win rate, biggest win.  The rating board of a period ranks current
  ratings of the players active in it.

Every board is filtered by :func:`leaderboard.eligibility.board_eligible`,
keeps only players active in the period (at least one hand), and the
rating board leaves out provisional ratings (σ ≥ 110).  One query builds a
page (plus the paginator's count, the movement lookup and the player's own
row: a constant number, tested).  The nightly snapshot ranks the very same
query (``leaderboard.recalc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    Exists,
    F,
    FilteredRelation,
    FloatField,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import Expression
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import GreaterThan, GreaterThanOrEqual

from accounts.models import Level, Profile, User
from accounts.selectors import level_scheme_active
from games.models import COUNTED, HandSeat

from .eligibility import board_eligible
from .models import BOARD_KINDS, OVERALL, BoardSnapshot, PlayerStats
from .periods import PERIODS, local_today, period_range
from .rating import PROVISIONAL_DEVIATION

BOARDS = BOARD_KINDS


@dataclass(frozen=True, slots=True)
class BoardKey:
    """Which board: kind, period and rule set (``""`` = all rule sets).

    Raises ``ValueError`` (from :func:`board_key`) for unknown parts.
    """

    board: str = "points"
    period: str = "all"
    ruleset: str = OVERALL


def board_key(
    *, board: str | None, period: str | None, ruleset: str | None
) -> BoardKey:
    """Parse a board's parts, defaulting missing ones (points, all time, overall).

    Raises:
        ValueError: an unknown board, period or rule set.
    """
    from games.rules.rulesets import NAMES

    key = BoardKey(board or "points", period or "all", ruleset or OVERALL)
    if key.board not in BOARDS:
        raise ValueError(f"unknown board {key.board!r}")
    if key.period not in PERIODS:
        raise ValueError(f"unknown period {key.period!r}")
    if key.ruleset and key.ruleset not in NAMES:
        raise ValueError(f"unknown rule set {key.ruleset!r}")
    return key


def board_key_from_query(
    *, board: str | None, period: str | None, ruleset: str | None
) -> BoardKey:
    """The board a page's query asks for: each unknown or malformed part falls
    back to its default (points, all time, all rule sets), as a link from an
    old page or a hand-edited URL should still show a board, not a 404."""
    from games.rules.rulesets import NAMES

    default = BoardKey()
    return BoardKey(
        board if board in BOARDS else default.board,
        period if period in PERIODS else default.period,
        ruleset if ruleset in NAMES else default.ruleset,
    )


_Cond = Q | Expression | None
"""A board's condition: a filter on the row (all time) or on its aggregates
(periods); None when every active player is on it."""


def _stats_rows(ruleset: str) -> QuerySet[PlayerStats]:
    return PlayerStats.objects.filter(board_eligible(), ruleset=ruleset, hands__gt=0)


def _stats_value(board: str, ruleset: str, prefix: str = "") -> tuple[_Cond, Any]:
    """All-time board ``board``: (who is on it, the value it sorts by).

    ``prefix`` is a lookup path to the PlayerStats row (rating only).
    """
    overall = ruleset == OVERALL
    if board == "points":
        return None, F("user__profile__rating_points") if overall else F("points")
    if board == "coins":
        return None, F("user__profile__coins") if overall else F("coins")
    if board == "rating":
        return Q(**{f"{prefix}deviation__lt": PROVISIONAL_DEVIATION}), F(
            f"{prefix}rating"
        )
    if board == "winrate":
        return Q(hands__gte=settings.MAHJONG_BOARD_MIN_HANDS), F("win_rate")
    return Q(max_fan__gt=0), F("max_fan")


def _stats_board(key: BoardKey) -> QuerySet[Any]:
    cond, value = _stats_value(key.board, key.ruleset)
    rows = _stats_rows(key.ruleset)
    if cond is not None:
        rows = rows.filter(cond)
    # sorted by the stored column itself (``sort``), so its index serves the
    # order (a cast to float in ORDER BY would make PostgreSQL sort every
    # row); the float it shows is the same order (exact below 2**53)
    return (
        rows.values("user_id", "hands", "wins", "deviation")
        .alias(sort=value)
        .annotate(value=Cast(value, FloatField()))
    )


def _hands_in(key: BoardKey, day: date) -> QuerySet[HandSeat]:
    start, end = period_range(period=key.period, day=day)
    # annulled and reversed hands count on no board (games.models.COUNTED)
    seats = HandSeat.objects.filter(COUNTED, ended__lt=end)
    if start is not None:
        seats = seats.filter(ended__gte=start)
    if key.ruleset:
        seats = seats.filter(ruleset=key.ruleset)
    return seats


def _period_seats(key: BoardKey, day: date) -> QuerySet[HandSeat]:
    """The period's hands of eligible players."""
    # eligibility as a semi-join on the players, so the aggregate groups by
    # user id alone (no join per hand row)
    eligible = User.objects.filter(board_eligible(prefix="")).values("pk")
    return _hands_in(key, day).filter(user_id__in=eligible)


def _per_player(seats: QuerySet[HandSeat]) -> QuerySet[Any]:
    return seats.values("user_id").annotate(
        hands=Count("id"),
        wins=Sum(Cast("won", IntegerField())),
        deviation=Value(None, FloatField()),
    )


def _period_value(board: str) -> tuple[_Cond, Any]:
    """Period board ``board`` (not rating): (who is on it, the value), both
    over the aggregates of :func:`_period_rows`."""
    big = BigIntegerField()
    if board == "points":
        kept = Case(
            When(reversed=True, then=Value(0)), default=F("points"), output_field=big
        )
        return None, Cast(Sum(kept), FloatField())
    if board == "coins":
        kept = Case(
            When(reversed=True, then=Value(0)), default=F("coins"), output_field=big
        )
        return None, Cast(Sum(kept), FloatField())
    if board == "winrate":
        wins = Sum(Cast("won", IntegerField()))
        return (
            GreaterThanOrEqual(Count("id"), settings.MAHJONG_BOARD_MIN_HANDS),
            Cast(wins, FloatField()) / Cast(Count("id"), FloatField()),
        )
    value = Cast(Coalesce(Max("fan", filter=Q(won=True)), 0), FloatField())
    return GreaterThan(value, 0), value


def _period_board(key: BoardKey, day: date) -> QuerySet[Any]:
    if key.board == "rating":
        active = _hands_in(key, day).filter(user_id=OuterRef("user_id"))
        return (
            _stats_board(BoardKey("rating", "all", key.ruleset))
            .filter(Exists(active))
            .order_by()
        )
    cond, value = _period_value(key.board)
    rows = _per_player(_period_seats(key, day)).annotate(value=value)
    rows = rows if cond is None else rows.filter(cond)
    return rows.alias(sort=F("value"))


def _on_board(cond: _Cond, value: Any) -> Any:
    value = Cast(value, FloatField())
    return value if cond is None else Case(When(cond, then=value), default=None)


def board_values(*, period: str, ruleset: str, day: date) -> QuerySet[Any]:
    """Every board of ``period`` and ``ruleset`` at once, one row per player.

    Dicts with ``user_id`` and, per board, ``v_points``, ``v_coins``,
    ``v_rating``, ``v_winrate``, ``v_maxfan``: the value that board sorts
    the player by (a float), or None when the player is not on it.  The
    same conditions and values as :func:`board_queryset` (each defined once
    above), so ranking the rows of one column by ``value DESC, user_id``
    gives that board; the nightly snapshot does that
    (``leaderboard.recalc``).  Unordered.
    """
    if period == "all":
        rows = _stats_rows(ruleset).values("user_id")
        return rows.annotate(
            **{f"v_{b}": _on_board(*_stats_value(b, ruleset)) for b in BOARDS}
        ).order_by()
    # the rating board of a period: the all-time rating rows of the players
    # active in it, joined per hand row (one PlayerStats row per player and
    # rule set) and taken with MAX, so the query groups by player alone
    seats = _period_seats(BoardKey("rating", period, ruleset), day).alias(
        rated=FilteredRelation("user__stats", condition=Q(user__stats__ruleset=ruleset))
    )
    cond, rating = _stats_value("rating", ruleset, prefix="rated__")
    on_board = Q(cond, rated__hands__gt=0)
    rows = _per_player(seats).annotate(
        **{f"v_{b}": _on_board(*_period_value(b)) for b in BOARDS if b != "rating"},
        v_rating=Max(_on_board(on_board, rating)),
    )
    return rows.values("user_id", *(f"v_{b}" for b in BOARDS)).order_by()


def board_queryset(*, key: BoardKey, day: date | None = None) -> QuerySet[Any]:
    """Every eligible row of board ``key``, best first, as dicts.

    Keys: ``user_id``, ``value`` (the sort value, a float: points, coins,
    rating μ, win rate 0..1 or fan), ``hands``, ``wins``, ``deviation``
    (rating boards).  Names and levels are looked up for the rows shown
    (:func:`board_page`).  Ties go to the lower user id (the earlier sign-up).
    ``day`` (server date, default today) places the period; the nightly
    snapshot of a date passes that date.  All-time boards are the current
    standings.
    """
    day = day or local_today()
    rows = _stats_board(key) if key.period == "all" else _period_board(key, day)
    return rows.order_by("-sort", "user_id")


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One ranked player on a board page.

    ``move`` is the change of rank since the previous snapshot (positive =
    up), None when the player was not on it (``new``) or there is no
    snapshot to compare with (``baseline`` is None on the page).
    """

    rank: int
    user_id: int
    nickname: str
    value: float
    hands: int
    wins: int
    level: Level | None
    move: int | None
    new: bool
    is_me: bool


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of a board, the signed-in player's row and the snapshot compared."""

    key: BoardKey
    page: Page
    rows: list[BoardRow]
    me: BoardRow | None
    me_on_page: bool
    baseline: date | None


def _levels() -> list[Level]:
    scheme = level_scheme_active()
    return list(scheme.levels.order_by("-min_points")) if scheme else []


def _level(levels: list[Level], points: int) -> Level | None:
    for level in levels:
        if level.min_points <= points:
            return level
    return levels[-1] if levels else None


def _baseline(key: BoardKey, today: date) -> date | None:
    """The latest snapshot date before ``today`` with rows on board ``key``."""
    latest = (
        BoardSnapshot.objects.filter(
            period=key.period,
            ruleset=key.ruleset,
            date__lt=today,
            **{f"{key.board}_rank__isnull": False},
        )
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )
    return latest


def snapshot_ranks(
    *, key: BoardKey, day: date, user_ids: list[int] | None = None
) -> dict[int, int]:
    """Board ``key`` as the nightly snapshot of ``day`` stored it: user id → rank.

    ``user_ids`` limits it to those players (the rows of a page).  Empty when
    there is no snapshot of that date.
    """
    rows = BoardSnapshot.objects.filter(
        period=key.period,
        ruleset=key.ruleset,
        date=day,
        **{f"{key.board}_rank__isnull": False},
    )
    if user_ids is not None:
        rows = rows.filter(user_id__in=user_ids)
    return dict(rows.values_list("user_id", f"{key.board}_rank"))


def _rank_of(rows: QuerySet[Any], user_id: int) -> tuple[int, dict[str, Any]] | None:
    mine = rows.annotate(sort_value=F("sort")).filter(user_id=user_id).first()
    if mine is None:
        return None
    value = mine.pop("sort_value")
    ahead = rows.filter(Q(sort__gt=value) | Q(sort=value, user_id__lt=user_id))
    return ahead.count() + 1, mine


def board_page(
    *,
    key: BoardKey,
    page_number: int | str | None,
    per_page: int,
    user_id: int | None = None,
    day: date | None = None,
) -> BoardPage:
    """Return one page of board ``key`` with movement and the player's own row.

    ``user_id`` (the signed-in player) gets their row even when it is on
    another page (``me``; ``me_on_page`` tells).  Movement compares with the
    latest snapshot dated before ``day`` (default today).  A constant number
    of queries, whatever the page size.
    """
    today = day or local_today()
    rows = board_queryset(key=key, day=today)
    page = Paginator(rows, per_page).get_page(page_number)
    found = list(page.object_list)
    mine = _rank_of(rows, user_id) if user_id is not None else None
    baseline = _baseline(key, today)
    ids = [r["user_id"] for r in found] + ([user_id] if mine else [])
    before: dict[int, int] = {}
    if baseline is not None and ids:
        before = snapshot_ranks(key=key, day=baseline, user_ids=ids)
    levels = _levels()
    names = {
        uid: (nickname, points)
        for uid, nickname, points in Profile.objects.filter(
            user_id__in=ids
        ).values_list("user_id", "nickname", "rating_points")
    }

    def row(rank: int, r: dict[str, Any]) -> BoardRow:
        old = before.get(r["user_id"])
        nickname, points = names.get(r["user_id"], ("", 0))
        return BoardRow(
            rank=rank,
            user_id=r["user_id"],
            nickname=nickname,
            value=float(r["value"] or 0),
            hands=int(r["hands"] or 0),
            wins=int(r["wins"] or 0),
            level=_level(levels, int(points or 0)),
            move=(old - rank) if old is not None else None,
            new=baseline is not None and old is None,
            is_me=r["user_id"] == user_id,
        )

    out = [row(page.start_index() + i, r) for i, r in enumerate(found)]
    me = row(*mine) if mine else None
    return BoardPage(
        key=key,
        page=page,
        rows=out,
        me=me,
        me_on_page=any(r.is_me for r in out),
        baseline=baseline,
    )
