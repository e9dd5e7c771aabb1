from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The Django side of play: tables, hands, consumers (the engine is pure Python)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("对局")
