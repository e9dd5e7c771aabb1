from django.urls import path

from . import views

app_name = "moderation"

urlpatterns = [
    path("hands/<int:hand_id>/report/", views.report_hand, name="report_hand"),
    path("table/<int:table_id>/report/", views.report_table, name="report_table"),
    path("moderation/cases/<int:case_id>/appeal/", views.appeal, name="appeal"),
    path("players/<path:nickname>/report/", views.report_player, name="report_player"),
]
