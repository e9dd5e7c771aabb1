"""Forms of the games app: the filters of "我的对局" (the player's hands)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.rulesets import NAMES


def _ruleset_choices() -> list[tuple[str, Any]]:
    from games.templatetags.mj_table import ruleset_name

    return [("", _("全部规则")), *((n, ruleset_name(n)) for n in NAMES)]


class HandFilterForm(forms.Form):
    """GET filters of the player's hands (rule set, result, opponent, dates).

    Invalid values are dropped (the list is shown unfiltered by them), never
    an error page.
    """

    ruleset = forms.ChoiceField(label=_("规则"), required=False, choices=())
    result = forms.ChoiceField(
        label=_("结果"),
        required=False,
        choices=[
            ("", _("全部结果")),
            ("win", _("胜")),
            ("loss", _("负")),
            ("draw", _("流局")),
            ("annulled", _("作废")),
        ],
    )
    opponent = forms.CharField(label=_("对手"), required=False, max_length=40)
    date_from = forms.DateField(
        label=_("从"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("到"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = _ruleset_choices()

    def filters(self) -> dict[str, Any]:
        """The valid filters as keyword arguments of ``player_hands``."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {
            key: data.get(key) or None
            for key in ("ruleset", "result", "opponent", "date_from", "date_to")
            if key not in self.errors
        }
