"""Forms of the games app: the filters of "我的对局" (the player's hands)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.rulesets import NAMES


def _ruleset_choices() -> list[tuple[str, Any]]:
    from games.display.names import ruleset_name

    return [("", _("全部规则")), *((n, ruleset_name(n)) for n in NAMES)]


class HandFilterForm(forms.Form):
    """GET filters of the player's hands (rule set, result, opponent, dates).

    Invalid values are dropped (the list is shown unfiltered by them, the
    valid ones still apply) and the page says which and why
    (:meth:`problems`), never an error page.
    """

    ruleset = forms.ChoiceField(
        label=_("规则"),
        required=False,
        choices=(),
        error_messages={"invalid_choice": _("没有这套规则。")},
    )
    result = forms.ChoiceField(
        label=_("结果"),
        required=False,
        error_messages={"invalid_choice": _("只能是胜、负、流局或作废。")},
        choices=[
            ("", _("全部结果")),
            ("win", _("胜")),
            ("loss", _("负")),
            ("draw", _("流局")),
            ("annulled", _("作废")),
        ],
    )
    opponent = forms.CharField(
        label=_("对手"),
        required=False,
        max_length=40,
        error_messages={"max_length": _("昵称最多 40 个字。")},
    )
    date_from = forms.DateField(
        label=_("从"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": _("日期要写成 2026-12-03 这样。")},
    )
    date_to = forms.DateField(
        label=_("到"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": _("日期要写成 2026-12-03 这样。")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["ruleset"]).choices = _ruleset_choices()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("结束日期早于开始日期。"))
        return data

    def problems(self) -> list[str]:
        """Each refused filter in words: "结果：选择一个有效的选项…"."""
        if not self.is_bound:
            return []
        self.is_valid()
        return [
            _("%(field)s：%(error)s（这个条件没有使用）")
            % {"field": self.fields[name].label, "error": error}
            for name, errors in self.errors.items()
            if name in self.fields
            for error in errors
        ]

    def filters(self) -> dict[str, Any]:
        """The valid filters as keyword arguments of ``player_hands``."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {
            key: data.get(key) or None
            for key in ("ruleset", "result", "opponent", "date_from", "date_to")
            if key not in self.errors
        }
