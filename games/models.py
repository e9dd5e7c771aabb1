"""Game models: rooms, tables, matches, hands, their event logs and seats.

A hand is its seed plus its event log (:class:`HandEvent`); the engine's
:class:`~games.engine.hand.Hand` is rebuilt from them (``Hand.replay``).  The
:class:`Table` row is the lock that serialises every write to a table
(``select_for_update`` in ``games.services``); its ``seq`` mirrors the
current hand's last event so a scheduled timeout can tell whether it is
still due.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.rules.rulesets import DEFAULT as DEFAULT_RULESET
from games.rules.rulesets import NAMES as RULESET_NAMES
from games.rules.rulesets import get as get_ruleset


def ruleset_label(name: str) -> str:
    """A rule set's name in the active language (``erren`` → ``二人麻将``, or
    ``Two-Player Mahjong`` on English pages); the code itself if unknown."""
    try:
        rs = get_ruleset(name)
    except KeyError:
        return name
    return rs.en if (get_language() or "").lower().startswith("en") else rs.zh


RULESET_CHOICES = [(name, lazy(ruleset_label, str)(name)) for name in RULESET_NAMES]
"""Rule set choices labelled by name, not code (admin lists and filters)."""


class Room(models.Model):
    """A lobby room (场): 房间基数 (coins per fan), entry minimum, rule set.

    Set as data in the admin; the first three come from a data migration
    (新手场 10 / 初级场 100 / 高级场 1000, each with a minimum balance of 20×
    its stake so a player can pay a 20-fan loss — the erren minimum is 8 fan,
    most wins are 8–24).
    """

    name = models.CharField(_("名称"), max_length=32, unique=True)
    stake = models.PositiveIntegerField(_("房间基数"), help_text=_("每番的游戏币。"))
    min_balance = models.PositiveBigIntegerField(
        _("最低游戏币"), help_text=_("入场需要的最少游戏币。")
    )
    ruleset = models.CharField(
        _("规则"), max_length=16, choices=RULESET_CHOICES, default=DEFAULT_RULESET
    )
    active = models.BooleanField(_("开放"), default=True)
    order = models.PositiveSmallIntegerField(_("排序"), default=0)

    class Meta:
        verbose_name = _("房间")
        verbose_name_plural = _("房间")
        ordering = ["order", "stake", "id"]

    def __str__(self) -> str:
        return self.name


def _kept(value: Any) -> Any:
    """``value`` as :meth:`Table.changed_fields` compares against it: a copy
    of a list or dict (a JSON column changed in place must still count as
    changed), anything else as is (the other columns hold immutable values:
    int, str, bool, datetime, None; deep-copying those cost about 0.3 ms of
    CPU per move, issue 15)."""
    return _json_copy(value) if isinstance(value, list | dict) else value


def _json_copy(value: Any) -> Any:
    """A copy of a JSON value's lists and dicts (what ``copy.deepcopy`` gives
    for one, at a quarter of its CPU: a table is read for every move and
    frame, issue 15)."""
    kind = type(value)
    if kind is list:
        return [_json_copy(v) for v in value]
    if kind is dict:
        return {k: _json_copy(v) for k, v in value.items()}
    return value


class Table(models.Model):
    """A table (牌桌): two seats, the live hand and its timer.

    Seat 1 of a bot table is played by the server (``bot_level``); its user
    is None.  ``seq`` is the current hand's last event number (0 between
    hands).  ``deadline`` is when the open prompt times out; ``veil`` hides,
    from the seat that just discarded, whether the opponent had a claim
    (see ``games.services.veil``).  Who is connected is not stored here but
    in games.presence (TTL heartbeats per socket, issue 15); ``away_since``
    holds, per seat, when the seat was found away — its last websocket
    closed or its presence expired (epoch seconds; None while present) — and
    托管 starts only after a seat has been away for the whole grace period.
    A closed table keeps why (``closed_reason``) and, when a player's leaving
    closed it, whose seat (``closed_seat``), so the other player is told
    (issue 11 §4).
    """

    class Kind(models.TextChoices):
        QUICK = "quick", _("快速开始")
        BOT = "bot", _("人机练习")
        FRIEND = "friend", _("好友房")

    class Status(models.TextChoices):
        WAITING = "waiting", _("等待对手")
        PLAYING = "playing", _("对局中")
        SETTLING = "settling", _("结算中")
        CLOSED = "closed", _("已关闭")

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="tables", verbose_name=_("房间")
    )
    kind = models.CharField(_("类型"), max_length=8, choices=Kind.choices)
    status = models.CharField(
        _("状态"),
        max_length=10,
        choices=Status.choices,
        default=Status.WAITING,
        db_index=True,
    )
    invite_token = models.CharField(
        _("邀请码"), max_length=32, unique=True, null=True, blank=True
    )
    seat0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("座位0"),
    )
    seat1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("座位1"),
    )
    bot_level = models.CharField(_("机器人等级"), max_length=8, blank=True)
    match = models.ForeignKey(
        "Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("当前系列赛"),
    )
    hand = models.ForeignKey(
        "HandRecord",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("当前一盘"),
    )
    seq = models.PositiveIntegerField(_("序号"), default=0)
    deadline = models.DateTimeField(_("截止时间"), null=True, blank=True)
    settle_deadline = models.DateTimeField(_("结算倒计时"), null=True, blank=True)
    continue_votes = models.JSONField(_("继续"), default=list, blank=True)
    veil = models.JSONField(_("遮挡"), null=True, blank=True)
    away_since = models.JSONField(
        _("离开时间"),
        default=list,
        blank=True,
        help_text=_("每个座位最后一个连接断开的时间（epoch 秒），在座时为空。"),
    )
    closed_reason = models.CharField(
        _("关闭原因"),
        max_length=8,
        blank=True,
        help_text=_("left / regroup / timeout / balance / removed"),
    )
    closed_seat = models.PositiveSmallIntegerField(
        _("关闭者座位"),
        null=True,
        blank=True,
        help_text=_("离开或分组而关闭牌桌的座位；倒计时结束等为空。"),
    )
    created = models.DateTimeField(_("创建时间"), default=timezone.now)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("牌桌")
        verbose_name_plural = _("牌桌")
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["room", "status", "kind"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}"

    _loaded_values: dict[str, Any] | None = None
    """Each column's value as read (attname -> value), for :meth:`changed_fields`."""

    @classmethod
    def from_db(
        cls,
        db: str | None,
        field_names: Collection[str],
        values: Collection[Any],
        **kwargs: Any,
    ) -> Table:
        """Keep the values as read (Django's "customizing model loading").

        The JSON columns are copied: a list or dict changed in place must
        still count as changed.
        """
        instance = super().from_db(db, field_names, values, **kwargs)
        instance._loaded_values = {
            name: _kept(v)
            for name, v in zip(field_names, values, strict=True)
            if v is not models.DEFERRED
        }
        return instance

    def keep_saved_values(self) -> None:
        """Take every column's present value as the one read: call after
        the row was written (games.services.rows.table_save_changes), so
        :meth:`changed_fields` then names only what changes afterwards."""
        self._loaded_values = {
            f.attname: _kept(getattr(self, f.attname))
            for f in self._meta.concrete_fields
        }

    def changed_fields(self) -> list[str] | None:
        """The attnames whose value differs from the one read, or None for a
        row not read from the database (every field must be saved)."""
        loaded = self._loaded_values
        if loaded is None:
            return None
        return [
            f.attname
            for f in self._meta.concrete_fields
            if f.attname not in loaded or getattr(self, f.attname) != loaded[f.attname]
        ]

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    def seat_user_id(self, seat: int) -> int | None:
        return self.seat0_id if seat == 0 else self.seat1_id

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds (0/1), or None."""
        if user_id is None:
            return None
        if self.seat0_id == user_id:
            return 0
        if self.seat1_id == user_id:
            return 1
        return None

    def is_human(self, seat: int) -> bool:
        return not (self.is_bot and seat == 1)


class Due(models.Model):
    """A due time of a table: the one clock's row (games.services.clock).

    Every delayed step of a live table is one of these: the turn and claim
    timeouts, paced 托管, the disconnect grace, the settlement countdown and
    the bot offer.  The clock's loop claims due rows (``FOR UPDATE SKIP
    LOCKED``), locks the table and acts only if the table is still at
    ``hand`` and ``seq`` (when set), then deletes the row.  A table has at
    most one row of each kind except ``seat_away`` (one per absence).
    """

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("超时")
        AUTO_STEP = "auto_step", _("托管节奏")
        SEAT_AWAY = "seat_away", _("断线宽限")
        SETTLE = "settle", _("结算倒计时")
        BOT_OFFER = "bot_offer", _("机器人邀请")

    # no index of its own: the (table, kind) index serves every lookup by
    # table, and a move's UPDATE of its row writes one index entry fewer
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("牌桌"),
        db_index=False,
    )
    kind = models.CharField(_("类型"), max_length=10, choices=Kind.choices)
    at = models.DateTimeField(_("到期时间"), db_index=True)
    hand = models.ForeignKey(
        "HandRecord",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("牌局"),
    )
    seq = models.PositiveIntegerField(
        _("序号"),
        null=True,
        blank=True,
        help_text=_("只在牌桌仍处于这个序号时执行；为空则不检查。"),
    )
    seat = models.PositiveSmallIntegerField(_("座位"), null=True, blank=True)

    class Meta:
        verbose_name = _("到期任务")
        verbose_name_plural = _("到期任务")
        indexes = [models.Index(fields=["table", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.table_id} @{self.at:%H:%M:%S}"


class Match(models.Model):
    """A series (系列赛) between two players at one table: dealer and round.

    Dealer and round wind follow ``games.engine.hand.next_deal`` (seed 000:
    the winner deals next; a draw keeps the dealer).
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("牌桌")
    )
    seat0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name=_("座位0"),
    )
    seat1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("座位1"),
    )
    hands_played = models.PositiveIntegerField(_("盘数"), default=0)
    wins = models.JSONField(_("胜局"), default=list)
    coins = models.JSONField(_("游戏币变化"), default=list)
    dealer = models.PositiveSmallIntegerField(_("庄家"), default=0)
    round_wind = models.CharField(_("圈风"), max_length=2, default="1z")
    round_starter = models.PositiveSmallIntegerField(_("首庄"), default=0)
    started = models.DateTimeField(_("开始"), default=timezone.now)
    ended = models.DateTimeField(_("结束"), null=True, blank=True)

    class Meta:
        verbose_name = _("系列赛")
        verbose_name_plural = _("系列赛")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"#{self.pk} ({self.hands_played})"


