"""Account pages: the player's profile and inbox (thin: selectors and services)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.forms import HandFilterForm
from games.selectors import player_hands
from leaderboard.models import OVERALL, PlayerStats

from .forms import NicknameForm
from .selectors import inbox_messages, level_progress
from .services import inbox_mark_read, profile_create, profile_set_nickname
from .signed_in import signed_in_user


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Show the player's balances, level and hands (我的对局, filtered by the
    GET parameters of ``games.forms.HandFilterForm``, with replay links);
    POST changes the nickname."""
    user = signed_in_user(request)
    player_profile = profile_create(user=user)
    if request.method == "POST":
        form = NicknameForm(request.POST, instance=player_profile)
        from moderation.restrictions import is_muted, until_text

        mute = is_muted(user_id=request.user.pk)
        if mute is not None:  # a muted player writes no free text (moderation)
            form.add_error(
                None,
                _("你已被禁言（至 %(until)s），不能修改昵称。")
                % {"until": until_text(mute)}
                if mute.ends
                else _("你已被禁言（解除前一直有效），不能修改昵称。"),
            )
        elif form.is_valid():
            try:
                profile_set_nickname(
                    profile=player_profile, nickname=form.cleaned_data["nickname"]
                )
            except ValueError:
                # Taken by someone else between the form check and the save.
                form.add_error("nickname", _("这个昵称已被其他玩家使用，请换一个。"))
            else:
                messages.success(request, _("昵称已更新。"))
                return redirect("accounts:profile")
        player_profile.refresh_from_db()
    else:
        form = NicknameForm(instance=player_profile)
    progress = level_progress(points=player_profile.rating_points)
    stats = PlayerStats.objects.filter(user=user, ruleset=OVERALL).first()
    filters = HandFilterForm(request.GET or None)
    hands = Paginator(
        player_hands(user_id=user.pk, **filters.filters()),
        settings.MAHJONG_MY_GAMES_PAGE_SIZE,
    ).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "accounts/profile.html",
        {
            "profile": player_profile,
            "progress": progress,
            "form": form,
            "stats": stats,
            "filters": filters,
            "hands": hands,
            "query": query.urlencode(),
        },
    )


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """List the player's messages; the ones shown are marked read.

    The page still highlights which of them were unread when it was rendered.
    """
    paginator = Paginator(
        inbox_messages(user=request.user),  # type: ignore[arg-type]
        settings.MAHJONG_INBOX_PAGE_SIZE,
    )
    page = paginator.get_page(request.GET.get("page"))
    shown = list(page.object_list)
    for m in shown:  # system messages in the reader's language
        m.subject_shown, m.body_shown = m.shown()  # type: ignore[attr-defined]
    newly_read = {m.pk for m in shown if m.read_at is None}
    if newly_read:
        inbox_mark_read(user=request.user, message_ids=newly_read)  # type: ignore[arg-type]
    return render(
        request,
        "accounts/inbox.html",
        {"page": page, "inbox": shown, "newly_read": newly_read},
    )
