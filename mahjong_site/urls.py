"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from . import views

admin.site.site_header = _("二人麻将 管理后台")
admin.site.site_title = _("二人麻将 管理")
admin.site.index_title = _("站点管理")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("allauth.urls")),
    path("me/", include("accounts.urls")),
    path("", include("games.urls")),
    # before leaderboard: its players/<path:nickname>/ would take .../report/
    path("", include("moderation.urls")),
    path("", include("leaderboard.urls")),
    path("admin/", admin.site.urls),
]
