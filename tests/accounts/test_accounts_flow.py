"""The player's way through the site: sign up, log in, profile, inbox, log out."""

import re

import pytest
from django.urls import reverse

from accounts.models import Message, Profile, User
from accounts.services import inbox_send

pytestmark = pytest.mark.django_db

PASSWORD = "tile-wall-8421"


def _unread_badge(html: str) -> str | None:
    match = re.search(r'data-testid="unread-badge">(\d+)<', html)
    return match.group(1) if match else None


def test_sign_up_log_in_profile_inbox_log_out(client, settings):
    settings.MAHJONG_STARTING_COINS = 12_345

    response = client.post(
        reverse("account_signup"),
        {
            "username": "xiaoming",
            "email": "xiaoming@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="xiaoming")
    assert user.email == "xiaoming@example.com"

    profile = Profile.objects.get(user=user)
    assert profile.coins == 12_345
    assert profile.rating_points == 0
    assert profile.nickname == "xiaoming"
    # the starting grant is a ledger entry: the balance is the ledger's sum
    grant = user.ledger.get(currency="coins")
    assert (grant.kind, grant.amount, grant.balance_after) == ("grant", 12_345, 12_345)
    assert not user.ledger.filter(currency="points").exists()  # 0 points: no entry

    # Sign-up logs the player in and sends the welcome message.
    home = client.get(reverse("home")).content.decode()
    assert "xiaoming" in home
    assert "12,345" in home
    assert "雀蛋" in home  # level of 0 实力积分 in the active scheme
    assert _unread_badge(home) == "1"
    # tester's fault: the welcome said "获赠 12345 游戏币", unlike every other page
    assert "获赠 12,345 游戏币" in user.inbox_messages.get().body

    client.post(reverse("account_logout"))
    assert "_auth_user_id" not in client.session

    # Log in with the username, then with the e-mail address.
    response = client.post(
        reverse("account_login"), {"login": "xiaoming", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.post(reverse("account_logout"))
    response = client.post(
        reverse("account_login"),
        {"login": "xiaoming@example.com", "password": PASSWORD},
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    staff = User.objects.create_user("moderator", "mod@example.com", PASSWORD)
    inbox_send(
        recipient=user,
        sender=staff,
        subject="举报处理结果",
        body="你举报的对局已处理。",
    )
    home = client.get(reverse("home")).content.decode()
    assert _unread_badge(home) == "2"

    inbox = client.get(reverse("accounts:inbox")).content.decode()
    assert "举报处理结果" in inbox
    assert "你举报的对局已处理。" in inbox
    assert "moderator" in inbox
    assert "欢迎来到二人麻将" in inbox
    assert inbox.count('class="new-tag"') == 2  # still highlighted on this render
    assert _unread_badge(inbox) is None  # header counts after marking read
    assert Message.objects.filter(recipient=user, read_at__isnull=True).count() == 0

    home = client.get(reverse("home")).content.decode()
    assert _unread_badge(home) is None
    again = client.get(reverse("accounts:inbox")).content.decode()
    assert 'class="new-tag"' not in again

    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    home = client.get(reverse("home")).content.decode()
    assert reverse("account_login") in home
    assert "xiaoming" not in home


def test_login_with_wrong_password_is_refused(client):
    User.objects.create_user("wang", "wang@example.com", PASSWORD)
    response = client.post(
        reverse("account_login"), {"login": "wang", "password": "not-it-123"}
    )
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert 'class="form-errors"' in response.content.decode()


def test_signup_refuses_duplicate_email(client):
    User.objects.create_user("first", "same@example.com", PASSWORD)
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(
        user=User.objects.get(username="first"),
        email="same@example.com",
        primary=True,
        verified=True,
    )
    response = client.post(
        reverse("account_signup"),
        {
            "username": "second",
            "email": "same@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="second").exists()


def test_password_change(client):
    user = User.objects.create_user("li", "li@example.com", PASSWORD)
    client.force_login(user)
    response = client.post(
        reverse("account_change_password"),
        {
            "oldpassword": PASSWORD,
            "password1": "new-pass-5566",
            "password2": "new-pass-5566",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-pass-5566")
    assert not user.check_password(PASSWORD)


def test_password_reset_by_email(client, mailoutbox):
    user = User.objects.create_user("zhao", "zhao@example.com", PASSWORD)
    response = client.post(
        reverse("account_reset_password"), {"email": "zhao@example.com"}
    )
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["zhao@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", mail.body)
    assert link, mail.body

    response = client.get(link.group(1))
    assert response.status_code == 302  # the key moves into the session
    set_password_url = response["Location"]
    response = client.post(
        set_password_url,
        {"password1": "reset-pass-9911", "password2": "reset-pass-9911"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("reset-pass-9911")


def test_every_new_user_gets_a_profile_with_the_starting_grant(settings):
    settings.MAHJONG_STARTING_COINS = 777
    user = User.objects.create_user("sun", "sun@example.com", PASSWORD)
    assert user.profile.coins == 777
    assert user.profile.nickname == "sun"
    admin = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    assert admin.profile.coins == 777


def test_nickname_can_be_changed_on_profile_page(client):
    user = User.objects.create_user("zhou", "zhou@example.com", PASSWORD)
    client.force_login(user)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "雀蛋" in page and "雀仔" in page  # current level and the next one
    response = client.post(reverse("accounts:profile"), {"nickname": "  周大侠 "})
    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.nickname == "周大侠"
    response = client.post(reverse("accounts:profile"), {"nickname": "   "})
    assert response.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.nickname == "周大侠"


def test_account_pages_need_login(client):
    for name in ("accounts:profile", "accounts:inbox"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))


def test_login_field_is_marked_as_a_username_for_autofill(client):
    """Fresh tester: the login field takes a username or an e-mail but said
    autocomplete="email", so browsers offered the address, not the name."""
    html = client.get(reverse("account_login")).content.decode()
    field = re.search(r"<input[^>]*name=\"login\"[^>]*>", html)
    assert field, html
    assert 'autocomplete="username"' in field.group(0)
    assert 'autocomplete="email"' not in field.group(0)
    password = re.search(r"<input[^>]*name=\"password\"[^>]*>", html)
    assert password and 'autocomplete="current-password"' in password.group(0)
