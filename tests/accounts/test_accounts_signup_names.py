"""A chosen name may not be or look like another player's (fresh tester).

Sign-up accepted another player's nickname as the username: "西窗月" (demo2's
nickname) became a login name with the nickname 西窗月2 and the banner
"以 西窗月 成功登录"; "东风客 " was trimmed to 东风客 the same way. Now sign-up,
the profile page and admin refuse a name that is, or whose skeleton
(``nickname_skeleton``: NFKC, confusables) is, another player's nickname or
username (``accounts.services.name_clash``), and a new player's nickname is
their username.
"""

import pytest
from allauth.account.signals import user_signed_up
from django.urls import reverse

from accounts.models import Message, Profile, User
from accounts.selectors import user_display
from accounts.services import bot_account, name_clash, profile_set_nickname
from tests.accounts.test_accounts_admin import _user_add_data

pytestmark = pytest.mark.django_db

PASSWORD = "tile-wall-8421"
LIKE_NICKNAME = "用户名也是你的昵称，不能和已有玩家「%s」的昵称相同或相像，请换一个。"
LIKE_USERNAME = "这个用户名和其他玩家的用户名相同或相像，请换一个。"


@pytest.fixture
def demo2() -> User:
    user = User.objects.create_user("demo2", "demo2@example.com", PASSWORD)
    profile_set_nickname(profile=user.profile, nickname="西窗月")
    user2 = User.objects.create_user("demo1", "demo1@example.com", PASSWORD)
    profile_set_nickname(profile=user2.profile, nickname="东风客")
    return user


def _sign_up(client, username: str, email: str = "new@example.com"):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


@pytest.mark.parametrize(
    "username,other",
    [
        ("西窗月", "西窗月"),  # demo2's nickname, as the tester typed it
        ("东风客 ", "东风客"),  # trailing space: trimmed, then refused
        (" 东风客", "东风客"),
        ("西窗⽉", "西窗月"),  # ⽉ is the Kangxi radical U+2F49, NFKC → 月
    ],
)
def test_sign_up_refuses_another_players_nickname_or_look_alike(
    client, demo2, username, other
):
    before = User.objects.count()
    response = _sign_up(client, username)
    assert response.status_code == 200
    assert LIKE_NICKNAME % other in response.content.decode()
    assert User.objects.count() == before
    assert not User.objects.filter(email="new@example.com").exists()
    assert Profile.objects.filter(nickname__startswith=other).count() == 1


@pytest.mark.parametrize(
    "username",
    [
        "demo2",  # the same login name
        "DEMO2",
        "ｄｅｍｏ２",  # full-width letters and digit
        "dеmo2",  # Cyrillic е
    ],
)
def test_sign_up_refuses_another_players_username_or_look_alike(
    client, demo2, username
):
    before = User.objects.count()
    response = _sign_up(client, username)
    assert response.status_code == 200
    assert LIKE_USERNAME in response.content.decode()
    assert User.objects.count() == before


def test_a_clean_name_signs_up_with_the_username_as_nickname(client, demo2):
    response = _sign_up(client, "南风客")
    assert response.status_code == 302
    user = User.objects.get(email="new@example.com")
    assert user.username == "南风客"
    assert user.profile.nickname == "南风客"
    welcome = Message.objects.get(recipient=user)
    assert "另一位玩家" not in welcome.body
    page = client.get(response.url).content.decode()
    assert "以 南风客 成功登录" in page


