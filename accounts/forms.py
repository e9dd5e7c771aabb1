"""Forms: the login, the player's nickname, the staff's inbox message and ledger
correction."""

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _

from .models import LedgerEntry, Profile
from .nicknames import nickname_normalize
from .validators import validate_nickname, validate_username


class LoginForm(AllauthLoginForm):
    """allauth's login form (``ACCOUNT_FORMS["login"]``) with its one field
    marked ``autocomplete="username"``: the field takes a username or an
    e-mail address (``ACCOUNT_LOGIN_METHODS``), and allauth marks that case
    ``email``, so a password manager offered the address and not the name the
    player signed up with."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].widget.attrs["autocomplete"] = "username"


class NicknameForm(forms.ModelForm):
    """Change the nickname shown at tables."""

    class Meta:
        model = Profile
        fields = ["nickname"]
        help_texts = {"nickname": _("对局时对手看到的名字，最多 32 个字。")}

    def clean_nickname(self) -> str:
        return clean_nickname_field(self)


def clean_nickname_field(form: forms.ModelForm) -> str:
    """A profile form's nickname: normalised (NFKC, ends trimmed), then the
    rules of :mod:`accounts.nicknames`, then not another player's nickname or
    username nor a look-alike (``accounts.services.name_clash``)."""
    nickname = nickname_normalize(form.cleaned_data.get("nickname") or "")
    validate_nickname(nickname, exclude_user_id=form.instance.user_id)
    return nickname


class ProfileAdminForm(forms.ModelForm):
    """Staff's profile form (the user's inline and the profile page): the
    nickname under the same rules as the player's own."""

    class Meta:
        model = Profile
        fields = ["user", "nickname", "is_bot", "bot_level"]

    def clean_nickname(self) -> str:
        return clean_nickname_field(self)


class UserAdminChangeForm(UserChangeForm):
    """Staff's user form: a changed username follows the sign-up rules."""

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_username(username, exclude_user_id=self.instance.pk)
        return username


class UserAdminCreationForm(AdminUserCreationForm):
    """Staff's "add user" form: the username follows the sign-up rules."""

    def clean_username(self) -> str:
        # Django's returns None (typed str) when the username is taken
        username: str = super().clean_username()
        if username:
            validate_username(username)
        return username


class InboxComposeForm(forms.Form):
    """Staff: the subject and body of a message to the selected users."""

    subject = forms.CharField(label=_("标题"), max_length=120)
    body = forms.CharField(label=_("内容"), widget=forms.Textarea(attrs={"rows": 6}))


class LedgerCorrectionForm(forms.ModelForm):
    """Staff: correct one balance by an amount, with a reason (a ledger entry)."""

    class Meta:
        model = LedgerEntry
        fields = ["user", "currency", "amount", "reason"]
        help_texts = {
            "amount": _("正数增加，负数减少。"),
            "reason": _("必填：为什么调整（会留在账目里）。"),
        }

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data.get("reason", "").strip()
        if not reason:
            raise forms.ValidationError(_("请填写调整原因。"))
        return reason

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if not amount:
            raise forms.ValidationError(_("调整数额不能为 0。"))
        return amount
