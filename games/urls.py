from django.urls import path

from . import views, views_replay
from .rulesite import urls as rulesite_urls

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/rooms/", views.lobby_rooms, name="lobby_rooms"),
    path("lobby/queue/", views.lobby_queue, name="lobby_queue"),
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
    path("hands/<int:hand_id>/", views_replay.hand_replay, name="hand_record"),
    path(
        "hands/<int:hand_id>/export.json",
        views_replay.hand_export,
        name="hand_export",
    ),
    path("hands/<int:hand_id>/share/", views_replay.hand_share, name="hand_share"),
    path("replay/import/", views_replay.replay_import, name="replay_import"),
    path(
        "replay/import/<str:digest>/",
        views_replay.replay_imported,
        name="replay_imported",
    ),
    path("fair/", views_replay.fair, name="fair"),
    path("fair/verify_hand.py", views_replay.fair_script, name="fair_script"),
    *rulesite_urls.urlpatterns,
]
