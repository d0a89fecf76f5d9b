"""The lobby socket pushes the list of open tables when one opens."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.services import tables
from tests.games.live.sockets import SOCKETS

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_lobby_receives_a_table_when_it_is_opened(alice) -> None:
    socket = WebsocketCommunicator(SOCKETS, "/ws/lobby/")
    socket.scope["user"] = AnonymousUser()
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_nothing(timeout=0.1)

    await database_sync_to_async(tables.create_table)(
        alice, name="Sunday TAKI", seat_count=4, turn_seconds=15
    )

    html = await socket.receive_from(timeout=1)
    assert html.lstrip().startswith('<div id="lobby-tables">')
    assert "Sunday TAKI" in html
    assert "1 of 4" in html
    assert "15 s" in html
    await socket.disconnect()


async def test_a_pushed_table_can_be_joined_without_a_csrf_token_in_the_html(alice, bob) -> None:
    # A fragment pushed over the socket is rendered without a request, so its forms carry no
    # CSRF token: the Join button must post with htmx, which sends the page's token in a header.
    socket = WebsocketCommunicator(SOCKETS, "/ws/lobby/")
    socket.scope["user"] = bob
    assert (await socket.connect())[0]

    table = await database_sync_to_async(tables.create_table)(
        alice, name="Sunday TAKI", seat_count=4
    )

    html = await socket.receive_from(timeout=1)
    assert f'hx-post="/tables/{table.pk}/join/"' in html
    await socket.disconnect()


async def test_a_visitor_is_asked_to_log_in_to_join_a_pushed_table(alice) -> None:
    socket = WebsocketCommunicator(SOCKETS, "/ws/lobby/")
    socket.scope["user"] = AnonymousUser()
    assert (await socket.connect())[0]

    table = await database_sync_to_async(tables.create_table)(
        alice, name="Sunday TAKI", seat_count=4
    )

    html = await socket.receive_from(timeout=1)
    assert "/join/" not in html
    assert f'/accounts/login/?next=/tables/{table.pk}/"' in html
    assert "Log in to play" in html
    await socket.disconnect()
