"""Account models: the user, their profile, level schemes and inbox messages."""

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
        verbose_name = _("用户")
        verbose_name_plural = _("用户")


class Profile(models.Model):
    """A player's public face and balances; one per user, created on user creation.

    ``coins`` (游戏币) and ``rating_points`` (实力积分) are integers; later issues
    change them only through services that lock the row.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("用户"),
    )
    nickname = models.CharField(_("昵称"), max_length=32, db_index=True)
    coins = models.BigIntegerField(_("游戏币"), default=0)
    rating_points = models.BigIntegerField(_("实力积分"), default=0, db_index=True)
    hands_played = models.PositiveIntegerField(_("对局数"), default=0)
    hands_won = models.PositiveIntegerField(_("胜局数"), default=0)
    is_bot = models.BooleanField(
        _("机器人"), default=False, help_text=_("由电脑操作的账户。")
    )
    created = models.DateTimeField(_("创建时间"), default=timezone.now)

    class Meta:
        verbose_name = _("玩家资料")
        verbose_name_plural = _("玩家资料")
        ordering = ["-rating_points", "id"]
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

    @property
    def win_rate(self) -> float | None:
        """Hands won / hands played as a fraction in [0, 1]; None before any hand."""
        if not self.hands_played:
            return None
        return self.hands_won / self.hands_played


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
