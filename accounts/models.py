"""Account models: the user, their profile, the ledger, level schemes, the inbox."""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The site's user (custom from the first migration so it can grow later)."""

    class Meta(AbstractUser.Meta):
        # a lazy string, as Django expects; the stubs type the base Meta's as str
        verbose_name = _("用户")  # type: ignore[assignment]
        verbose_name_plural = _("用户")  # type: ignore[assignment]


class Profile(models.Model):
    """A player's public face and balances; one per user, created on user creation.

    ``coins`` (游戏币) and ``rating_points`` (实力积分) are integers kept equal to
    the sum of the player's :class:`LedgerEntry` rows: only
    :mod:`accounts.ledger` changes them, with the row locked, in the same
    transaction as the entry.  Hand counts and ratings live in
    ``leaderboard.PlayerStats``.  A bot's profile names its level
    (``bot_level``: ``easy`` / ``normal`` / ``hard``), one account per level.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("用户"),
    )
    nickname = models.CharField(_("昵称"), max_length=32, db_index=True)
    coins = models.BigIntegerField(_("游戏币"), default=0)
    # indexed with the user id for the overall boards (Meta.indexes)
    rating_points = models.BigIntegerField(_("实力积分"), default=0)
    is_bot = models.BooleanField(
        _("机器人"), default=False, help_text=_("由电脑操作的账户。")
    )
    bot_level = models.CharField(
        _("机器人等级"), max_length=8, blank=True, help_text=_("机器人账户的等级。")
    )
    created = models.DateTimeField(_("创建时间"), default=timezone.now)

    class Meta:
        verbose_name = _("玩家资料")
        verbose_name_plural = _("玩家资料")
        ordering = ["-rating_points", "id"]
        # the overall 实力积分 and 游戏币 boards (leaderboard.selectors), in
        # their order: balance best first, ties to the lower user id
        indexes = [
            models.Index(
                fields=["-rating_points", "user"], name="profile_board_points"
            ),
            models.Index(fields=["-coins", "user"], name="profile_board_coins"),
        ]
        constraints = [
            # One player per nickname, ignoring case ("Ann" and "ann" clash).
            models.UniqueConstraint(
                Lower("nickname"),
                name="unique_profile_nickname_ci",
                violation_error_message=_("这个昵称已被其他玩家使用，请换一个。"),
            )
        ]

    def __str__(self) -> str:
        return self.nickname


class LedgerEntry(models.Model):
    """One movement of 游戏币 or 实力积分 for one user: append-only.

    A balance is the sum of its entries (``Profile.coins`` / ``rating_points``
    are kept equal to it by :mod:`accounts.ledger`, the only writer).  An entry
    is never changed or deleted; a mistake is undone by a ``reversal`` entry
    (``reverses`` points at the undone entry) or a ``correction`` with a reason.
    ``balance_after`` is the balance right after this entry (audit trail).
    Hand entries name their hand; each (user, currency, kind, hand) once.
    """

    class Currency(models.TextChoices):
        COINS = "coins", _("游戏币")
        POINTS = "points", _("实力积分")

    class Kind(models.TextChoices):
        OPENING = "opening", _("期初余额")
        GRANT = "grant", _("起始赠送")
        HAND = "hand", _("牌局结算")
        RAKE = "rake", _("抽水")
        REVERSAL = "reversal", _("冲正")
        CORRECTION = "correction", _("人工调整")
        RECALC = "recalc", _("重算修正")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("用户"),
    )
    currency = models.CharField(_("币种"), max_length=8, choices=Currency.choices)
    kind = models.CharField(_("类型"), max_length=12, choices=Kind.choices)
    amount = models.BigIntegerField(_("变动"))
    balance_after = models.BigIntegerField(_("变动后余额"))
    hand = models.ForeignKey(
        "games.HandRecord",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("牌局"),
    )
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("冲正对象"),
    )
    reason = models.CharField(_("原因"), max_length=255, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("操作人"),
        help_text=_("留空表示系统。"),
    )
    created = models.DateTimeField(_("时间"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("账目")
        verbose_name_plural = _("账目")
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "currency", "id"])]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "currency", "kind", "hand"],
                condition=Q(hand__isnull=False, kind__in=["hand", "rake"]),
                name="ledger_hand_entry_once",
            )
        ]

    def __str__(self) -> str:
        what = self.get_currency_display()
        kind = self.get_kind_display()
        return f"{what} {self.amount:+d} ({kind})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert only: an existing entry is never changed (append-only ledger)."""
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("ledger entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("ledger entries are append-only")


class LevelScheme(models.Model):
    """A named level table (等级表); exactly one scheme is active at a time."""

    name = models.CharField(_("名称"), max_length=64, unique=True)
    source = models.CharField(
        _("来源"), max_length=128, blank=True, help_text=_("出自哪份规则文档。")
    )
    is_active = models.BooleanField(_("当前使用"), default=False)

    class Meta:
        verbose_name = _("等级方案")
        verbose_name_plural = _("等级方案")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_active"],
                condition=Q(is_active=True),
                name="one_active_level_scheme",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Level(models.Model):
    """One rung of a scheme: reached when 实力积分 >= ``min_points``."""

    scheme = models.ForeignKey(
        LevelScheme,
        on_delete=models.CASCADE,
        related_name="levels",
        verbose_name=_("等级方案"),
    )
    rank = models.PositiveSmallIntegerField(_("级数"))
    name = models.CharField(_("称号"), max_length=32)
    min_points = models.BigIntegerField(_("升级积分"))

    class Meta:
        verbose_name = _("等级")
        verbose_name_plural = _("等级")
        ordering = ["scheme", "min_points"]
        constraints = [
            models.UniqueConstraint(
                fields=["scheme", "rank"], name="unique_level_rank_per_scheme"
            ),
            models.UniqueConstraint(
                fields=["scheme", "min_points"], name="unique_level_points_per_scheme"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Message(models.Model):
    """An inbox message (站内信) to one user, from the system (no sender) or staff."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="inbox_messages",
        verbose_name=_("收件人"),
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sent_messages",
        verbose_name=_("发件人"),
        help_text=_("留空表示系统消息。"),
    )
    subject = models.CharField(_("标题"), max_length=120)
    body = models.TextField(_("内容"))
    created = models.DateTimeField(_("发送时间"), default=timezone.now, db_index=True)
    read_at = models.DateTimeField(_("阅读时间"), null=True, blank=True)
    reply_url = models.CharField(
        _("回复地址"),
        max_length=200,
        blank=True,
        help_text=_("可以回复的消息（如对处理结果的申诉）：回复表单提交到这里。"),
    )
    i18n = models.JSONField(
        _("翻译信息"),
        null=True,
        blank=True,
        help_text=_("系统消息的原文和参数：按读者的语言显示。"),
    )

    class Meta:
        verbose_name = _("站内信")
        verbose_name_plural = _("站内信")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["recipient", "read_at"])]

    def __str__(self) -> str:
        return self.subject

    @property
    def is_read(self) -> bool:
        return self.read_at is not None

    def shown(self) -> tuple[str, str]:
        """``(subject, body)`` in the active language.

        A system message may carry ``i18n``: ``{"subject": part, "body":
        [part, ...]}`` where a part is ``[msgid, {name: value}]`` and a value
        that is itself ``[msgid]`` is translated too; the stored subject
        and body are the same text in Chinese (for admin and search).
        """
        if not self.i18n:
            return self.subject, self.body
        from django.utils.translation import gettext

        def part(p: Any) -> str:
            msgid, params = p[0], (p[1] if len(p) > 1 else {})
            values = {
                k: gettext(v[0]) if isinstance(v, list) else v
                for k, v in (params or {}).items()
            }
            return gettext(msgid) % values if values else gettext(msgid)

        subject = part(self.i18n.get("subject", [self.subject]))
        body = "\n\n".join(part(p) for p in self.i18n.get("body", []))
        return subject, body or self.body
