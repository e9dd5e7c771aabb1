"""Create the demo accounts (idempotent) and print how to log in."""

from typing import Any

from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Message, User
from accounts.services import inbox_send, profile_create

# (username, e-mail, password, nickname, 实力积分); demo data only.
DEMO_PLAYERS = [
    ("demo1", "demo1@example.com", "mahjong-demo-1", "东风客", 1600),
    ("demo2", "demo2@example.com", "mahjong-demo-2", "西窗月", 450),
]
BOT = ("bot", "bot@example.com", "电脑（普通）")

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
    help = "Create two demo players and a bot account (idempotent); print logins."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            for username, email, password, nickname, points in DEMO_PLAYERS:
                user = self._user(username, email)
                user.set_password(password)
                user.save()
                profile = profile_create(user=user)
                profile.nickname = nickname
                profile.rating_points = max(profile.rating_points, points)
                profile.save(update_fields=["nickname", "rating_points"])
                if not Message.objects.filter(recipient=user).exists():
                    inbox_send(recipient=user, subject=DEMO_SUBJECT, body=DEMO_BODY)
            username, email, nickname = BOT
            bot = self._user(username, email)
            bot.set_unusable_password()  # the bot plays through the server only
            bot.save()
            profile = profile_create(user=bot)
            profile.nickname = nickname
            profile.is_bot = True
            profile.save(update_fields=["nickname", "is_bot"])

        self.stdout.write(self.style.SUCCESS("Demo accounts ready (演示账户):"))
        for username, email, password, nickname, _points in DEMO_PLAYERS:
            self.stdout.write(
                f"  login {username} or {email}  password {password}  ({nickname})"
            )
        self.stdout.write(f"  bot account: {BOT[0]} ({BOT[2]}), no password login")

    def _user(self, username: str, email: str) -> User:
        user, _created = User.objects.get_or_create(
            username=username, defaults={"email": email}
        )
        EmailAddress.objects.update_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        return user
