"""The demo data command: two players and a bot, idempotent, logins printed."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import Profile, User

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_its_logins_work(client):
    first = StringIO()
    call_command("seed_demo", stdout=first)
    call_command("seed_demo", stdout=StringIO())

    assert User.objects.count() == 5
    assert Profile.objects.filter(is_bot=True).count() == 3
    bot = User.objects.get(username="bot-normal")
    assert not bot.has_usable_password()
    assert bot.profile.is_bot and bot.profile.bot_level == "normal"
    assert bot.profile.nickname == "电脑（普通）"
    demo1 = User.objects.get(username="demo1").profile
    assert demo1.rating_points == 1600  # through the ledger: balance == entries
    assert (
        sum(
            demo1.user.ledger.filter(currency="points").values_list("amount", flat=True)
        )
        == 1600
    )
    assert User.objects.get(username="demo1").inbox_messages.count() == 1

    out = first.getvalue()
    assert "demo1" in out and "mahjong-demo-1" in out
    assert "demo2" in out and "mahjong-demo-2" in out
    response = client.post(
        reverse("account_login"),
        {"login": "demo2@example.com", "password": "mahjong-demo-2"},
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="demo2").pk)