class HandRecord(models.Model):
    """One hand (盘): rule set, seed commitment, result and settlement.

    ``seed`` stays empty until the hand has ended (provably fair: the
    commitment is public from the first event).  ``settled`` is the
    exactly-once guard of the settlement.  ``public``: one of its players
    made the replay public (anyone with the link may watch it; see
    ``games.selectors.access_replay``).
    """

    class Status(models.TextChoices):
        LIVE = "live", _("进行中")
        ENDED = "ended", _("已结束")
        ANNULLED = "annulled", _("已作废")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("牌桌")
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        related_name="hands",
        null=True,
        blank=True,
        verbose_name=_("系列赛"),
    )
    number = models.PositiveIntegerField(_("第几盘"), default=1)
    seat0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name=_("座位0"),
    )
    seat1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("座位1"),
    )
    ruleset = models.CharField(_("规则"), max_length=16, choices=RULESET_CHOICES)
    stake = models.PositiveIntegerField(_("房间基数"))
    practice = models.BooleanField(
        _("练习"), default=False, help_text=_("人机练习：不计游戏币和实力积分。")
    )
    commitment = models.CharField(_("种子承诺"), max_length=64)
    seed = models.CharField(
        _("种子"), max_length=64, blank=True, help_text=_("结束后公开。")
    )
    secret_seed = models.CharField(_("内部种子"), max_length=64, editable=False)
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.LIVE
    )
    result = models.JSONField(_("结果"), null=True, blank=True)
    settlement = models.JSONField(_("结算"), null=True, blank=True)
    settled = models.BooleanField(_("已结算"), default=False)
    public = models.BooleanField(
        _("公开回放"),
        default=False,
        help_text=_("玩家公开后，任何人都可以通过链接查看回放。"),
    )
    started = models.DateTimeField(_("开始"), default=timezone.now, db_index=True)
    ended = models.DateTimeField(_("结束"), null=True, blank=True)

    class Meta:
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.ruleset}"

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        if self.seat0_id == user_id:
            return 0
        if self.seat1_id == user_id:
            return 1
        return None


