"""Nicknames are unique ignoring case: profile form, sign-up default, database."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from accounts.services import nickname_free, profile_set_nickname

pytestmark = pytest.mark.django_db

PASSWORD = "tile-wall-8421"
TAKEN = "这个昵称已被其他玩家使用，请换一个。"


def _user(username: str, nickname: str | None = None) -> User:
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD)
    if nickname is not None:
        profile_set_nickname(profile=user.profile, nickname=nickname)
    return user


def test_profile_form_refuses_another_players_nickname(client):
    _user("demo1", "东风客")
    me = _user("me")
    client.force_login(me)
    response = client.post(reverse("accounts:profile"), {"nickname": "东风客"})
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"


def test_profile_form_compares_nicknames_ignoring_case(client):
    _user("ann", "Ann")
    me = _user("me")
    client.force_login(me)
    response = client.post(reverse("accounts:profile"), {"nickname": "  aNN "})
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"


def test_player_may_keep_or_recase_own_nickname(client):
    me = _user("me", "Dragon")
    client.force_login(me)
    response = client.post(reverse("accounts:profile"), {"nickname": "DRAGON"})
    assert response.status_code == 302
    me.profile.refresh_from_db()
    assert me.profile.nickname == "DRAGON"


def test_service_refuses_taken_nickname():
    _user("demo1", "东风客")
    me = _user("me")
    with pytest.raises(ValueError, match="another player"):
        profile_set_nickname(profile=me.profile, nickname="东风客")
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"


def test_database_constraint_refuses_case_insensitive_duplicate():
    _user("ann", "Ann")
    other = _user("bob")
    other.profile.nickname = "ANN"
    with pytest.raises(IntegrityError), transaction.atomic():
        other.profile.save(update_fields=["nickname"])


def test_signup_refuses_a_username_that_is_another_players_nickname(client):
    # Someone already calls themselves "XiaoMing": the username xiaoming was
    # once accepted and its nickname silently became xiaoming2 (fresh tester)
    _user("early", "XiaoMing")
    response = client.post(
        reverse("account_signup"),
        {
            "username": "xiaoming",
            "email": "xiaoming@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "「XiaoMing」的昵称相同或相像" in response.content.decode()
    assert not User.objects.filter(username="xiaoming").exists()


def test_nickname_free_picks_lowest_free_suffix_within_32_characters():
    _user("a", "东风客")
    _user("b", "东风客2")
    assert nickname_free(base="东风客") == "东风客3"
    long = "x" * 32
    _user("c", long)
    assert nickname_free(base=long) == "x" * 31 + "2"


@pytest.mark.django_db(transaction=True)
def test_migration_renames_existing_clashes_before_adding_the_constraint():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("accounts", "0002_level_schemes")]
    after = [("accounts", "0003_profile_nickname_unique_ci")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldUser = old.get_model("accounts", "User")
    OldProfile = old.get_model("accounts", "Profile")
    for i, nick in enumerate(["东风客", "Ann", "ann", "东风客", "东风客2"]):
        user = OldUser.objects.create(username=f"u{i}")
        OldProfile.objects.create(user=user, nickname=nick)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    state = executor.loader.project_state(after).apps
    nicks = list(
        state.get_model("accounts", "Profile")
        .objects.order_by("user__username")
        .values_list("nickname", flat=True)
    )
    # the oldest keeps its name; later clashes get the lowest free suffix
    assert nicks == ["东风客", "Ann", "ann2", "东风客3", "东风客2"]
    # leave the schema as the other tests expect it: every migration applied
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
