"""Moderation in Django admin: the case queue, the case page, sanctions, audit.

The queue is the case changelist: undecided first, escalated first, then by
priority; filters by status, category, priority, age, automatic.  The case
page (``admin/moderation/case/case.html``) shows the reports, the evidence
inline (tables and small charts), links to each hand's record (both hands
open for staff), both players' history and the audit trail, and — for
holders of ``moderation.decide_case`` (the "moderator" group) — the
inquiry, reversal preview and decision forms.  Cases are never edited or
deleted here: every change goes through ``moderation.services`` and is
audited.  The audit log is read-only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.models import HandSeat

from .charts import flow_chart, timing_chart
from .evidence import case_hand_ids
from .models import Appeal, AuditEntry, Case, Outcome, Report, Sanction
from .priority import LABELS as PRIORITY_LABELS
from .restrictions import active_q
from .services.cases import sanction_lift
from .services.decisions import (
    DecisionError,
    case_decide,
    case_inquiry_close,
    case_inquiry_open,
    reversal_preview,
    reversible_hands,
)

DECIDE_PERM = "moderation.decide_case"

GROUP_LABELS = {
    "discard": gettext_lazy("打牌"),
    "claim": gettext_lazy("吃碰杠"),
    "kong": gettext_lazy("暗杠/加杠"),
    "win": gettext_lazy("和牌"),
    "pass": gettext_lazy("过"),
    "ready": gettext_lazy("报听"),
    "other": gettext_lazy("其他"),
}


class PriorityFilter(admin.SimpleListFilter):
    title = gettext_lazy("优先级")
    parameter_name = "prio"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("high", gettext_lazy("高（≥60）")),
            ("mid", gettext_lazy("中（30–59）")),
            ("low", gettext_lazy("低（<30）")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Case]) -> Any:
        if self.value() == "high":
            return queryset.filter(priority__gte=60)
        if self.value() == "mid":
            return queryset.filter(priority__gte=30, priority__lt=60)
        if self.value() == "low":
            return queryset.filter(priority__lt=30)
        return queryset


class AgeFilter(admin.SimpleListFilter):
    title = gettext_lazy("等待时间")
    parameter_name = "age"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("1h", gettext_lazy("1 小时内")),
            ("24h", gettext_lazy("24 小时内")),
            ("over", gettext_lazy("超过 24 小时")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Case]) -> Any:
        now = timezone.now()
        if self.value() == "1h":
            return queryset.filter(opened__gte=now - timedelta(hours=1))
        if self.value() == "24h":
            return queryset.filter(opened__gte=now - timedelta(hours=24))
        if self.value() == "over":
            return queryset.filter(opened__lt=now - timedelta(hours=24))
        return queryset


def _nickname(user: User | None) -> str:
    if user is None:
        return "—"
    profile = getattr(user, "profile", None)
    return profile.nickname if profile else user.get_username()


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    """The report queue; the case page is custom (evidence and decisions)."""

    list_display = [
        "id",
        "suspect_name",
        "category",
        "status",
        "priority",
        "automatic",
        "escalated",
        "appealed",
        "waiting",
        "reports_count",
        "inquiry_by",
        "outcome",
    ]
    list_display_links = ["id", "suspect_name"]
    list_filter = [
        "status",
        "category",
        PriorityFilter,
        AgeFilter,
        "automatic",
        "escalated",
        "appealed",
    ]
    search_fields = ["=id", "suspect__username", "suspect__profile__nickname"]
    list_select_related = ["suspect__profile", "inquiry_by"]
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[Case]:
        return super().get_queryset(request).annotate(_reports=Count("reports"))

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        # undecided first, escalated first, then by priority, oldest first
        return [
            F("decided_at").asc(nulls_first=True),
            "-escalated",
            "-priority",
            "opened",
        ]

    @admin.display(description=gettext_lazy("被举报人"), ordering="suspect__username")
    def suspect_name(self, obj: Case) -> str:
        return _nickname(obj.suspect)

    @admin.display(description=gettext_lazy("举报数"), ordering="_reports")
    def reports_count(self, obj: Case) -> int:
        return int(obj._reports)  # type: ignore[attr-defined]

    @admin.display(description=gettext_lazy("已等待"), ordering="opened")
    def waiting(self, obj: Case) -> str:
        if obj.status == Case.Status.DECIDED:
            return "—"
        hours = (timezone.now() - obj.opened).total_seconds() / 3600
        return _("%(h).1f 小时") % {"h": hours}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        urls = super().get_urls()
        mine = [
            path(
                "<int:pk>/act/",
                self.admin_site.admin_view(self.act_view),
                name="moderation_case_act",
            )
        ]
        return mine + urls

    # ------------------------------------------------------------ the case page
    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        case = get_object_or_404(
            Case.objects.select_related("suspect__profile", "inquiry_by", "decided_by"),
            pk=object_id,
        )
        return self._page(request, case)

    def _page(
        self,
        request: HttpRequest,
        case: Case,
        *,
        preview_hands: list[int] | None = None,
        restore_hands: list[int] | None = None,
        reason: str = "",
        days: str = "",
        error: str = "",
        status: int = 200,
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("举报案件 #%(n)s") % {"n": case.pk},
            **case_page_context(case),
            "can_decide": request.user.has_perm(DECIDE_PERM),
            "preview": reversal_preview(
                hand_ids=preview_hands or [], restore_ids=restore_hands or []
            )
            if preview_hands or restore_hands
            else None,
            "chosen": set(preview_hands or []) | set(restore_hands or []),
            "reason": reason,
            "days": days,
            "error": error,
            "now": timezone.now(),
            "holder": case.inquiry_holder(timezone.now()),
        }
        return render(
            request, "admin/moderation/case/case.html", context, status=status
        )

    def act_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """POST: inquiry, reversal preview, a decision or lifting one of the
        case's sanctions (needs decide_case).  The preview needs no reason;
        the decision does."""
        if request.method != "POST":
            return HttpResponseRedirect(
                reverse("admin:moderation_case_change", args=[pk])
            )
        if not request.user.has_perm(DECIDE_PERM):
            raise PermissionDenied
        case = get_object_or_404(Case, pk=pk)
        do = request.POST.get("do", "")
        reason = request.POST.get("reason", "")
        days_raw = request.POST.get("days", "").strip()
        try:
            hands = [int(h) for h in request.POST.getlist("hands")]
            restore = [int(h) for h in request.POST.getlist("restore")]
            previewed = [int(h) for h in request.POST.getlist("previewed")]
        except ValueError:
            hands, restore, previewed = [], [], []
        user: User = request.user  # type: ignore[assignment]
        here = reverse("admin:moderation_case_change", args=[pk])
        try:
            if do == "inquiry_open":
                case_inquiry_open(case_id=pk, moderator=user)
                messages.success(request, _("已开始审查：案件已锁定给你。"))
                return HttpResponseRedirect(here)
            if do == "inquiry_close":
                case_inquiry_close(case_id=pk, moderator=user)
                messages.success(request, _("已结束审查。"))
                return HttpResponseRedirect(here)
            if do == "preview":
                if not hands and not restore:
                    raise DecisionError(_("请先选择要冲正的牌局"))
                return self._page(
                    request,
                    case,
                    preview_hands=hands,
                    restore_hands=restore,
                    reason=reason,
                    days=days_raw,
                )
            if do == "lift":
                sanction_id = int(request.POST.get("sanction", "0") or 0)
                if not case.sanctions.filter(pk=sanction_id).exists():
                    raise DecisionError(_("这个案件没有这项处罚"))
                sanction_lift(sanction_id=sanction_id, by=user, reason=reason)
                messages.success(request, _("处罚已解除，双方会收到站内信。"))
                return HttpResponseRedirect(here)
            if do in Outcome.values:
                days = int(days_raw) if days_raw else None
                case_decide(
                    case_id=pk,
                    moderator=user,
                    outcome=do,
                    reason=reason,
                    days=days,
                    reverse_hand_ids=hands,
                    restore_hand_ids=restore,
                    previewed_hand_ids=previewed,
                )
                messages.success(
                    request,
                    _("案件 #%(n)s 已处理：%(outcome)s。")
                    % {"n": pk, "outcome": Outcome(do).label},
                )
                return HttpResponseRedirect(reverse("admin:moderation_case_changelist"))
            raise DecisionError(_("未知的操作"))
        except (DecisionError, ValueError) as exc:
            message = str(exc) if isinstance(exc, DecisionError) else _("天数无效")
            return self._page(
                request,
                case,
                preview_hands=hands if previewed else None,
                restore_hands=restore if previewed else None,
                reason=reason,
                days=days_raw,
                error=message,
                status=400,
            )


def case_page_context(case: Case) -> dict[str, Any]:
    """Everything the case page shows, from the case and its evidence."""
    evidence = case.evidence or {}
    reports = list(
        case.reports.select_related("reporter__profile", "hand")
        .prefetch_related("hands")
        .order_by("created")
    )
    names: dict[int, str] = {}
    ids = {case.suspect_id} | {r.reporter_id for r in reports if r.reporter_id}
    for pair in evidence.get("pairs", []):
        ids.add(pair["other"])
    for user in User.objects.filter(pk__in=ids).select_related("profile"):
        names[user.pk] = _nickname(user)
    pairs = []
    for pair in evidence.get("pairs", []):
        pairs.append(
            {
                **pair,
                "name": names.get(pair["other"], pair["other"]),
                "chart": flow_chart(
                    flow=pair.get("flow", []),
                    title=_("累计流向被举报人的游戏币"),
                    no_data=_("没有对局"),
                )
                if len(pair.get("flow", [])) >= 2
                else "",
            }
        )
    timing = evidence.get("timing", {})
    groups = [
        {"key": g, "label": GROUP_LABELS.get(g, g), **v}
        for g, v in timing.get("groups", {}).items()
    ]
    measured = [g for g in groups if g["median"] is not None]
    chart = (
        timing_chart(
            groups=[
                (str(g["label"]), g["median"], g["baseline_median"], g["site_median"])
                for g in measured
            ],
            title=_("思考时间中位数（秒）"),
            series=(_("被举报的牌局"), _("本人以往"), _("全站")),
            no_data=_("没有可比较的决定"),
        )
        if measured
        else ""
    )
    prior = []
    for key, record in evidence.get("prior", {}).items():
        uid = case.suspect_id if key == "suspect" else int(key)
        sanctions = [
            {**x, "label": Sanction.Kind(x["kind"]).label}
            if x.get("kind") in Sanction.Kind.values
            else x
            for x in record.get("sanctions", [])
        ]
        prior.append(
            {"user": uid, "name": names.get(uid, uid), **record, "sanctions": sanctions}
        )
    parts = [
        {**p, "label": PRIORITY_LABELS.get(p["key"], p["key"])}
        for p in case.priority_parts or []
    ]
    hand_ids = case_hand_ids(case)
    history_ids = [case.suspect_id] + [r.reporter_id for r in reports if r.reporter_id]
    history = []
    now = timezone.now()
    for uid in dict.fromkeys(history_ids):
        history.append(
            {
                "user": uid,
                "name": names.get(uid, uid),
                "cases": list(
                    Case.objects.filter(suspect_id=uid)
                    .exclude(pk=case.pk)
                    .order_by("-created")[:10]
                ),
                "sanctions": [
                    (s, s.is_active(now))
                    for s in Sanction.objects.filter(user_id=uid).order_by("-starts")[
                        :10
                    ]
                ],
                "recent": list(
                    HandSeat.objects.filter(user_id=uid)
                    .select_related("opponent__profile")
                    .order_by("-ended")[:8]
                ),
            }
        )
    return {
        "case": case,
        "suspect_name": names.get(case.suspect_id, case.suspect_id),
        "reports": reports,
        "appeals": list(case.appeals.select_related("user").order_by("created")),
        "evidence": evidence,
        "hand_ids": hand_ids,
        "pairs": pairs,
        "timing": timing,
        "timing_groups": groups,
        "timing_chart": chart,
        "agreement": evidence.get("agreement", {}),
        "prior": prior,
        "parts": parts,
        "history": history,
        "audit": list(case.audit.select_related("actor").order_by("at", "id")),
        "reversible": reversible_hands(case),
        "sanctions": list(case.sanctions.all()),
        "in_force": list(case.sanctions.filter(active_q(now)).order_by("id")),
        "outcomes": [
            ("dismiss", Outcome.DISMISS.label),
            ("warn", Outcome.WARN.label),
            ("mute", Outcome.MUTE.label),
            ("suspend", Outcome.SUSPEND.label),
            ("ban", Outcome.BAN.label),
        ],
    }


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ["id", "case", "reporter", "category", "signal", "hand", "created"]
    list_filter = ["category", "signal", "created"]
    search_fields = ["=case__id", "reporter__username", "=hand__id"]
    list_select_related = ["case", "reporter", "hand"]


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdmin):
    list_display = ["id", "case", "user", "created"]
    list_select_related = ["case", "user"]


@admin.action(description=gettext_lazy("解除所选处罚"))
def lift_sanctions(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Sanction]
) -> HttpResponse | None:
    """Ask for the reason, then lift the selected sanctions (both sides told)."""
    if not request.user.has_perm(DECIDE_PERM):
        raise PermissionDenied
    reason = request.POST.get("reason", "").strip()
    error = ""
    if "lift" in request.POST:
        if reason:
            lifted = 0
            for sanction in queryset:
                try:
                    sanction_lift(
                        sanction_id=sanction.pk,
                        by=request.user,  # type: ignore[arg-type]
                        reason=reason,
                    )
                except DecisionError:
                    continue
                lifted += 1
            modeladmin.message_user(
                request, _("已解除 %(n)d 项处罚。") % {"n": lifted}, messages.SUCCESS
            )
            return None
        error = _("请写明解除的理由")
    return render(
        request,
        "admin/moderation/sanction/lift.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": _("解除处罚"),
            "sanctions": queryset.select_related("user"),
            "error": error,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        },
    )


class ActiveFilter(admin.SimpleListFilter):
    title = gettext_lazy("生效中")
    parameter_name = "active"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", gettext_lazy("是")), ("no", gettext_lazy("否"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Sanction]) -> Any:
        if self.value() == "yes":
            return queryset.filter(active_q(timezone.now()))
        if self.value() == "no":
            return queryset.exclude(active_q(timezone.now()))
        return queryset


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    """Sanctions, read-only (decisions create them); lifting is audited."""

    list_display = ["id", "user", "kind", "starts", "ends", "lifted_at", "case"]
    list_filter = ["kind", ActiveFilter, "starts"]
    search_fields = ["user__username", "user__profile__nickname", "reason"]
    list_select_related = ["user", "case"]
    actions = [lift_sanctions]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit log: append-only, never edited or deleted here."""

    list_display = ["id", "at", "action", "actor", "subject", "case", "reason"]
    list_filter = ["action", "at"]
    search_fields = ["=case__id", "actor__username", "subject__username", "reason"]
    list_select_related = ["actor", "subject", "case"]
    date_hierarchy = "at"