class HandEvent(models.Model):
    """One entry of a hand's log, exactly as the engine emitted it.

    ``payload`` is the full form, ``public`` the redacted one for seats
    outside ``visible_to`` (None: the payload is public), ``action`` the
    JSON of the causing action (server only).
    """

    # no index of its own: unique_hand_seq (hand, seq) serves every lookup by
    # hand, and a move inserts its rows into one index fewer (issue 15)
    hand = models.ForeignKey(
        HandRecord, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField(_("序号"))
    kind = models.CharField(_("类型"), max_length=24)
    seat = models.PositiveSmallIntegerField(_("座位"), null=True, blank=True)
    payload = models.JSONField(_("内容"))
    public = models.JSONField(_("公开内容"), null=True, blank=True)
    visible_to = models.JSONField(_("可见座位"), default=list)
    at = models.FloatField(_("时间"))
    action = models.JSONField(_("动作"), null=True, blank=True)

    class Meta:
        verbose_name = _("牌局事件")
        verbose_name_plural = _("牌局事件")
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="unique_hand_seq")
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}:{self.seq} {self.kind}"


class HandSnapshot(models.Model):
    """The state of a hand at ``seq``: one row per hand, server only.

    ``data`` is :func:`games.engine.snapshot.hand_to_snapshot` (the wall, both
    hands and the seed: never sent to a browser), ``events`` the recent
    events up to ``seq`` (:func:`games.engine.snapshot.recent_events`: from
    the one before the last discard).  Written with the events of
    every move in the move's transaction under the table's row lock, so it is
    always the state after the hand's last logged event; every action and
    frame loads it instead of replaying the log (games.services.hands).  The
    log stays the truth: a snapshot that is missing, of another format or
    unequal to the replayed log is rebuilt from it
    (games.services.hands.check_snapshot, run by crash recovery).
    """

    hand = models.OneToOneField(
        HandRecord,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="snapshot",
    )
    seq = models.PositiveIntegerField(_("序号"))
    data = models.JSONField(_("内容"))
    # the recent events up to ``seq`` (games.engine.snapshot.recent_events,
    # as events_to_rows), a copy of the last HandEvent rows kept here so that
    # a frame loads its hand in one read (frames and the veil read them); the
    # whole log stays in the HandEvent rows (benchmarks/bench_action.py)
    events = models.JSONField(_("牌局事件"), default=list)
    # the hand before its latest 加杠 ({"data", "events"} as above) while that
    # kong's ROB window may still be veiled from its maker
    # (games.services.veil): the maker's frame shows that state, loaded from
    # here instead of replaying the log (games.services.hands.store_hand)
    rob_base = models.JSONField(_("抢杠前状态"), null=True, blank=True)

    class Meta:
        verbose_name = _("牌局快照")
        verbose_name_plural = _("牌局快照")

    def __str__(self) -> str:
        return f"{self.hand_id}@{self.seq}"


