"""Validators of nicknames and usernames (the username is the first nickname).

The rules are :mod:`accounts.nicknames`; these word them for the player and
add the one check that needs the database: a chosen name must not be or look
like another player's nickname or username (``accounts.services.name_clash``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .nicknames import NicknameProblem, nickname_problem

MESSAGES = {
    NicknameProblem.BLANK: _("昵称不能为空。"),
    NicknameProblem.TOO_LONG: _("昵称最多 32 个字。"),
    NicknameProblem.NOT_NORMALIZED: _(
        "昵称里有全角字母或其他兼容字符，请改用普通写法（例如 Ａ 写作 A）。"
    ),
    NicknameProblem.INVISIBLE: _(
        "昵称不能包含看不见的字符或控制字符（如零宽字符、文字方向控制符）。"
    ),
    NicknameProblem.FORBIDDEN_CHAR: _("昵称不能包含 / \\ ? # % 这些字符。"),
    NicknameProblem.EDGE_SPACE: _("昵称的开头和结尾不能是空格。"),
}


TAKEN = _("这个昵称已被其他玩家使用，请换一个。")

BOT_NAME = _(
    "以 bot- 开头或像“电脑（困难）”这样的名字留给电脑对手，以免冒充电脑，请换一个。"
)
"""A name reserved for the bots (``NameClash.bot``): username or nickname."""


def validate_nickname(value: str, *, exclude_user_id: int | None = None) -> None:
    """Raise ``ValidationError`` when ``value`` may not be the nickname of the
    player ``exclude_user_id`` (None: a new player): the rules of
    :mod:`accounts.nicknames`, or it is or looks like another player's
    nickname or username (``accounts.services.name_clash``)."""
    from .services import name_clash

    problem = nickname_problem(value)
    if problem is not None:
        raise ValidationError(MESSAGES[problem], code=problem.value)
    clash = name_clash(name=value, exclude_user_id=exclude_user_id)
    if clash is None:
        return
    if clash.bot:
        raise ValidationError(BOT_NAME, code="bot")
    if not clash.on_nickname:
        raise ValidationError(
            _("这个昵称和其他玩家的用户名相同或相像，请换一个。"), code="username"
        )
    if clash.same:
        raise ValidationError(TAKEN, code="taken")
    raise ValidationError(
        _("这个昵称看起来和已有玩家「%(other)s」的一样，请换一个。"),
        code="lookalike",
        params={"other": clash.nickname},
    )


def validate_username(value: str, *, exclude_user_id: int | None = None) -> None:
    """Raise ``ValidationError`` when ``value`` may not be the username of
    the player ``exclude_user_id`` (None: sign-up). The username is the
    player's first nickname, so: the rules of :mod:`accounts.nicknames`, and
    it is not and does not look like another player's nickname or username
    (``accounts.services.name_clash``: "西窗月" when someone is called so,
    "ｄｅｍｏ２" or Cyrillic "dеmo2" when someone logs in as demo2)."""
    from .services import name_clash

    problem = nickname_problem(value)
    clash = name_clash(name=value, exclude_user_id=exclude_user_id)
    # the impersonation is named first: "西窗⽉" is refused as looking like
    # 西窗月, not only as un-normalised
    if clash is not None and clash.bot:
        raise ValidationError(BOT_NAME, code="bot")
    if clash is not None and clash.on_nickname:
        raise ValidationError(
            _(
                "用户名也是你的昵称，不能和已有玩家「%(other)s」的昵称相同或相像，"
                "请换一个。"
            ),
            code="nickname",
            params={"other": clash.nickname},
        )
    if clash is not None:
        raise ValidationError(
            _("这个用户名和其他玩家的用户名相同或相像，请换一个。"), code="username"
        )
    if problem is not None:
        raise ValidationError(MESSAGES[problem], code=problem.value)


def validate_username_as_nickname(value: str) -> None:
    """allauth's sign-up validator: :func:`validate_username` of a new player."""
    validate_username(value)


def username_validators() -> list[Any]:
    """allauth's ``ACCOUNT_USERNAME_VALIDATORS``: ours, then Django's (the
    first refusal is shown: an impersonation such as "西窗⽉", with the Kangxi
    radical ⽉, is named as such rather than as an invalid character)."""
    return [validate_username_as_nickname, UnicodeUsernameValidator()]


USERNAME_VALIDATORS = username_validators()
"""The list ``ACCOUNT_USERNAME_VALIDATORS`` points at (allauth wants a list)."""
