"""Create the demo accounts and the bot accounts (idempotent); print logins."""

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.ledger import POINTS, Movement, ledger_post
from accounts.models import LedgerEntry, Message, User
from accounts.services import BOT_NICKNAMES, bot_account, inbox_send, profile_create

# (username, e-mail, password, nickname, 实力积分); demo data only.
DEMO_PLAYERS = [
    ("demo1", "demo1@example.com", "mahjong-demo-1", "东风客", 1600),
    ("demo2", "demo2@example.com", "mahjong-demo-2", "西窗月", 450),
]

# (username, e-mail, password, nickname): staff in the ``moderator`` group
# (made by moderation's migration 0002), so the reports can be tried in admin
# without createsuperuser; not a superuser, it has only the group's rights.
DEMO_MODERATOR = ("demo-mod", "demo-mod@example.com", "mahjong-demo-mod", "巡场员")

# The demo accounts' welcome message.  A message is stored text, read in the
# language it was written in (a real sign-up's welcome is written in the
# language the player signed up in, accounts/signals.py).  The demo accounts
# are made by this command, with no reader and no language yet, and are tried
# in both languages, so their message is written in both: Chinese first.
DEMO_SUBJECT = "欢迎来到二人麻将 · Welcome to Two-Player Mahjong"
DEMO_BODY = (
    "这是一个演示账户。去大厅开一桌，和电脑或另一位演示玩家过过招吧。\n\n"
    "This is a demo account. Open a table in the lobby and play the computer"
    " or the other demo player."
)


class Command(BaseCommand):
    help = (
        "Create two demo players, a demo moderator and the bot accounts"
        " (idempotent); print logins."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            for username, email, password, nickname, points in DEMO_PLAYERS:
                user = self._user(username, email)
                user.set_password(password)
                user.save()
                profile = profile_create(user=user)
                profile.nickname = nickname
                profile.save(update_fields=["nickname"])
                if profile.rating_points < points:  # demo points, through the ledger
                    ledger_post(
                        movements=[
                            Movement(
                                user.pk,
                                POINTS,
                                points - profile.rating_points,
                                LedgerEntry.Kind.GRANT,
                                reason="demo data",
                            )
                        ]
                    )
                if not Message.objects.filter(recipient=user).exists():
                    inbox_send(recipient=user, subject=DEMO_SUBJECT, body=DEMO_BODY)
            self._moderator()
            for level in BOT_NICKNAMES:
                bot_account(level=level)  # the bots play through the server only

        self.stdout.write(self.style.SUCCESS("Demo accounts ready (演示账户):"))
        for username, email, password, nickname, _points in DEMO_PLAYERS:
            self.stdout.write(
                f"  login {username} or {email}  password {password}  ({nickname})"
            )
        username, email, password, nickname = DEMO_MODERATOR
        self.stdout.write(
            f"  login {username} or {email}  password {password}  ({nickname},"
            " moderator: /admin/ → 举报与处理)"
        )
        bots = ", ".join(f"bot-{lv} ({n})" for lv, n in BOT_NICKNAMES.items())
        self.stdout.write(f"  bot accounts: {bots}, no password login")

    def _moderator(self) -> None:
        group = Group.objects.filter(name="moderator").first()
        if group is None:
            raise CommandError("the moderator group is missing: run migrate first")
        username, email, password, nickname = DEMO_MODERATOR
        user = self._user(username, email)
        user.set_password(password)
        user.is_staff = True
        user.is_superuser = False
        user.save()
        user.groups.add(group)
        profile = profile_create(user=user)
        profile.nickname = nickname
        profile.save(update_fields=["nickname"])

    def _user(self, username: str, email: str) -> User:
        user, _created = User.objects.get_or_create(
            username=username, defaults={"email": email}
        )
        EmailAddress.objects.update_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        return user
