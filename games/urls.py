from django.urls import path

from . import views
from .rulesite import urls as rulesite_urls

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/rooms/", views.lobby_rooms, name="lobby_rooms"),
    path("lobby/<int:room_id>/quick/", views.quick_match, name="quick_match"),
    path("lobby/<int:room_id>/bot/", views.play_bot, name="play_bot"),
    path("lobby/<int:room_id>/friend/", views.friend_table, name="friend_table"),
    path("lobby/friend/", views.friend_table, name="friend_table_pick"),
    path("t/<str:token>/", views.join, name="join"),
    path("table/<int:table_id>/", views.table, name="table"),
    path("table/<int:table_id>/continue/", views.continue_match, name="continue"),
    path("table/<int:table_id>/regroup/", views.regroup, name="regroup"),
    path("table/<int:table_id>/leave/", views.leave, name="leave"),
    path("table/<int:table_id>/bot/", views.accept_bot, name="accept_bot"),
    path("hands/<int:hand_id>/", views.hand_record, name="hand_record"),
    *rulesite_urls.urlpatterns,
]
