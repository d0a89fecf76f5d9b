"""The lobby socket pushes the list of open tables when one opens."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import services
from games.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_lobby_receives_a_table_when_it_is_opened(alice) -> None:
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_nothing(timeout=0.1)

    await database_sync_to_async(services.create_table)(
        alice, name="Sunday TAKI", seat_count=4, turn_seconds=15
    )

    html = await socket.receive_from(timeout=1)
    assert html.lstrip().startswith('<div id="lobby-tables">')
    assert "Sunday TAKI" in html
    assert "1 of 4" in html
    assert "15 s" in html
    await socket.disconnect()
