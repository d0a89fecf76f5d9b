"""Websocket routes, mounted by taki_site.asgi under AuthMiddlewareStack."""

from django.urls import URLPattern, path

from games.live import consumers
from games.live.pool import PoolConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/pool/", PoolConsumer.as_asgi()),
]
