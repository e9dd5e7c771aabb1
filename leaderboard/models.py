"""Leaderboard models: per-player counters and ratings, and dated board snapshots.

:class:`PlayerStats` holds, per player and rule set (``ruleset=""``: all rule
sets together), the counters the all-time boards sort by and the skill
rating.  The settlement keeps them current (``games.services.settlement``,
under the players' profile locks); the nightly recalculation
(``leaderboard.recalc``) rebuilds the counters from ``games.HandSeat`` and
repairs any drift.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Value, When
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

OVERALL = ""
"""``PlayerStats.ruleset`` of the row that sums every rule set."""


def _ruleset_choices() -> list[tuple[str, object]]:
    from games.models import RULESET_CHOICES

    return [(OVERALL, _("全部规则")), *RULESET_CHOICES]


class PlayerStats(models.Model):
    """One player's counters and rating in one rule set (or overall, ``""``).

    Hand counts include practice hands (人机练习: they move no coins or
    points but are played and rated); annulled hands count nowhere.
    ``points`` / ``coins`` are what the player's hands moved (the overall
    balances, with grants and corrections, are ``Profile.rating_points`` /
    ``coins``).  ``fan_sum`` adds the 总番数 of the player's wins (average fan
    of wins = fan_sum / wins); ``max_fan`` is the biggest.  ``rating`` and
    ``deviation`` are the openskill μ and σ on a Glicko-like scale
    (``leaderboard.rating``); ``rated_hands`` counts the rated hands.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="stats",
        verbose_name=_("玩家"),
        # the unique (user, ruleset) index serves lookups by user
        db_index=False,
    )
    ruleset = models.CharField(
        _("规则"),
        max_length=16,
        blank=True,
        default=OVERALL,
        choices=_ruleset_choices(),
    )
    hands = models.PositiveIntegerField(_("对局数"), default=0)
    wins = models.PositiveIntegerField(_("和牌数"), default=0)
    self_drawn = models.PositiveIntegerField(_("自摸数"), default=0)
    dealt_in = models.PositiveIntegerField(_("放炮数"), default=0)
    draws = models.PositiveIntegerField(_("流局数"), default=0)
    points = models.BigIntegerField(_("实力积分"), default=0)
    coins = models.BigIntegerField(_("游戏币"), default=0)
    fan_sum = models.BigIntegerField(_("和牌总番数"), default=0)
    max_fan = models.PositiveIntegerField(_("最大番"), default=0)
    rating = models.FloatField(_("等级分"), default=1500.0)
    deviation = models.FloatField(_("偏差"), default=350.0)
    rated_hands = models.PositiveIntegerField(_("计分局数"), default=0)
    last_played = models.DateTimeField(_("最近对局"), null=True, blank=True)
    win_rate = models.GeneratedField(
        expression=Case(
            When(hands=0, then=Value(0.0)),
            default=Cast(F("wins"), models.FloatField())
            / Cast(F("hands"), models.FloatField()),
            output_field=models.FloatField(),
        ),
        output_field=models.FloatField(),
        db_persist=True,
        verbose_name=_("胜率"),
    )

    class Meta:
        verbose_name = _("玩家统计")
        verbose_name_plural = _("玩家统计")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "ruleset"], name="unique_stats_user_ruleset"
            )
        ]
        # one per all-time board, in the board's own order (value best
        # first, ties to the lower user id: ``leaderboard.selectors``), so a
        # page is an index scan that stops after the page's rows.  The
        # overall 实力积分 and 游戏币 boards sort the balances
        # (``accounts.Profile`` indexes), so those two skip the overall rows.
        indexes = [
            models.Index(
                fields=["ruleset", "-points", "user"],
                name="stats_points",
                condition=~models.Q(ruleset=OVERALL),
            ),
            models.Index(
                fields=["ruleset", "-coins", "user"],
                name="stats_coins",
                condition=~models.Q(ruleset=OVERALL),
            ),
            models.Index(fields=["ruleset", "-rating", "user"], name="stats_rating"),
            models.Index(fields=["ruleset", "-win_rate", "user"], name="stats_winrate"),
            models.Index(fields=["ruleset", "-max_fan", "user"], name="stats_maxfan"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.ruleset or '*'}"

    @property
    def average_fan(self) -> float | None:
        """Mean 总番数 of the player's wins; None before the first win."""
        return self.fan_sum / self.wins if self.wins else None


BOARD_KINDS = ("points", "coins", "rating", "winrate", "maxfan")
"""The five boards (``leaderboard.selectors.BOARDS``); each has a rank and a
value column in :class:`BoardSnapshot`."""


class BoardSnapshot(models.Model):
    """Where one player stood on every board of one period and rule set, on one date.

    Written by the nightly recalculation (``leaderboard.recalc``): for date
    ``date``, the boards of ``period`` × ``ruleset`` (``""`` = all rule sets)
    as they stood at the end of that day.  One row per player on any of the
    five boards, with ``<board>_rank`` / ``<board>_value`` per board (None:
    not on that board) — a fifth of the rows one row per board would take.
    The live boards compare with the latest snapshot before today to show
    rank movement (▲3 / ▼1 / new).  A rerun for the same date leaves the
    same rows.
    """

    date = models.DateField(_("日期"))
    period = models.CharField(_("周期"), max_length=8)
    ruleset = models.CharField(
        _("规则"),
        max_length=16,
        blank=True,
        default=OVERALL,
        choices=_ruleset_choices(),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("玩家"),
        # derived rows, about a million a night, written from the users'
        # own rows: no foreign-key check per row (deferred to the commit,
        # it cost more than the insert) and no index of its own (the unique
        # one below serves every lookup); a player with a ledger cannot be
        # deleted (accounts.LedgerEntry.user is PROTECT)
        db_constraint=False,
        db_index=False,
    )
    points_rank = models.PositiveIntegerField(_("实力积分名次"), null=True)
    points_value = models.FloatField(_("实力积分"), null=True)
    coins_rank = models.PositiveIntegerField(_("游戏币名次"), null=True)
    coins_value = models.FloatField(_("游戏币"), null=True)
    rating_rank = models.PositiveIntegerField(_("等级分名次"), null=True)
    rating_value = models.FloatField(_("等级分"), null=True)
    winrate_rank = models.PositiveIntegerField(_("胜率名次"), null=True)
    winrate_value = models.FloatField(_("胜率"), null=True)
    maxfan_rank = models.PositiveIntegerField(_("最大番名次"), null=True)
    maxfan_value = models.FloatField(_("最大番"), null=True)

    class Meta:
        verbose_name = _("榜单快照")
        verbose_name_plural = _("榜单快照")
        constraints = [
            # also the lookup index: a board's latest date, a page's players
            models.UniqueConstraint(
                fields=["period", "ruleset", "date", "user"],
                name="unique_board_snapshot",
            )
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.period}/{self.ruleset or '*'} {self.user_id}"