class HandSeat(models.Model):
    """One player's part in one hand: a row per player per hand.

    Written by the settlement (``games.services.settlement``) in the hand's
    transaction, for both seats (the bot's seat too: its account is the
    bot of that level).  Every board, statistic and player page is a query
    over these rows, and the nightly recalculation rebuilds the stored
    counters (``leaderboard.PlayerStats``) from them.

    ``result`` is win / loss / draw (流局) / annulled (系统断线).  ``fan`` and
    ``multiplier`` are the hand's 总番数 and 倍数 (the same for both seats;
    0 and 1 when nobody won); ``fans`` the winner's fan ids.  ``coins`` and
    ``points`` are what the seat's balances moved (the ledger holds the
    entries); ``rating_*`` the overall skill rating before and after (None
    when the hand was not rated: 流局, annulled), ``ruleset_rating_after``
    the rating within the rule set.  ``ending`` is how the seat ended the
    hand.  ``reversed``: a moderator undid the hand's coins and points.
    """

    class Result(models.TextChoices):
        WIN = "win", _("胜")
        LOSS = "loss", _("负")
        DRAW = "draw", _("流局")
        ANNULLED = "annulled", _("作废")

    class Ending(models.TextChoices):
        PLAYED = "played", _("打完")
        AUTO = "auto", _("断线托管")
        LEFT = "left", _("中途离开")

    hand = models.ForeignKey(
        HandRecord,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("牌局"),
    )
    seat = models.PositiveSmallIntegerField(_("座位"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="hand_seats",
        verbose_name=_("玩家"),
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("对手"),
    )
    ruleset = models.CharField(_("规则"), max_length=16, choices=RULESET_CHOICES)
    stake = models.PositiveIntegerField(_("房间基数"))
    practice = models.BooleanField(_("练习"), default=False)
    ended = models.DateTimeField(_("结束"))
    result = models.CharField(_("结果"), max_length=8, choices=Result.choices)
    won = models.BooleanField(_("和牌"), default=False)
    self_drawn = models.BooleanField(_("自摸"), default=False)
    dealt_in = models.BooleanField(_("放炮"), default=False)
    dealer = models.BooleanField(_("庄家"), default=False)
    fan = models.PositiveIntegerField(_("总番数"), default=0)
    multiplier = models.PositiveIntegerField(_("倍数"), default=1)
    fans = models.JSONField(_("番种"), default=list, blank=True)
    coins = models.BigIntegerField(_("游戏币变化"), default=0)
    points = models.BigIntegerField(_("实力积分变化"), default=0)
    rating_before = models.FloatField(_("等级分（前）"), null=True, blank=True)
    rating_after = models.FloatField(_("等级分（后）"), null=True, blank=True)
    deviation_after = models.FloatField(_("偏差（后）"), null=True, blank=True)
    ruleset_rating_after = models.FloatField(_("规则等级分"), null=True, blank=True)
    ruleset_deviation_after = models.FloatField(_("规则偏差"), null=True, blank=True)
    ending = models.CharField(
        _("结束方式"), max_length=8, choices=Ending.choices, default=Ending.PLAYED
    )
    reversed = models.BooleanField(_("已冲正"), default=False)

    class Meta:
        verbose_name = _("玩家牌局")
        verbose_name_plural = _("玩家牌局")
        ordering = ["-ended", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="unique_hand_seat"),
        ]
        indexes = [
            models.Index(fields=["user", "ended"], name="handseat_user_ended"),
            models.Index(fields=["ended"], name="handseat_ended"),
            models.Index(fields=["ruleset", "ended"], name="handseat_ruleset_ended"),
            models.Index(fields=["user", "opponent"], name="handseat_user_opponent"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}:{self.seat} {self.result}"


COUNTED = models.Q(reversed=False) & ~models.Q(result="annulled")
"""The hand rows that count in boards, statistics, player pages and evidence:
not annulled (系统断线) and not reversed by a moderator (its coins and points
went back).  Ratings are the exception: a reversed hand stays rated."""


class HandReview(models.Model):
    """A hand's review (复盘): each decision against the hard bot, computed once.

    Written by ``games.services.review.review_store`` (the Celery task
    ``games.review_hand`` runs it when a hand ends).  ``decisions`` is the
    engine's list (``games.engine.review.ReviewedDecision.to_json``):
    per decision the seat, the step (``seq``), the player's and the bot's
    choice with the shanten and useful tiles after each, and whether they
    agree.  The per-seat counts are columns so that "how often does this
    player match the bot" is a query (``games.selectors.review_agreement``,
    used by moderation).  ``error`` says why a log could not be reviewed
    (then the counts are 0).
    """

    hand = models.OneToOneField(
        HandRecord,
        on_delete=models.CASCADE,
        related_name="review",
        verbose_name=_("牌局"),
    )
    version = models.PositiveSmallIntegerField(_("版本"), default=1)
    bot_level = models.CharField(_("机器人等级"), max_length=8, default="hard")
    decisions = models.JSONField(_("决策"), default=list, blank=True)
    seat0_decisions = models.PositiveIntegerField(_("座位0决策数"), default=0)
    seat0_agreed = models.PositiveIntegerField(_("座位0与机器人一致"), default=0)
    seat1_decisions = models.PositiveIntegerField(_("座位1决策数"), default=0)
    seat1_agreed = models.PositiveIntegerField(_("座位1与机器人一致"), default=0)
    seconds = models.FloatField(_("计算用时"), default=0.0)
    error = models.CharField(_("错误"), max_length=200, blank=True)
    created = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        verbose_name = _("复盘")
        verbose_name_plural = _("复盘")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"review of {self.hand_id}"

    def counts(self, seat: int) -> tuple[int, int]:
        """``(agreed, decisions)`` of ``seat``."""
        if seat == 0:
            return self.seat0_agreed, self.seat0_decisions
        return self.seat1_agreed, self.seat1_decisions
