"""The chat over the table's socket: who receives which room, hostile text, sanctions."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone

from accounts.models import Sanction
from games.live import consumers
from games.live.scope import visitor_stack
from games.models import ChatMessage
from games.services import chat
from moderation import actions as moderation
from tests.games.live.sockets import SOCKETS
from tests.games.live.test_consumers_hostile import closed_with, signed_in_socket
from tests.games.live.test_consumers_table import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    cache.clear()


@pytest.fixture
def dan(db):
    return get_user_model().objects.create_user("dan", password="dan-password-1")


@pytest.fixture
def table(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None)


async def drain(socket: WebsocketCommunicator) -> str:
    """Everything the socket was sent until it falls quiet."""
    received = []
    while not await socket.receive_nothing(timeout=0.3):
        received.append(await socket.receive_from(timeout=1))
    return "".join(received)


async def sent_until(socket: WebsocketCommunicator, text: str, timeout: float = 10) -> str:
    """What the socket was sent until ``text`` came, however slow the machine; all it was sent
    if ``text`` never came within ``timeout`` seconds (the assertion on it then fails)."""
    received = ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in received and loop.time() < deadline:
        try:
            received += await socket.receive_from(timeout=deadline - loop.time())
        except TimeoutError:
            break
    return received


def say(room: str, text: str) -> str:
    return json.dumps({"type": "chat", "room": room, "text": text, "HEADERS": {}})


async def test_the_spectators_room_never_reaches_a_players_socket(table, alice, carol, dan):
    player, spectator, other = [await connect(table, user) for user in (alice, carol, dan)]
    for socket in (player, spectator, other):
        await drain(socket)

    await spectator.send_to(text_data=say("spectators", "alice should play the red 7"))

    assert "alice should play the red 7" in await sent_until(other, "alice should play the red 7")
    assert "alice should play the red 7" not in await drain(player)
    for socket in (player, spectator, other):
        await socket.disconnect()


async def test_a_players_line_reaches_everyone_as_text(table, alice, bob, carol):
    player, opponent, spectator = [await connect(table, user) for user in (alice, bob, carol)]
    for socket in (player, opponent, spectator):
        await drain(socket)

    await player.send_to(text_data=say("players", "<b onmouseover=alert(1)>hi</b>"))

    for socket in (opponent, spectator):
        pushed = await drain(socket)
        assert 'hx-swap-oob="beforeend:#chat-log-players"' in pushed
        assert "&lt;b onmouseover=alert(1)&gt;hi&lt;/b&gt;" in pushed
        assert "<b onmouseover" not in pushed
    for socket in (player, opponent, spectator):
        await socket.disconnect()


async def test_a_line_is_read_once_for_all_the_sockets_of_the_table(
    table, alice, bob, carol, monkeypatch
):
    reads = []
    readers_of = chat.readers_of
    monkeypatch.setattr(
        chat, "readers_of", lambda *args: reads.append(args[2]) or readers_of(*args)
    )
    sockets = [await connect(table, user) for user in (alice, bob, carol)]
    for socket in sockets:
        await drain(socket)

    await sockets[1].send_to(text_data=say("players", "gg"))

    for socket in sockets:
        assert "gg" in await sent_until(socket, "gg")
    assert len(reads) == 1 and len(reads[0]) == 3  # one read, for the three sockets
    for socket in sockets:
        await socket.disconnect()


async def test_a_muted_authors_lines_do_not_reach_who_muted_them(table, alice, bob, carol):
    await database_sync_to_async(chat.mute)(alice, bob)
    player, spectator = await connect(table, alice), await connect(table, carol)
    opponent = await connect(table, bob)
    for socket in (player, spectator, opponent):
        await drain(socket)

    await opponent.send_to(text_data=say("players", "you are slow"))

    assert "you are slow" in await sent_until(spectator, "you are slow")
    assert "you are slow" not in await drain(player)
    for socket in (player, spectator, opponent):
        await socket.disconnect()


async def test_a_muted_players_line_is_refused_with_its_end_time(table, alice):
    ends = timezone.now() + timedelta(hours=3)
    await Sanction.objects.acreate(user=alice, kind="chat_mute", reason="insults", ends_at=ends)
    socket = await connect(table, alice)
    await drain(socket)

    await socket.send_to(text_data=say("players", "hello"))

    refusal = await drain(socket)
    assert 'id="chat-flash"' in refusal and "muted your chat until" in refusal
    assert str(timezone.localtime(ends).year) in refusal
    assert not await ChatMessage.objects.aexists()
    await socket.disconnect()


async def test_a_hidden_line_is_taken_off_the_pages(table, alice, bob, moderator):
    socket = await connect(table, alice)
    await drain(socket)
    line = await database_sync_to_async(chat.post_message)(table.pk, bob, "players", "spam")
    await drain(socket)

    await database_sync_to_async(moderation.hide_message)(moderator, line, "spam")

    deleted = f'<li id="chat-line-{line.pk}" hx-swap-oob="delete">'
    assert deleted in await sent_until(socket, deleted)
    await socket.disconnect()


async def test_a_banned_players_socket_closes_and_cannot_reconnect_as_them(table, bob, moderator):
    socket, client = await signed_in_socket(table, bob)

    await database_sync_to_async(moderation.ban)(moderator, bob, "spam")

    assert await closed_with(socket) == consumers.CLOSE_SIGNED_OUT
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    again = WebsocketCommunicator(
        visitor_stack(SOCKETS),
        f"/ws/tables/{table.pk}/",
        headers=[(b"cookie", cookie)],
    )
    connected, _ = await again.connect()
    assert connected  # a public table: but only as an anonymous spectator
    await drain(again)
    await again.send_to(text_data=say("players", "I am back"))
    assert "Log in to chat" in await sent_until(again, "Log in to chat")
    assert not await ChatMessage.objects.filter(text="I am back").aexists()
    await again.disconnect()


def since(after) -> str:
    return json.dumps({"type": "chat_since", "after": after})


async def test_a_reconnecting_socket_is_sent_the_lines_it_missed(table, alice, bob, carol):
    before = await database_sync_to_async(chat.post_message)(table.pk, alice, "players", "hi")
    socket = await connect(table, bob)
    await drain(socket)
    await socket.disconnect()  # the connection drops
    for author, room, text in (
        (alice, "players", "are you there?"),
        (carol, "spectators", "bob should draw"),
    ):
        await database_sync_to_async(chat.post_message)(table.pk, author, room, text)

    again = await connect(table, bob)
    await drain(again)
    await again.send_to(text_data=since(str(before.pk)))

    missed = await drain(again)
    assert "are you there?" in missed
    assert 'hx-swap-oob="beforeend:#chat-log-players"' in missed
    assert ">hi<" not in missed  # the page has it already
    assert "bob should draw" not in missed  # the spectators' room never reaches a player
    await again.disconnect()


async def test_a_socket_that_missed_nothing_is_sent_nothing(table, alice):
    line = await database_sync_to_async(chat.post_message)(table.pk, alice, "players", "hi")
    socket = await connect(table, alice)
    await drain(socket)

    await socket.send_to(text_data=since(line.pk))

    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


@pytest.mark.parametrize("after", ["-1", "x", None, 1.5, "9" * 40])
async def test_a_bad_chat_since_is_not_understood(table, alice, after):
    socket = await connect(table, alice)
    await drain(socket)

    await socket.send_to(text_data=since(after))

    refusal = "That request is not understood."
    assert refusal in await sent_until(socket, refusal)
    await socket.disconnect()
