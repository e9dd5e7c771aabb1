"""Validators of nicknames and usernames (the username is the first nickname).

The rules are :mod:`accounts.nicknames`; these word them for the player and
add the one check that needs the database: a nickname must not look like
another player's (``accounts.services.nickname_lookalike``).
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


def validate_nickname(value: str, *, exclude_profile_id: int | None = None) -> None:
    """Raise ``ValidationError`` when ``value`` may not be a nickname (the
    rules of :mod:`accounts.nicknames`, or it looks like another player's)."""
    from .services import nickname_lookalike

    problem = nickname_problem(value)
    if problem is not None:
        raise ValidationError(MESSAGES[problem], code=problem.value)
    other = nickname_lookalike(nickname=value, exclude_profile_id=exclude_profile_id)
    if other is not None:
        raise ValidationError(
            _("这个昵称看起来和已有玩家「%(other)s」的一样，请换一个。"),
            code="lookalike",
            params={"other": other},
        )


def validate_username_as_nickname(value: str) -> None:
    """A new username becomes the player's nickname: the same rules."""
    validate_nickname(value)


def username_validators() -> list[Any]:
    """allauth's ``ACCOUNT_USERNAME_VALIDATORS``: Django's, then ours."""
    return [UnicodeUsernameValidator(), validate_username_as_nickname]


USERNAME_VALIDATORS = username_validators()
"""The list ``ACCOUNT_USERNAME_VALIDATORS`` points at (allauth wants a list)."""
