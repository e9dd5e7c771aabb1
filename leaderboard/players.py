"""Player pages (``/players/<nickname>/``): everything a player's record says.

Reads only: the profile and level, ``PlayerStats`` per rule set, and
queries over ``games.HandSeat`` (rating history, fans of wins, head-to-head,
recent hands).  A fixed number of queries per page.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from django.db.models import Count, IntegerField, Q, Sum
from django.db.models.functions import Cast
from django.http import Http404

from accounts.models import Profile
from accounts.selectors import LevelProgress, level_progress
from games.models import COUNTED, HandSeat

from .models import OVERALL, PlayerStats
from .rating import is_provisional

RATING_POINTS = 200
"""Rated hands shown on the rating chart (the latest)."""
FAN_WINS = 2000
"""Latest wins whose fans are counted for the fan chart."""
TOP_FANS = 8
OPPONENTS = 5
RECENT = 20


@cache
def fan_names() -> dict[str, tuple[str, str]]:
    """Fan id → (Chinese, English) name, over every rule set's fan table."""
    from games.rules.rulesets import NAMES, get

    names: dict[str, tuple[str, str]] = {}
    for rs in NAMES:
        for fan in get(rs).fans:
            names.setdefault(fan.id, (fan.zh, fan.en))
    return names


@dataclass(frozen=True)
class Opponent:
    """Head-to-head against one opponent: hands, wins, losses (the rest drew)."""

    user_id: int
    nickname: str
    is_bot: bool
    bot_level: str
    hands: int
    wins: int
    losses: int


@dataclass(frozen=True)
class PlayerPage:
    """What ``/players/<nickname>/`` shows; rates are fractions (None: no hands)."""

    profile: Profile
    progress: LevelProgress
    overall: PlayerStats | None
    by_ruleset: list[PlayerStats]
    rating_history: list[float]
    fans: list[tuple[str, str, int]]
    opponents: list[Opponent]
    recent: list[HandSeat]
    viewable: set[int]

    @property
    def provisional(self) -> bool:
        return self.overall is None or is_provisional(self.overall.deviation)

    def rate(self, part: str) -> float | None:
        """``wins`` / ``self_drawn`` / ``dealt_in`` per hand played (0..1)."""
        if self.overall is None or not self.overall.hands:
            return None
        return float(getattr(self.overall, part)) / self.overall.hands


def hand_visible(*, viewer: Any, seat: HandSeat) -> bool:
    """May ``viewer`` open this hand's replay?  Its two players and staff, and
    anyone once a player made it public.

    The same rule as ``games.selectors.access_replay`` (the replay page
    itself checks again).
    """
    if getattr(viewer, "is_staff", False) or seat.hand.public:
        return True
    uid = getattr(viewer, "pk", None)
    return uid is not None and uid in (seat.user_id, seat.opponent_id)


def player_page(*, nickname: str, viewer: Any) -> PlayerPage:
    """Gather the player page of ``nickname`` (ignoring case) for ``viewer``.

    Raises:
        Http404: no player has that nickname.
    """
    profile = (
        Profile.objects.select_related("user").filter(nickname__iexact=nickname).first()
    )
    if profile is None:
        raise Http404("no such player")
    user_id = profile.user_id
    stats = list(PlayerStats.objects.filter(user_id=user_id).order_by("-hands"))
    overall = next((s for s in stats if s.ruleset == OVERALL), None)
    by_ruleset = [s for s in stats if s.ruleset != OVERALL]
    # rating_after__isnull=False: floats, whatever the column's type says
    history = cast(
        list[float],
        list(
            HandSeat.objects.filter(user_id=user_id, rating_after__isnull=False)
            .order_by("-ended", "-id")
            .values_list("rating_after", flat=True)[:RATING_POINTS]
        )[::-1],
    )
    counter: Counter[str] = Counter()
    for fans in (
        HandSeat.objects.filter(COUNTED, user_id=user_id, won=True)
        .order_by("-ended")
        .values_list("fans", flat=True)[:FAN_WINS]
    ):
        counter.update(fans or [])
    names = fan_names()
    fans = [
        (*names.get(fid, (fid, fid)), n) for fid, n in counter.most_common(TOP_FANS)
    ]
    played = HandSeat.objects.filter(COUNTED, user_id=user_id)
    heads = (
        played.values(
            "opponent_id",
            "opponent__profile__nickname",
            "opponent__profile__is_bot",
            "opponent__profile__bot_level",
        )
        .annotate(
            hands=Count("id"),
            wins=Sum(Cast("won", IntegerField())),
            losses=Count("id", filter=Q(result=HandSeat.Result.LOSS)),
        )
        .order_by("-hands", "opponent_id")[:OPPONENTS]
    )
    opponents = [
        Opponent(
            user_id=h["opponent_id"],
            nickname=h["opponent__profile__nickname"] or "",
            is_bot=bool(h["opponent__profile__is_bot"]),
            bot_level=h["opponent__profile__bot_level"] or "",
            hands=h["hands"],
            wins=int(h["wins"] or 0),
            losses=h["losses"],
        )
        for h in heads
    ]
    recent = list(
        HandSeat.objects.filter(user_id=user_id)
        .select_related("opponent__profile", "hand")
        .order_by("-ended", "-id")[:RECENT]
    )
    return PlayerPage(
        profile=profile,
        progress=level_progress(points=profile.rating_points),
        overall=overall,
        by_ruleset=by_ruleset,
        rating_history=history,
        fans=fans,
        opponents=opponents,
        recent=recent,
        viewable={s.hand_id for s in recent if hand_visible(viewer=viewer, seat=s)},
    )
