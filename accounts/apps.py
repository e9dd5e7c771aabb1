from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    # not 账户: allauth's account app is 账户 in Chinese too (two sections of
    # one name in admin); this app holds players, their coins and inbox
    verbose_name = pgettext_lazy("admin section", "玩家")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
