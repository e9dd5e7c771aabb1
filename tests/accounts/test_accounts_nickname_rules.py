"""Nicknames that impersonate or break URLs are refused (issue 14 tester fault 5).

Zero-width characters, RLO and other bidi controls, control characters,
``/ \\ ? # %``, spaces at the ends and look-alikes of another player's
nickname were accepted; they are refused on sign-up, on the profile page and
in admin, input is NFKC-normalised, and stored ones are repaired.
"""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import Profile, User
from accounts.nicknames import (
    NicknameProblem,
    nickname_problem,
    nickname_repair,
    nickname_skeleton,
)
from accounts.services import profile_set_nickname

pytestmark = pytest.mark.django_db

PASSWORD = "tile-wall-8421"

BAD = {
    "a\u200bb": NicknameProblem.INVISIBLE,  # zero-width space
    "ad\u200dmin": NicknameProblem.INVISIBLE,  # zero-width joiner
    "\u202egnp.exe": NicknameProblem.INVISIBLE,  # right-to-left override
    "abc\u2066x": NicknameProblem.INVISIBLE,  # left-to-right isolate
    "tab\there": NicknameProblem.INVISIBLE,
    "a/b": NicknameProblem.FORBIDDEN_CHAR,
    "..\\x": NicknameProblem.FORBIDDEN_CHAR,
    "who?": NicknameProblem.FORBIDDEN_CHAR,
    "#1": NicknameProblem.FORBIDDEN_CHAR,
    "100%": NicknameProblem.FORBIDDEN_CHAR,
    " lead": NicknameProblem.EDGE_SPACE,
    "trail ": NicknameProblem.EDGE_SPACE,
    "Ａlice": NicknameProblem.NOT_NORMALIZED,  # full-width A
}


@pytest.mark.parametrize("nickname,problem", BAD.items())
def test_the_rules_name_each_problem(nickname, problem):
    assert nickname_problem(nickname) is problem


ORDINARY = ["东风客", "西窗月abc", "Mr Lee", "雀神-2", "ann_1"]


@pytest.mark.parametrize("nickname", ORDINARY)
def test_ordinary_nicknames_pass(nickname):
    assert nickname_problem(nickname) is None
    assert nickname_skeleton(nickname) == nickname.casefold()


def test_look_alike_letters_fold_to_ascii():
    assert nickname_skeleton("Аlice") == "alice"  # Cyrillic А
    assert nickname_skeleton("рауpal") == "paypal"  # Cyrillic р, а, у
    assert nickname_repair("\u202eab/c ") == "abc"


def _user(username, nickname=None):
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD)
    if nickname is not None:
        profile_set_nickname(profile=user.profile, nickname=nickname)
    return user


@pytest.mark.parametrize("nickname", ["ev\u200bil", "a\u202eb", "x/y", "q?"])
def test_the_profile_page_refuses_them(client, nickname):
    me = _user("me")
    client.force_login(me)
    response = client.post(reverse("accounts:profile"), {"nickname": nickname})
    assert response.status_code == 200
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"
    with pytest.raises(ValueError):
        profile_set_nickname(profile=me.profile, nickname=nickname)


def test_the_profile_page_refuses_a_look_alike_and_normalises(client):
    _user("alice", "Alice")
    me = _user("me")
    client.force_login(me)
    response = client.post(reverse("accounts:profile"), {"nickname": "Аlice"})
    assert "看起来和已有玩家「Alice」的一样" in response.content.decode()
    client.post(reverse("accounts:profile"), {"nickname": "Ｂob"})  # full width
    me.profile.refresh_from_db()
    assert me.profile.nickname == "Bob"


def test_sign_up_refuses_a_look_alike_username(client, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    _user("alice", "alice")
    data = {
        "username": "аlice",  # Cyrillic а
        "email": "x@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 200
    assert not User.objects.filter(email="x@example.com").exists()
    assert "不能和已有玩家「alice」的昵称相同或相像" in response.content.decode()


def test_admin_refuses_them(client):
    staff = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    client.force_login(staff)
    target = _user("target")
    url = reverse("admin:accounts_profile_change", args=[target.profile.pk])
    response = client.post(
        url, {"user": target.pk, "nickname": "ta\u200brget2", "bot_level": ""}
    )
    assert response.status_code == 200
    target.profile.refresh_from_db()
    assert target.profile.nickname == "target"
    response = client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "newbie",
            "password1": "pw-new-user-9876",
            "password2": "pw-new-user-9876",
            "usable_password": "true",
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "0",
            "profile-MIN_NUM_FORMS": "0",
            "profile-MAX_NUM_FORMS": "1",
            "profile-0-nickname": "x/../y",
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="newbie").exists()


def test_the_data_migration_repairs_stored_nicknames():
    a, b, c = _user("u1"), _user("u2"), _user("u3")
    Profile.objects.filter(user=a).update(nickname="\u202eevil/")
    Profile.objects.filter(user=b).update(nickname="evil")  # the repair's clash
    Profile.objects.filter(user=c).update(nickname="\u200b")
    module = importlib.import_module("accounts.migrations.0008_repair_nicknames")
    module.repair(apps, None)
    names = dict(Profile.objects.values_list("user__username", "nickname"))
    assert names["u1"] == "evil2" and names["u2"] == "evil" and names["u3"] == "u3"
    assert all(nickname_problem(n) is None for n in names.values())
