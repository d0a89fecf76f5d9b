"""A process stopping for a restart closes its sockets with 1012, once what they had in hand is
done: htmx's ws extension reconnects after that code, and no click is lost."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.live import restarts
from games.models import ChatMessage
from games.services import moves
from tests.games.live.sockets import SOCKETS
from tests.games.live.test_consumers_table import ALICE_HAND, BOB_HAND, connect, game_state, latest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def process_not_stopping() -> Iterator[None]:
    """The registry belongs to the process: each test starts, and leaves it, not stopping."""
    restarts.reset()
    yield
    restarts.reset()


@pytest.fixture
def table(make_table, bob, rig):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, [ALICE_HAND, BOB_HAND], leading="red:5", first_player=0)
    return table


@pytest.fixture
def slow_moves(monkeypatch) -> None:
    """Every move takes 0.3 s in the database thread: a restart can come while one is worked."""
    submit = moves.submit_action

    def slow_submit(*args: Any, **kwargs: Any) -> None:
        time.sleep(0.3)
        submit(*args, **kwargs)

    monkeypatch.setattr(moves, "submit_action", slow_submit)


async def play_red_7(socket: WebsocketCommunicator) -> None:
    """alice plays her red 7, as the page sends it, and the move reaches the database thread."""
    await socket.send_to(
        text_data=json.dumps({"type": "play", "card": "red:7", "version": "0", "HEADERS": {}})
    )
    await asyncio.sleep(0.1)


async def lobby_socket() -> WebsocketCommunicator:
    socket = WebsocketCommunicator(SOCKETS, "/ws/lobby/")
    socket.scope["user"] = AnonymousUser()
    assert (await socket.connect())[0]
    return socket


async def what_follows(socket: WebsocketCommunicator, timeout: float = 2) -> list[Any]:
    """What the socket is sent until it is closed: each frame's text, then the close code."""
    sent: list[Any] = []
    while True:
        message = await socket.receive_output(timeout=timeout)
        if message["type"] == "websocket.close":
            return [*sent, message.get("code")]
        sent.append(message.get("text", ""))


async def test_a_restart_closes_every_table_and_lobby_socket_with_1012(table, alice, bob) -> None:
    tables = [await connect(table, alice), await connect(table, bob)]
    for socket in tables:
        await latest(socket)
    lobby = await lobby_socket()
    assert restarts.open_sockets() == 3

    await restarts.close_all(close_grace=0.1)

    for socket in [*tables, lobby]:
        assert (await what_follows(socket))[-1] == restarts.CLOSE_SERVICE_RESTART
        await socket.disconnect()
    assert restarts.open_sockets() == 0


async def test_a_move_being_worked_when_the_restart_comes_is_stored_and_pushed_before_the_close(
    table, alice, slow_moves
) -> None:
    socket = await connect(table, alice)
    await latest(socket)
    await play_red_7(socket)

    await restarts.close_all(close_grace=0.1)

    *pushes, code = await what_follows(socket)
    assert code == restarts.CLOSE_SERVICE_RESTART
    assert any("alice played red 7" in push for push in pushes), "closed before the move's push"
    assert await game_state(table) == (1, 1)
    await socket.disconnect()


async def test_a_frame_that_arrives_once_the_restart_began_is_dropped_not_half_worked(
    table, alice, slow_moves
) -> None:
    socket = await connect(table, alice)
    await latest(socket)
    await play_red_7(socket)
    closing = asyncio.ensure_future(restarts.close_all(close_grace=0.1))
    await asyncio.sleep(0.05)

    line = {"type": "chat", "room": "players", "text": "one more", "HEADERS": {}}
    await socket.send_to(text_data=json.dumps(line))
    await closing

    assert (await what_follows(socket))[-1] == restarts.CLOSE_SERVICE_RESTART
    assert await game_state(table) == (1, 1)
    assert not await ChatMessage.objects.filter(table=table).aexists()
    await socket.disconnect()


async def test_a_socket_opened_while_the_process_stops_is_closed_for_the_restart_at_once(
    table, alice
) -> None:
    await restarts.close_all(close_grace=0)

    socket = await connect(table, alice)

    assert (await what_follows(socket))[-1] == restarts.CLOSE_SERVICE_RESTART
    await socket.disconnect()
