"""Admin for moderators: users, profiles, the ledger, level schemes and the inbox.

Balances are read-only here: staff change one by adding a ledger entry (a
correction with a reason, ``accounts.ledger.ledger_correct``).
"""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .forms import (
    InboxComposeForm,
    LedgerCorrectionForm,
    ProfileAdminForm,
    UserAdminChangeForm,
    UserAdminCreationForm,
)
from .ledger import ledger_correct
from .models import LedgerEntry, Level, LevelScheme, Message, Profile, User
from .selectors import level_for_points
from .services import (
    inbox_send,
    level_scheme_activate,
    profile_admin_set,
    profile_create,
)


class ProfileInlineFormSet(BaseInlineFormSet):
    """The user's profile inline: on "add user" it fills the profile made on save.

    Saving a new user creates its profile with the starting grant
    (``accounts.signals``); inserting the inline's row as well broke the
    one-profile-per-user constraint (a 500).  The inline's values go onto
    that profile instead, through the accounts service.
    """

    def save_new(self, form: Any, commit: bool = True) -> Profile:
        return profile_admin_set(
            profile=profile_create(user=self.instance),
            nickname=form.cleaned_data.get("nickname", ""),
            is_bot=bool(form.cleaned_data.get("is_bot")),
            bot_level=form.cleaned_data.get("bot_level", ""),
        )


class ProfileInline(admin.StackedInline):
    model = Profile
    form = ProfileAdminForm
    formset = ProfileInlineFormSet
    can_delete = False
    fields = ["nickname", "coins", "rating_points", "is_bot", "bot_level"]
    readonly_fields = ["coins", "rating_points"]


@admin.action(description=_("给所选用户发送站内信"))
def send_inbox_message(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[User]
) -> HttpResponse | None:
    """Ask for a subject and body, then send one message to each selected user."""
    if "send" in request.POST:
        form = InboxComposeForm(request.POST)
        if form.is_valid():
            for user in queryset:
                inbox_send(
                    recipient=user,
                    sender=request.user,  # type: ignore[arg-type]
                    subject=form.cleaned_data["subject"],
                    body=form.cleaned_data["body"],
                )
            count = queryset.count()
            modeladmin.message_user(
                request,
                ngettext("已发送 %d 封站内信。", "已发送 %d 封站内信。", count) % count,
                messages.SUCCESS,
            )
            return None
    else:
        form = InboxComposeForm()
    return render(
        request,
        "admin/accounts/send_inbox_message.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": _("发送站内信"),
            "form": form,
            "users": queryset,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        },
    )


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = UserAdminChangeForm
    add_form = UserAdminCreationForm
    inlines = [ProfileInline]
    list_display = [
        "username",
        "email",
        "nickname",
        "is_active",
        "is_staff",
        "date_joined",
        "last_login",
    ]
    list_filter = ["is_staff", "is_superuser", "is_active", "profile__is_bot"]
    search_fields = ["username", "email", "profile__nickname"]
    actions = [send_inbox_message]

    @admin.display(description=_("昵称"), ordering="profile__nickname")
    def nickname(self, obj: User) -> str:
        profile = getattr(obj, "profile", None)
        return profile.nickname if profile else "—"

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return super().get_queryset(request).select_related("profile")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = [
        "nickname",
        "user",
        "coins",
        "rating_points",
        "level",
        "is_bot",
        "created",
    ]
    list_filter = ["is_bot", "created"]
    search_fields = ["nickname", "user__username", "user__email"]
    list_select_related = ["user"]
    readonly_fields = ["coins", "rating_points", "created", "level"]
    autocomplete_fields = ["user"]
    form = ProfileAdminForm

    @admin.display(description=_("等级"))
    def level(self, obj: Profile) -> str:
        level = level_for_points(points=obj.rating_points)
        return level.name if level else "—"


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """The ledger, read-only; "add" posts a correction with a reason.

    Entries are never changed or deleted (append-only); a wrong entry is
    undone by a correction of the opposite amount.
    """

    list_display = [
        "id",
        "created",
        "user",
        "currency",
        "kind",
        "amount",
        "balance_after",
        "hand",
        "reason",
        "created_by",
    ]
    list_filter = ["currency", "kind", "created"]
    search_fields = [
        "=user__username",
        "user__profile__nickname",
        "reason",
        "=hand__id",
    ]
    list_select_related = ["user", "created_by"]
    raw_id_fields = ["user", "hand", "reverses"]
    date_hierarchy = "created"

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            return LedgerCorrectionForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ["user", "currency", "amount", "reason"]
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return []
        return [f.name for f in LedgerEntry._meta.fields]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: LedgerEntry, form: Any, change: bool
    ) -> None:
        if change:  # pragma: no cover - the change form has no editable field
            return
        entry = ledger_correct(
            user=form.cleaned_data["user"],
            currency=form.cleaned_data["currency"],
            amount=form.cleaned_data["amount"],
            reason=form.cleaned_data["reason"],
            by=request.user,  # type: ignore[arg-type]
        )
        obj.pk = entry.pk


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0
    ordering = ["min_points"]


