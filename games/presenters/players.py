"""The two players' plates: profile, level and 游戏币 of each seat, and the
opponent's disconnect notice (``players``, ``away`` in games.presenters.context).
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from typing import Any

from cachetools import LRUCache, TTLCache
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext

from accounts.models import Profile
from accounts.selectors import level_scheme_active
from games.display.names import bot_name
from games.models import HandRecord, Table

from .seats import WIND_ZH

LEVELS_TTL = 60.0
"""Seconds a process keeps the level scheme before reading it again."""

# Bound: one entry (the active scheme's levels: min points, name, badge URL)
# for LEVELS_TTL seconds.  Why: every plate of every frame places a player
# on the scheme, which changes rarely.  A lock: Daphne renders frames from
# several sync threads, and cachetools' caches are not thread-safe.
_LEVELS: TTLCache[str, tuple[tuple[int, str, str], ...]] = TTLCache(
    maxsize=1, ttl=LEVELS_TTL, timer=time.monotonic
)
_LEVELS_LOCK = threading.Lock()


def level_info(points: int) -> dict[str, Any] | None:
    """The active scheme's level for ``points`` and the progress to the next.

    As ``accounts.selectors.level_progress``, from a per-process copy of the
    levels refreshed every minute (frames are rendered after every event and
    the scheme changes rarely).  Shape: ``{name, badge (static URL), fraction
    0..1, next (name or None), to_next (points or None)}``; None without a
    scheme.
    """
    with _LEVELS_LOCK:
        levels = _LEVELS.get("levels")
    if levels is None:
        from django.templatetags.static import static

        from accounts.badges import badge_path

        scheme = level_scheme_active()
        levels = (
            tuple(
                (lv.min_points, lv.name, static(badge_path(lv)))
                for lv in scheme.levels.select_related("scheme").order_by("min_points")
            )
            if scheme
            else ()
        )
        with _LEVELS_LOCK:
            _LEVELS["levels"] = levels
    if not levels:
        return None
    return dict(_placed(levels, points))


# Bound: 1,024 (levels, points) pairs: the players seated in a process and
# the points they had before a settlement.  Why: every frame places both
# plates' players on the scheme (two calls per frame, the same answer while
# a hand runs).  lru_cache locks its own bookkeeping (Daphne's sync threads);
# callers get a copy.
@lru_cache(maxsize=1024)
def _placed(levels: tuple[tuple[int, str, str], ...], points: int) -> dict[str, Any]:
    """:func:`level_info` of ``points`` on ``levels`` (not empty)."""
    i = 0
    for j, (min_points, _name, _badge) in enumerate(levels):
        if points >= min_points:
            i = j
    min_points, name, badge = levels[i]
    nxt = levels[i + 1] if i + 1 < len(levels) else None
    fraction = 1.0
    if nxt is not None:
        span = nxt[0] - min_points
        fraction = min(max(points - min_points, 0), span) / span
    return {
        "name": name,
        "badge": badge,
        "fraction": fraction,
        "next": nxt[1] if nxt else None,
        "to_next": nxt[0] - points if nxt else None,
    }


# Bound: 4,096 live tables' seat profiles (per process).  Why: without it
# every frame reads both profiles with their ratings (a query per frame).
# A lock: Daphne renders frames from several sync threads, and cachetools'
# caches are not thread-safe.
_PROFILES: LRUCache[tuple[Any, ...], dict[int, Profile]] = LRUCache(maxsize=4096)
_PROFILES_LOCK = threading.Lock()


def seat_profiles(table: Table) -> dict[int, Profile]:
    """The seated players' profiles, from a per-process copy while a hand runs.

    Frames are rendered after every event, but what they show of a profile
    (nickname, level, 游戏币) changes only when a hand is settled — or through
    the profile page or admin, which shows at the next hand.  So the copy is
    keyed by the table's seats, its hand and that hand's status and is read
    again whenever any of them changes (a hand starts, ends or is annulled).
    """
    record = table.hand if table.hand_id is not None else None
    key = (
        table.pk,
        table.seat0_id,
        table.seat1_id,
        table.hand_id,
        record.status if record is not None else None,
        table.status,
    )
    live = record is not None and record.status == HandRecord.Status.LIVE
    if live:
        with _PROFILES_LOCK:
            cached = _PROFILES.get(key)
        if cached is not None:
            return cached
    from leaderboard.models import OVERALL, PlayerStats

    ids = [u for u in (table.seat0_id, table.seat1_id) if u is not None]
    stats = PlayerStats.objects.filter(user_id=OuterRef("user_id"), ruleset=OVERALL)
    found: dict[int, Profile] = {
        p.user_id: p
        for p in Profile.objects.filter(user_id__in=ids).annotate(
            skill=Subquery(stats.values("rating")[:1]),
            skill_deviation=Subquery(stats.values("deviation")[:1]),
        )
    }
    if live:
        with _PROFILES_LOCK:
            _PROFILES[key] = found
    return found


def clear_profile_cache() -> None:
    """Forget the per-process copies of profiles and of the level scheme
    (tests; after a bulk change): the next frame reads both again."""
    with _PROFILES_LOCK:
        _PROFILES.clear()
    with _LEVELS_LOCK:
        _LEVELS.clear()
    _placed.cache_clear()


def player(
    table: Table,
    seat: int,
    side: dict[str, Any] | None,
    profiles: dict[int, Profile] | None = None,
) -> dict[str, Any]:
    user_id = table.seat_user_id(seat)
    if profiles is None:
        profiles = seat_profiles(table)
    profile = profiles.get(user_id) if user_id is not None else None
    side = side or {}
    if profile is None:
        bot = not table.is_human(seat)
        # one name for the computer everywhere (lobby, records, seed_demo)
        nickname = bot_name(table.bot_level) if bot else gettext("空座位")
        level = balance = rating = info = skill = None
        provisional = True
    else:
        from leaderboard.rating import is_provisional

        bot = profile.is_bot or not table.is_human(seat)
        nickname = profile.nickname
        info = level_info(profile.rating_points)
        level = info["name"] if info else None
        balance, rating = profile.coins, profile.rating_points
        raw = getattr(profile, "skill", None)
        skill = round(raw) if raw is not None else None
        provisional = is_provisional(getattr(profile, "skill_deviation", None) or 350.0)
    wind = side.get("wind")
    return {
        "seat": seat,
        "nickname": nickname,
        "level": level,
        "level_info": info,
        "balance": balance,
        "rating": rating,
        "skill": skill,
        "provisional": provisional,
        "wind": wind,
        "wind_zh": WIND_ZH.get(wind or "", ""),
        "dealer": False,
        "is_bot": bot,
        "auto_play": bool(side.get("auto_play")),
        # suspended or banned during the hand: 托管 finishes it, never winning
        "removed": table.status == Table.Status.PLAYING
        and table.closed_reason == "removed"
        and table.closed_seat == seat,
        "ready": bool(side.get("ready")),
        "open_hand": bool(side.get("open_hand")),
        "start_double": bool(side.get("start_double")),
        "deal_double": bool(side.get("deal_double")),
        "win_doubles": int(side.get("win_doubles") or 0),
        "swaps": int(side.get("swaps") or 0),
    }


def opponent_away(table: Table, seat: int, now: float) -> dict[str, Any] | None:
    """The opponent's disconnect as ``seat`` sees it (context key ``away``).

    From the row's ``away_since`` (set when the opponent's last socket closed
    or its presence expired, cleared when they are back): the grace ends
    ``MAHJONG_DISCONNECT_GRACE`` seconds after it, then 托管 plays for them
    (seed 000 异常处理).
    """
    other = 1 - seat
    if table.status not in (Table.Status.PLAYING, Table.Status.SETTLING):
        return None
    if not table.is_human(other):
        return None
    away = list(table.away_since or []) + [None, None]
    since = away[other]
    if since is None:
        return None
    until = float(since) + settings.MAHJONG_DISCONNECT_GRACE
    return {
        "since": int(float(since) * 1000),
        "until": int(until * 1000),
        "left": max(0, int(until - now + 0.999)),
    }
