from django.urls import path

from arenas import views

app_name = "arenas"

urlpatterns = [
    path("arenas/", views.arena_list, name="list"),
    path("arenas/new/", views.new_arena, name="new"),
    path("arenas/<int:arena_id>/", views.arena, name="arena"),
    path("arenas/<int:arena_id>/join/", views.join, name="join"),
    path("arenas/<int:arena_id>/withdraw/", views.withdraw, name="withdraw"),
    path("arenas/<int:arena_id>/pause/", views.pause, name="pause"),
    path("arenas/<int:arena_id>/resume/", views.resume, name="resume"),
    path("arenas/<int:arena_id>/games.jsonl", views.arena_games, name="games"),
]
