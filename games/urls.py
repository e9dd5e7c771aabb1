from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
]
