from django.urls import path

from . import views

app_name = "leaderboard"

urlpatterns = [
    path("leaderboard/", views.index, name="index"),
    path("players/<path:nickname>/", views.player, name="player"),
]
