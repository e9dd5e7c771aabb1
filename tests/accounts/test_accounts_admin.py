"""Admin: every model registered and usable; staff send inbox messages; schemes."""

import re

import pytest
from django.contrib import admin
from django.contrib.admin.sites import site
from django.urls import reverse

from accounts.models import Level, LevelScheme, Message, Profile, User

pytestmark = pytest.mark.django_db

OUR_APPS = {"accounts", "games", "leaderboard"}


@pytest.fixture
def staff_client(client):
    staff = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-5678")
    client.force_login(staff)
    client.staff = staff
    return client


def test_every_model_of_our_apps_is_registered():
    from django.apps import apps

    ours = [m for m in apps.get_models() if m._meta.app_label in OUR_APPS]
    assert ours, "no models found"
    for model in ours:
        assert site.is_registered(model), model
        model_admin = site._registry[model]
        assert model_admin.list_display != admin.ModelAdmin.list_display, model
        assert model_admin.search_fields, model


@pytest.mark.parametrize("model", [User, Profile, LevelScheme, Level, Message])
def test_changelist_search_and_add_pages_load(staff_client, model):
    User.objects.create_user("player1", "p1@example.com", "pw-player-111")
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert staff_client.get(changelist).status_code == 200
    assert staff_client.get(changelist, {"q": "player"}).status_code == 200
    add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    assert staff_client.get(add).status_code == 200


def test_staff_sends_a_message_from_the_add_form(staff_client):
    player = User.objects.create_user("player2", "p2@example.com", "pw-player-222")
    response = staff_client.post(
        reverse("admin:accounts_message_add"),
        {"recipient": player.pk, "subject": "处罚通知", "body": "请文明游戏。"},
    )
    assert response.status_code == 302
    message = Message.objects.get(recipient=player)
    assert message.sender == staff_client.staff
    assert (message.subject, message.body) == ("处罚通知", "请文明游戏。")


def test_staff_sends_a_message_to_selected_users_with_the_action(staff_client):
    a = User.objects.create_user("pa", "pa@example.com", "pw-player-333")
    b = User.objects.create_user("pb", "pb@example.com", "pw-player-444")
    url = reverse("admin:accounts_user_changelist")
    form = staff_client.post(
        url, {"action": "send_inbox_message", "_selected_action": [a.pk, b.pk]}
    )
    assert form.status_code == 200
    assert "pa" in form.content.decode()
    response = staff_client.post(
        url,
        {
            "action": "send_inbox_message",
            "_selected_action": [a.pk, b.pk],
            "send": "1",
            "subject": "活动通知",
            "body": "周末双倍积分。",
        },
    )
    assert response.status_code == 302
    sent = Message.objects.filter(subject="活动通知").order_by("recipient__username")
    assert [m.recipient.username for m in sent] == ["pa", "pb"]
    assert all(m.sender == staff_client.staff for m in sent)


def test_activating_a_scheme_in_admin_switches_the_others_off(staff_client):
    wulin = LevelScheme.objects.get(name="武林（游戏等级）")
    response = staff_client.post(
        reverse("admin:accounts_levelscheme_changelist"),
        {"action": "activate_scheme", "_selected_action": [wulin.pk]},
    )
    assert response.status_code == 302
    assert list(LevelScheme.objects.filter(is_active=True)) == [wulin]


def test_ticking_active_on_the_change_form_switches_the_others_off(staff_client):
    tiles = LevelScheme.objects.get(name="牌名（等级级别称号积分）")
    url = reverse("admin:accounts_levelscheme_change", args=[tiles.pk])
    levels = list(tiles.levels.order_by("min_points"))
    data = {
        "name": tiles.name,
        "source": tiles.source,
        "is_active": "on",
        "levels-TOTAL_FORMS": str(len(levels)),
        "levels-INITIAL_FORMS": str(len(levels)),
        "levels-MIN_NUM_FORMS": "0",
        "levels-MAX_NUM_FORMS": "1000",
    }
    for i, level in enumerate(levels):
        data.update(
            {
                f"levels-{i}-id": str(level.pk),
                f"levels-{i}-scheme": str(tiles.pk),
                f"levels-{i}-rank": str(level.rank),
                f"levels-{i}-name": level.name,
                f"levels-{i}-min_points": str(level.min_points),
            }
        )
    response = staff_client.post(url, data)
    assert response.status_code == 302, re.findall(
        r"errorlist[^<]*<li>([^<]*)", response.content.decode()
    )
    assert list(LevelScheme.objects.filter(is_active=True)) == [tiles]


def _user_add_data(username, nickname, **profile):
    data = {
        "username": username,
        "password1": "pw-new-user-9876",
        "password2": "pw-new-user-9876",
        "usable_password": "true",
        "profile-TOTAL_FORMS": "1",
        "profile-INITIAL_FORMS": "0",
        "profile-MIN_NUM_FORMS": "0",
        "profile-MAX_NUM_FORMS": "1",
        "profile-0-nickname": nickname,
        "_save": "1",
    }
    data.update({f"profile-0-{k}": v for k, v in profile.items()})
    return data


def test_adding_a_user_with_the_inline_nickname_keeps_one_profile(staff_client):
    # The post_save receiver creates the profile (with the starting grant)
    # before the inline is saved; the inline's nickname goes onto that profile
    # instead of inserting a second one (it was a 500: IntegrityError).
    response = staff_client.post(
        reverse("admin:accounts_user_add"), _user_add_data("newbie", "新来的")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get(username="newbie")
    assert Profile.objects.filter(user=user).count() == 1
    assert user.profile.nickname == "新来的"
    from django.conf import settings

    assert user.profile.coins == settings.MAHJONG_STARTING_COINS


def test_adding_a_user_with_a_bot_flag_in_the_inline_keeps_it(staff_client):
    response = staff_client.post(
        reverse("admin:accounts_user_add"),
        _user_add_data("botty", "机器人甲", is_bot="on", bot_level="easy"),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    profile = Profile.objects.get(user__username="botty")
    assert (profile.nickname, profile.is_bot, profile.bot_level) == (
        "机器人甲",
        True,
        "easy",
    )


def test_adding_a_user_with_a_taken_nickname_is_a_form_error(staff_client):
    User.objects.create_user("first", "f@example.com", "pw-first-1234")
    Profile.objects.filter(user__username="first").update(nickname="同名")
    response = staff_client.post(
        reverse("admin:accounts_user_add"), _user_add_data("second", "同名")
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="second").exists()
    assert "这个昵称已被其他玩家使用" in response.content.decode()


def test_adding_a_user_with_an_empty_inline_nickname_uses_the_username(staff_client):
    response = staff_client.post(
        reverse("admin:accounts_user_add"), _user_add_data("plain", "")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Profile.objects.get(user__username="plain").nickname == "plain"