def test_the_english_form_words_the_refusal(client, demo2):
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("account_signup"),
        {
            "username": "西窗月",
            "email": "new@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "The username is also your nickname" in response.content.decode()


def test_a_nickname_may_not_be_or_look_like_another_players_username(client, demo2):
    me = User.objects.create_user("me", "me@example.com", PASSWORD)
    client.force_login(me)
    for nickname in ("demo2", "Demo2", "ｄｅｍｏ２", "dеmo2"):
        response = client.post(reverse("accounts:profile"), {"nickname": nickname})
        assert response.status_code == 200
        assert "这个昵称和其他玩家的用户名相同或相像，请换一个。" in (
            response.content.decode()
        )
        with pytest.raises(ValueError, match="another player"):
            profile_set_nickname(profile=me.profile, nickname=nickname)
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"
    # one's own username is no clash
    profile_set_nickname(profile=demo2.profile, nickname="Demo2")
    assert demo2.profile.nickname == "Demo2"


def test_name_clash_names_the_other_players_nickname(demo2):
    clash = name_clash(name="ｄｅｍｏ２")
    assert clash is not None
    assert (clash.nickname, clash.on_nickname, clash.same) == ("西窗月", False, False)
    clash = name_clash(name="西窗月")
    assert clash is not None
    assert (clash.nickname, clash.on_nickname, clash.same) == ("西窗月", True, True)
    assert name_clash(name="西窗月", exclude_user_id=demo2.pk) is None
    assert name_clash(name="南风客") is None


def test_admin_refuses_such_usernames(client, demo2):
    staff = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    client.force_login(staff)
    response = client.post(
        reverse("admin:accounts_user_add"), _user_add_data("西窗月", "")
    )
    assert response.status_code == 200
    assert LIKE_NICKNAME % "西窗月" in response.content.decode()
    assert not User.objects.filter(username="西窗月").exists()
    target = User.objects.create_user("target", "t@example.com", PASSWORD)
    url = reverse("admin:accounts_user_change", args=[target.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        {
            "username": "东风客",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "1",
            "profile-MIN_NUM_FORMS": "0",
            "profile-MAX_NUM_FORMS": "1",
            "profile-0-id": str(target.profile.pk),
            "profile-0-user": str(target.pk),
            "profile-0-nickname": "target",
        }
    )
    data.pop("password", None)
    data.pop("last_login", None)
    data.pop("date_joined", None)
    data["groups"] = []
    data["user_permissions"] = []
    response = client.post(url, data)
    assert response.status_code == 200
    assert LIKE_NICKNAME % "东风客" in response.content.decode()
    target.refresh_from_db()
    assert target.username == "target"


def test_the_welcome_message_tells_of_a_numbered_nickname(demo2):
    # only reachable without the form's check (a script, or a race with a
    # player taking the nickname meanwhile): the player is told
    user = User.objects.create_user("西窗月", "late@example.com", PASSWORD)
    assert user.profile.nickname == "西窗月2"
    user_signed_up.send(sender=User, request=None, user=user)
    body = Message.objects.get(recipient=user).body
    assert "「西窗月」作昵称，所以你的昵称是「西窗月2」" in body


def test_the_login_banner_names_the_player_by_nickname(client, demo2):
    # demo2 logs in with its username; the banner names it as others see it
    response = client.post(
        reverse("account_login"), {"login": "demo2", "password": PASSWORD}
    )
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "以 西窗月 成功登录" in page
    assert "以 demo2 成功登录" not in page


def test_an_account_without_a_profile_is_shown_by_username(demo2):
    user = User.objects.create_user("bare", "bare@example.com", PASSWORD)
    Profile.objects.filter(user=user).delete()
    assert user_display(User.objects.get(pk=user.pk)) == "bare"
    assert user_display(demo2) == "西窗月"


BOT_NAME = (
    "以 bot- 开头或像“电脑（困难）”这样的名字留给电脑对手，以免冒充电脑，请换一个。"
)
BOT_LIKE = [
    "bot-hard2",  # the fresh tester's, next to the bot account bot-hard
    "bot-easy",
    "BOT-Normal",
    "ｂｏｔ－hard",  # full-width
    "bot_hard",
    "电脑（困难）2",
    "电脑(简单)",
    "电脑 （困难）",
    "Computer (Hard)",
    "computer",
]


@pytest.fixture
def bots() -> None:
    for level in ("easy", "normal", "hard"):
        bot_account(level=level)  # the bots' own accounts are still made


@pytest.mark.parametrize("username", BOT_LIKE)
def test_sign_up_refuses_a_name_posing_as_a_bot(client, bots, username):
    before = User.objects.count()
    response = _sign_up(client, username)
    assert response.status_code == 200
    html = response.content.decode()
    assert BOT_NAME in html
    assert User.objects.count() == before


@pytest.mark.parametrize("username", ["botany", "robot-1", "电脑高手", "computers"])
def test_names_merely_containing_bot_words_sign_up(client, bots, username):
    assert _sign_up(client, username).status_code == 302
    assert User.objects.get(email="new@example.com").profile.nickname == username


def test_the_bot_name_refusal_is_translated(client, bots):
    client.cookies["django_language"] = "en"
    response = _sign_up(client, "bot-hard2")
    assert "are kept for the computer opponents" in response.content.decode()


def test_the_profile_page_refuses_a_bot_nickname(client, bots):
    me = User.objects.create_user("me", "me@example.com", PASSWORD)
    client.force_login(me)
    for nickname in ("电脑（困难）", "电脑", "bot-hard2", "Computer (Easy)"):
        response = client.post(reverse("accounts:profile"), {"nickname": nickname})
        assert response.status_code == 200
        assert BOT_NAME in response.content.decode()
        with pytest.raises(ValueError, match="reserved for the bots"):
            profile_set_nickname(profile=me.profile, nickname=nickname)
    me.profile.refresh_from_db()
    assert me.profile.nickname == "me"


def test_admin_refuses_bot_names_but_edits_a_bot(client, bots):
    staff = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    client.force_login(staff)
    response = client.post(
        reverse("admin:accounts_user_add"), _user_add_data("bot-hard2", "")
    )
    assert response.status_code == 200
    assert BOT_NAME in response.content.decode()
    response = client.post(
        reverse("admin:accounts_user_add"), _user_add_data("newbie", "电脑（普通）")
    )
    assert response.status_code == 200
    assert BOT_NAME in response.content.decode()
    assert not User.objects.filter(username__in=["bot-hard2", "newbie"]).exists()
    # a bot's own names are no clash for the bot (staff may edit its account)
    bot = User.objects.get(username="bot-hard")
    assert name_clash(name="bot-hard", exclude_user_id=bot.pk) is None
    assert name_clash(name=bot.profile.nickname, exclude_user_id=bot.pk) is None
    profile_set_nickname(profile=bot.profile, nickname="电脑（困难）")
    assert bot.profile.nickname == "电脑（困难）"
