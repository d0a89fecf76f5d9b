"""The ceiling: the cheapest useful websocket app on the site's own stack.

Served by Daphne with the site's settings and middleware (origin check, sessions, auth, the
same channel layer), it relays every frame to all the sockets of its group: one group send and
one push per socket, as a move costs, minus the database, the engine and the templates. What
the site achieves, as a fraction of this, is the part of the ceiling the move path uses.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tools.loadtest.settings")
django_asgi_app = get_asgi_application()  # sets Django up before the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402


def relay_group(group: int) -> str:
    return f"relay-{group}"


class RelayConsumer(AsyncWebsocketConsumer):
    """``ws/relay/<group>/``: every frame received goes to every socket of the group."""

    group: str

    async def connect(self) -> None:
        self.group = relay_group(int(self.scope["url_route"]["kwargs"]["group"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(
            self.group, {"type": "relay.message", "text": text_data or ""}
        )

    async def relay_message(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([path("ws/relay/<int:group>/", RelayConsumer.as_asgi())]))
        ),
    }
)