@admin.action(description=_("设为当前等级方案"))
def activate_scheme(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[LevelScheme]
) -> None:
    if queryset.count() != 1:
        modeladmin.message_user(request, _("请只选择一个方案。"), messages.ERROR)
        return
    scheme = level_scheme_activate(scheme=queryset.get())
    modeladmin.message_user(
        request, _("当前等级方案：%(name)s") % {"name": scheme.name}, messages.SUCCESS
    )


class LevelSchemeForm(forms.ModelForm):
    class Meta:
        model = LevelScheme
        fields = ["name", "source", "is_active"]

    def _get_validation_exclusions(self) -> set[str]:
        # Ticking "active" is allowed while another scheme is active: save_model
        # switches the others off in one transaction (level_scheme_activate), so
        # the one-active constraint is not checked against the old state here.
        # a private ModelForm method, not in django-stubs
        exclude: set[str] = super()._get_validation_exclusions()  # type: ignore[misc]
        exclude.add("is_active")
        return exclude


@admin.register(LevelScheme)
class LevelSchemeAdmin(admin.ModelAdmin):
    form = LevelSchemeForm
    list_display = ["name", "is_active", "level_count", "source"]
    list_filter = ["is_active"]
    search_fields = ["name", "source", "levels__name"]
    inlines = [LevelInline]
    actions = [activate_scheme]

    def get_queryset(self, request: HttpRequest) -> QuerySet[LevelScheme]:
        return super().get_queryset(request).annotate(_level_count=Count("levels"))

    @admin.display(description=_("等级数"), ordering="_level_count")
    def level_count(self, obj: LevelScheme) -> int:
        return obj._level_count  # type: ignore[attr-defined]

    def save_model(
        self, request: HttpRequest, obj: LevelScheme, form: Any, change: bool
    ) -> None:
        # Activating one scheme switches the others off in the same transaction.
        wants_active = obj.is_active
        obj.is_active = False if wants_active else obj.is_active
        super().save_model(request, obj, form, change)
        if wants_active:
            level_scheme_activate(scheme=obj)


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    list_display = ["name", "scheme", "rank", "min_points"]
    list_filter = ["scheme"]
    search_fields = ["name"]
    ordering = ["scheme", "min_points"]


class ReadFilter(admin.SimpleListFilter):
    title = _("阅读状态")
    parameter_name = "read"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("no", _("未读")), ("yes", _("已读"))]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Message]
    ) -> QuerySet[Message]:
        if self.value() == "no":
            return queryset.filter(read_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(read_at__isnull=False)
        return queryset


class SenderFilter(admin.SimpleListFilter):
    title = _("发件人")
    parameter_name = "from"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("system", _("系统")), ("staff", _("管理员"))]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Message]
    ) -> QuerySet[Message]:
        if self.value() == "system":
            return queryset.filter(sender__isnull=True)
        if self.value() == "staff":
            return queryset.filter(sender__isnull=False)
        return queryset


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """Staff send a message with "add": the sender is the signed-in staff member."""

    list_display = ["subject", "recipient", "sender_display", "created", "is_read"]
    list_filter = [ReadFilter, SenderFilter, "created"]
    search_fields = ["subject", "body", "recipient__username", "recipient__email"]
    list_select_related = ["recipient", "sender"]
    autocomplete_fields = ["recipient"]
    date_hierarchy = "created"
    readonly_fields = ["sender", "created", "read_at"]
    fields = ["recipient", "subject", "body", "sender", "created", "read_at"]

    @admin.display(description=_("发件人"), ordering="sender__username")
    def sender_display(self, obj: Message) -> str:
        return obj.sender.get_username() if obj.sender else str(_("系统"))

    @admin.display(description=_("已读"), boolean=True)
    def is_read(self, obj: Message) -> bool:
        return obj.read_at is not None

    def save_model(
        self, request: HttpRequest, obj: Message, form: Any, change: bool
    ) -> None:
        if not change:
            obj.sender = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
