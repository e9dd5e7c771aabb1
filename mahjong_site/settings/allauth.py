"""django-allauth: sign up with username + e-mail + password, log in with either."""

from .env import PRODUCTION, env

ACCOUNT_LOGIN_METHODS = {"username", "email"}
# The login field says autocomplete="username" (allauth says "email" when
# both methods are on; the field takes either).
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
# "optional": a verification mail is sent but login does not wait for it.
ACCOUNT_EMAIL_VERIFICATION: str = env.str(
    "ACCOUNT_EMAIL_VERIFICATION", default="optional" if PRODUCTION else "none"
)
ACCOUNT_USERNAME_MIN_LENGTH = 3
# The username is the player's first nickname: Django's username rules plus
# the nickname rules (no look-alike of another player, accounts.nicknames).
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.USERNAME_VALIDATORS"
# Messages and mails name the player by 昵称, as the rest of the site does.
ACCOUNT_USER_DISPLAY = "accounts.selectors.user_display"
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = None
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if PRODUCTION else "http"
