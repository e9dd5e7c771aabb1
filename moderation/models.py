"""Moderation models: cases and their reports, sanctions, appeals, the audit log.

A :class:`Case` is what a moderator decides: one open case per suspect and
category (lichess's Report), whose atoms are the :class:`Report` rows — one
per reporter (a player, or an automatic signal with no reporter).  Triage
(``moderation.services.triage``) stores the evidence bundle and the priority
on the case.  A decision may create a :class:`Sanction` (mute, suspension,
ban; play bans for abandoning are sanctions too, created by the system) and
is written to the append-only :class:`AuditEntry`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _


class Category(models.TextChoices):
    """What a report is about (issue 14's five categories)."""

    CHEATING = "cheating", _("作弊/外挂")
    COLLUSION = "collusion", _("串通刷分")
    STALLING = "stalling", _("恶意拖延/挂机")
    ABUSE = "abuse", _("辱骂")
    OTHER = "other", _("其他")


class Outcome(models.TextChoices):
    """A moderator's decision on a case."""

    DISMISS = "dismiss", _("驳回")
    WARN = "warn", _("警告")
    MUTE = "mute", _("禁言")
    SUSPEND = "suspend", _("暂停账号")
    BAN = "ban", _("封禁")


UPHELD = (Outcome.WARN, Outcome.MUTE, Outcome.SUSPEND, Outcome.BAN)
"""Outcomes that take action against the suspect (a report was upheld)."""


class Signal(models.TextChoices):
    """What opened an automatic report (no reporter)."""

    WIN_TRADING = "win_trading", _("单向输送游戏币")
    TIMING = "timing", _("思考时间异常")
    AGREEMENT = "agreement", _("与机器人一致率异常")


class Case(models.Model):
    """A case against one player (被举报人): the moderation queue's row.

    ``status``: open (submitted, waiting), review (a moderator's inquiry is
    open: the case is locked to ``inquiry_by``), decided.  An appeal reopens
    a decided case (``opened`` moves to the appeal, ``appealed`` is set).
    ``evidence`` is the triage bundle (JSON, ``moderation.evidence``) and
    ``priority`` / ``priority_parts`` its score with every component
    (``moderation.priority``).  ``escalated`` is set by the 24-hour check.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("待处理")
        REVIEW = "review", _("审查中")
        DECIDED = "decided", _("已处理")

    suspect = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderation_cases",
        verbose_name=_("被举报人"),
    )
    category = models.CharField(_("类别"), max_length=12, choices=Category.choices)
    status = models.CharField(
        _("状态"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    automatic = models.BooleanField(
        _("自动"), default=False, help_text=_("由自动信号而不是玩家举报开启。")
    )
    priority = models.PositiveSmallIntegerField(_("优先级"), default=0, db_index=True)
    priority_parts = models.JSONField(_("优先级构成"), default=list, blank=True)
    evidence = models.JSONField(_("证据"), null=True, blank=True)
    evidence_at = models.DateTimeField(_("证据生成时间"), null=True, blank=True)
    created = models.DateTimeField(_("创建时间"), default=timezone.now, db_index=True)
    opened = models.DateTimeField(
        _("开始计时"),
        default=timezone.now,
        help_text=_("24 小时处理时限从这里算起（创建或申诉重开）。"),
    )
    updated = models.DateTimeField(_("最近举报"), default=timezone.now)
    escalated = models.BooleanField(_("已升级"), default=False)
    escalated_at = models.DateTimeField(_("升级时间"), null=True, blank=True)
    inquiry_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("审查人"),
    )
    inquiry_at = models.DateTimeField(_("审查开始"), null=True, blank=True)
    outcome = models.CharField(
        _("处理结果"), max_length=8, choices=Outcome.choices, blank=True
    )
    reason = models.TextField(_("处理理由"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("处理人"),
    )
    decided_at = models.DateTimeField(_("处理时间"), null=True, blank=True)
    reversed_hands = models.JSONField(_("已冲正牌局"), default=list, blank=True)
    appealed = models.BooleanField(_("申诉中"), default=False)

    class Meta:
        verbose_name = _("举报案件")
        verbose_name_plural = _("举报案件")
        ordering = ["-id"]
        permissions = [("decide_case", _("可以处理举报案件"))]
        constraints = [
            models.UniqueConstraint(
                fields=["suspect", "category"],
                condition=~Q(status="decided"),
                name="one_open_case_per_suspect_and_category",
            )
        ]
        indexes = [models.Index(fields=["status", "opened"], name="case_status_opened")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_category_display()}"

    @property
    def is_open(self) -> bool:
        return self.status != self.Status.DECIDED

    def inquiry_holder(self, now: datetime) -> int | None:
        """The moderator holding an unexpired inquiry on this case, or None."""
        if self.inquiry_by_id is None or self.inquiry_at is None:
            return None
        minutes = settings.MAHJONG_INQUIRY_MINUTES
        if (now - self.inquiry_at).total_seconds() > minutes * 60:
            return None
        return int(self.inquiry_by_id)


class Report(models.Model):
    """One reporter's part of a case (an "atom"): category, text, the hands.

    ``reporter`` is None for an automatic signal (``signal`` names it and
    ``signal_data`` holds its figures).  ``hand`` is the hand reported (from
    the table, the settlement panel, the record or the replay); a report from
    a player page attaches that player's recent hands against the reporter
    (``hands``, which always includes ``hand``).  ``text`` is the reporter's
    own words: shown escaped, never marked safe.
    """

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="reports", verbose_name=_("案件")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("举报人"),
    )
    category = models.CharField(_("类别"), max_length=12, choices=Category.choices)
    hand = models.ForeignKey(
        "games.HandRecord",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("牌局"),
    )
    hands = models.ManyToManyField(
        "games.HandRecord", blank=True, related_name="+", verbose_name=_("相关牌局")
    )
    text = models.TextField(_("说明"), blank=True, max_length=4000)
    signal = models.CharField(
        _("自动信号"), max_length=12, choices=Signal.choices, blank=True
    )
    signal_data = models.JSONField(_("信号数据"), null=True, blank=True)
    created = models.DateTimeField(_("时间"), default=timezone.now, db_index=True)
    updated = models.DateTimeField(_("更新时间"), default=timezone.now)

    #: Not a column: ``report_file`` sets it True on the atom it returns when
    #: the report joined the reporter's earlier atom (same open case and
    #: category: words and hands added, not counted again), so the page can
    #: say so instead of "举报已提交".
    joined: bool = False

    class Meta:
        verbose_name = _("举报")
        verbose_name_plural = _("举报")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["reporter", "created"], name="report_by_day")]

    def __str__(self) -> str:
        return f"{self.get_category_display()} #{self.case_id}"


class Sanction(models.Model):
    """A restriction on a player: mute, suspension, ban or play ban.

    Active while not lifted, from ``starts`` until ``ends`` (None: a ban,
    until lifted).  A suspension, ban or play ban keeps the player from
    sitting at a table, being matched and (not a play ban) reporting; a
    suspension or ban also takes them off the boards; a mute stops their
    free text (nickname changes, report text).  ``case`` is the case that
    decided it (None for the system's play bans, ``created_by`` None too).
    """

    class Kind(models.TextChoices):
        MUTE = "mute", _("禁言")
        SUSPEND = "suspend", _("暂停账号")
        BAN = "ban", _("封禁")
        PLAYBAN = "playban", _("禁赛（中途弃局）")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sanctions",
        verbose_name=_("玩家"),
    )
    kind = models.CharField(_("类型"), max_length=8, choices=Kind.choices)
    reason = models.TextField(_("原因"))
    reason_code = models.CharField(
        _("原因代码"),
        max_length=24,
        blank=True,
        help_text=_("系统给出的原因（如自动禁赛），显示时按读者的语言翻译。"),
    )
    reason_params = models.JSONField(_("原因参数"), default=dict, blank=True)
    starts = models.DateTimeField(_("开始"), default=timezone.now)
    ends = models.DateTimeField(
        _("结束"), null=True, blank=True, help_text=_("留空表示直到解除。")
    )
    case = models.ForeignKey(
        Case,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sanctions",
        verbose_name=_("案件"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("操作人"),
        help_text=_("留空表示系统。"),
    )
    lifted_at = models.DateTimeField(_("解除时间"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("解除人"),
    )

    class Meta:
        verbose_name = _("处罚")
        verbose_name_plural = _("处罚")
        ordering = ["-starts", "-id"]
        indexes = [models.Index(fields=["user", "ends"], name="sanction_user_ends")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.user_id}"

    def is_active(self, now: datetime) -> bool:
        return (
            self.lifted_at is None
            and self.starts <= now
            and (self.ends is None or self.ends > now)
        )

    def reason_text(self) -> str:
        """The reason in the active language: a system reason (``reason_code``
        with ``reason_params``, e.g. a play ban's count of abandoned hands)
        translated, else the moderator's words as written."""
        msgid = SANCTION_REASONS.get(self.reason_code)
        if msgid is None:
            return self.reason
        return gettext(msgid) % (self.reason_params or {})


class Appeal(models.Model):
    """A reported player's reply to a decision: it reopens the case."""

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="appeals", verbose_name=_("案件")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("申诉人"),
    )
    text = models.TextField(_("申诉内容"), max_length=4000)
    created = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        verbose_name = _("申诉")
        verbose_name_plural = _("申诉")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"#{self.case_id} {self.created:%Y-%m-%d}"


SANCTION_REASONS = {
    "abandons": gettext_noop("最近 %(window)d 盘中有 %(n)d 盘中途离开或断线托管"),
}
"""System reasons of sanctions (``Sanction.reason_code``) → msgid; the
parameters are stored in ``Sanction.reason_params``."""


class AuditEntry(models.Model):
    """One moderation action, append-only: who, when, why, what, before, after.

    Written by the moderation services for every decision, inquiry,
    reversal, escalation, appeal, sanction lift and system play ban.  Never
    changed or deleted (``save`` inserts only, ``delete`` refuses; the admin
    is read-only).  ``before`` / ``after`` are JSON snapshots of what the
    action changed (case state, sanctions, balances).
    """

    class Action(models.TextChoices):
        DECIDE = "decide", _("处理")
        INQUIRY_OPEN = "inquiry_open", _("开始审查")
        INQUIRY_CLOSE = "inquiry_close", _("结束审查")
        REVERSE = "reverse", _("冲正")
        ESCALATE = "escalate", _("超时升级")
        APPEAL = "appeal", _("申诉重开")
        LIFT = "lift", _("解除处罚")
        PLAYBAN = "playban", _("自动禁赛")
        SIGNAL = "signal", _("自动信号")
        LIVE_HAND_VIEW = "live_hand_view", _("查看进行中牌局的私密事件")

    case = models.ForeignKey(
        Case,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit",
        verbose_name=_("案件"),
    )
    action = models.CharField(_("操作"), max_length=16, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("操作人"),
        help_text=_("留空表示系统。"),
    )
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("对象玩家"),
    )
    at = models.DateTimeField(_("时间"), default=timezone.now, db_index=True)
    reason = models.TextField(_("理由"), blank=True)
    before = models.JSONField(_("之前"), null=True, blank=True)
    after = models.JSONField(_("之后"), null=True, blank=True)

    class Meta:
        verbose_name = _("审计记录")
        verbose_name_plural = _("审计记录")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} #{self.case_id or '-'}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert only: an audit entry is never changed."""
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("audit entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("audit entries are append-only")
