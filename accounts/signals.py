"""Receivers: a profile for every new user; a welcome message after site sign-up."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_noop

from .formats import thousands
from .models import Profile, User
from .services import inbox_send, profile_create


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile_for_new_user(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """Give each newly created user a profile with the starting grant."""
    if created and not raw:
        profile_create(user=instance)


WELCOME_SUBJECT = gettext_noop("欢迎来到二人麻将")
WELCOME_BODY = gettext_noop(
    "你好，%(name)s！你的账户已经建好，并获赠 %(coins)s 游戏币。"
    "去大厅找一张桌子坐下吧，祝你自摸连连。"
)
RENAMED_BODY = gettext_noop(
    "另一位玩家刚刚用了「%(username)s」作昵称，所以你的昵称是「%(nickname)s」；"
    "可以在个人资料页修改。"
)


@receiver(user_signed_up)
def welcome_new_player(sender: Any, request: Any, user: User, **kwargs: Any) -> None:
    """Send the system welcome message, shown in the reader's language
    (stored in Chinese with its msgids, ``accounts.Message.i18n``); it says
    so when the nickname is not the username."""
    # "10,000" as the home page and the top bar write it, not "10000"
    coins = thousands(settings.MAHJONG_STARTING_COINS)
    params = {"name": user.get_username(), "coins": coins}
    parts: list[tuple[str, dict[str, str]]] = [(WELCOME_BODY, params)]
    nickname = Profile.objects.filter(user=user).values_list("nickname", flat=True)
    shown = nickname.first()
    if shown is not None and shown != user.get_username():
        # only after a race: the sign-up form refuses a taken or look-alike
        # username, so the nickname is the username (accounts.services)
        parts.append(
            (RENAMED_BODY, {"username": user.get_username(), "nickname": shown})
        )
    inbox_send(
        recipient=user,
        subject=WELCOME_SUBJECT,
        body="\n\n".join(msgid % values for msgid, values in parts),
        i18n={
            "subject": [WELCOME_SUBJECT],
            "body": [[msgid, values] for msgid, values in parts],
        },
    )
