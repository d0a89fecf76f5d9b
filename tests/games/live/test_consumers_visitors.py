"""Sockets without a log-in are counted per address: one address cannot hold the server's
sockets by opening page after page."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.live import consumers
from tests.games.live.sockets import SOCKETS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def two_per_address(settings) -> None:
    settings.ANONYMOUS_SOCKETS_PER_ADDRESS = 2


@pytest.fixture
def table(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None)


def opening(path: str, user=None, address: str = "203.0.113.7") -> WebsocketCommunicator:
    socket = WebsocketCommunicator(SOCKETS, path)
    socket.scope["user"] = user or AnonymousUser()
    socket.scope["client"] = [address, 50000]
    return socket


async def opened(path: str, user=None, address: str = "203.0.113.7") -> WebsocketCommunicator:
    socket = opening(path, user, address)
    assert (await socket.connect())[0]
    return socket


async def close_code(socket: WebsocketCommunicator) -> int | None:
    for _ in range(20):
        output = await socket.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            return output["code"]
    return None


async def test_an_address_holds_a_bounded_number_of_sockets_without_a_log_in(table) -> None:
    path = f"/ws/tables/{table.pk}/"
    held = [await opened(path), await opened("/ws/lobby/")]

    one_too_many = await opened(path)

    assert await close_code(one_too_many) == consumers.CLOSE_TOO_MANY_VISITORS
    lobby_too = await opened("/ws/lobby/")
    assert await close_code(lobby_too) == consumers.CLOSE_TOO_MANY_VISITORS
    for socket in held:
        await socket.disconnect()


async def test_a_closed_socket_frees_its_place(table) -> None:
    path = f"/ws/tables/{table.pk}/"
    first, second = await opened(path), await opened(path)
    await first.disconnect()

    third = await opened(path)

    assert await third.receive_nothing(timeout=0.3) is False  # it is sent the table
    assert (await third.receive_output(timeout=1))["type"] == "websocket.send"
    for socket in (second, third):
        await socket.disconnect()


async def test_other_addresses_and_signed_in_people_are_not_held_back(table, alice, carol) -> None:
    path = f"/ws/tables/{table.pk}/"
    held = [await opened(path), await opened(path)]

    elsewhere = await opened(path, address="198.51.100.9")
    signed_in = await opened(path, user=carol)

    for socket in (elsewhere, signed_in):
        output = await socket.receive_output(timeout=1)
        assert output["type"] == "websocket.send"
        await socket.disconnect()
    for socket in held:
        await socket.disconnect()


def test_the_table_page_holds_the_words_of_each_close(client, table) -> None:
    page = client.get(f"/tables/{table.pk}/").content.decode()

    assert 'id="socket-closed"' in page
    for code in (4401, 4403, 4429, consumers.CLOSE_TOO_MANY_VISITORS):
        assert f"data-close-{code}=" in page
    assert "Too many pages are open from your address" in page
    assert "js/live.js" in page
