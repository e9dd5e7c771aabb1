"""The demo data command: two players, a moderator and the bots, idempotent,
logins printed."""

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

    assert User.objects.count() == 6
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


def test_seed_demo_makes_a_moderator_who_reads_the_reports_in_admin(client):
    """The fresh tester found no moderator login and made one in a shell."""
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())  # idempotent

    mod = User.objects.get(username="demo-mod")
    assert list(mod.groups.values_list("name", flat=True)) == ["moderator"]
    assert mod.is_staff and not mod.is_superuser
    assert mod.has_perm("moderation.decide_case")
    assert not mod.has_perm("accounts.change_profile")  # only the group's rights
    assert "demo-mod" in out.getvalue() and "mahjong-demo-mod" in out.getvalue()

    response = client.post(
        reverse("account_login"),
        {"login": "demo-mod@example.com", "password": "mahjong-demo-mod"},
    )
    assert response.status_code == 302
    cases = client.get(reverse("admin:moderation_case_changelist"))
    assert cases.status_code == 200
    reports = client.get(reverse("admin:moderation_report_changelist"))
    assert reports.status_code == 200
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 403
