from django.urls import path

from moderation import views

app_name = "moderation"

# Beside the games' pages, at the addresses they have always had.
urlpatterns = [
    path("tables/<int:table_id>/report/", views.report_at_table, name="report"),
    path("players/<str:username>/report/", views.report_player, name="report_player"),
]
