"""The arenas' websocket route, mounted by taki_site.asgi beside the games' own."""

from django.urls import URLPattern, path

from arenas.live import ArenaConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/arenas/<int:arena_id>/", ArenaConsumer.as_asgi()),
]
