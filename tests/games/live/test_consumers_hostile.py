"""The table socket against a hostile client: malformed frames, floods, too many sockets, and
sockets that outlive the log-in they were opened with."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games.live import consumers, limits
from games.live.scope import visitor_stack
from games.models import ChatMessage, Game, Seat
from games.services import moves
from tests.games.live.sockets import SOCKETS
from tests.games.live.test_consumers_table import ALICE_HAND, BOB_HAND, connect, game_state, latest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_table, bob, rig):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, [ALICE_HAND, BOB_HAND], leading="red:5", first_player=0)
    return table


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "draw", "version": Infinity}',
        '{"type": "draw", "version": NaN}',
        '{"type": {"a": 1}, "version": "0"}',
        '{"type": ["draw"], "version": "0"}',
        '{"type": "play", "card": ["red:7"], "version": "0"}',
        '{"type": "draw", "version": 1e400}',
        '{"type": "draw", "version": "99999999999999999999"}',
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"type": "draw", "version": "0", "HEADERS": {"x": "y" * 10_000}}),
    ],
)
async def test_a_hostile_frame_is_refused_and_the_socket_lives_on(table, alice, frame) -> None:
    socket = await connect(table, alice)
    await latest(socket)

    await socket.send_to(text_data=frame)

    assert "That request is not understood." in await latest(socket)
    assert await game_state(table) == (0, 0)
    # The socket still works: a good move goes through.
    await socket.send_to(text_data=json.dumps({"type": "draw", "version": "0"}))
    await latest(socket)
    assert await game_state(table) == (1, 1)
    await socket.disconnect()


async def test_a_flood_of_frames_closes_the_socket_with_4429(table, alice) -> None:
    socket = await connect(table, alice)
    await latest(socket)

    stale = json.dumps({"type": "draw", "version": "7"})
    for _ in range(settings.SOCKET_ACTIONS_BURST + 5):
        await socket.send_to(text_data=stale)

    closed = None
    for _ in range(200):
        output = await socket.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            closed = output
            break
    assert closed == {
        "type": "websocket.close",
        "code": consumers.CLOSE_TOO_MANY,
        "reason": "too many messages",
    }
    assert await game_state(table) == (0, 0)


async def close_within(socket: WebsocketCommunicator, seconds: float) -> dict | None:
    """The close the socket is sent within ``seconds``, whatever it is sent before."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            output = await socket.receive_output(timeout=left)
        except TimeoutError:
            return None
        if output["type"] == "websocket.close":
            return output
    return None


async def test_a_flood_is_counted_as_it_arrives_and_closed_however_slowly_its_frames_are_worked(
    table, alice, monkeypatch
) -> None:
    worked = []
    submit = moves.submit_action

    def slow_submit(table_id, user, payload, **options):
        worked.append(payload)
        time.sleep(0.2)  # a busy database: frames are worked slower than the bucket refills
        return submit(table_id, user, payload, **options)

    monkeypatch.setattr(moves, "submit_action", slow_submit)
    socket = await connect(table, alice)
    await latest(socket)

    # A client that writes without ever reading what it is sent.
    for version in range(3000):
        await socket.send_to(text_data=json.dumps({"type": "draw", "version": str(version)}))

    closed = await close_within(socket, 3)
    assert closed == {
        "type": "websocket.close",
        "code": consumers.CLOSE_TOO_MANY,
        "reason": "too many messages",
    }
    # The frames the server had queued were all taken as they came, counted and dropped: none
    # is left for later. What was waiting when it closed is dropped, not worked.
    assert socket.input_queue.empty()
    await asyncio.sleep(0.5)
    assert len(worked) <= settings.SOCKET_ACTIONS_BURST
    # The first draw at most: every later frame was stale, or dropped with the flood.
    assert await game_state(table) in {(0, 0), (1, 1)}


async def test_a_client_closed_for_flooding_is_refused_at_the_handshake_for_a_while(
    table, alice, bob, monkeypatch
) -> None:
    clock = [100.0]
    monkeypatch.setattr(limits, "flooders", limits.Penalties(now=lambda: clock[0]))
    socket, alice_client = await signed_in_socket(table, alice)
    for _ in range(settings.SOCKET_ACTIONS_BURST + 1):
        await socket.send_to(text_data=json.dumps({"type": "draw", "version": -1}))
    assert (await close_within(socket, 2))["code"] == consumers.CLOSE_TOO_MANY

    def reopening(client: Client) -> WebsocketCommunicator:
        """As the site mounts the sockets (taki_site.asgi), with the client's session cookie."""
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        app = limits.RefuseFlooders(visitor_stack(SOCKETS))
        return WebsocketCommunicator(app, f"/ws/tables/{table.pk}/", headers=[(b"cookie", cookie)])

    reads = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Session.objects, "get", lambda *a, **k: reads.append(k) or 1 / 0)
        assert (await reopening(alice_client).connect())[0] is False
    assert reads == []  # refused before the session was read
    bob_client = Client()
    await database_sync_to_async(bob_client.force_login)(bob)
    other = reopening(bob_client)
    assert (await other.connect())[0]  # someone else is not held back
    await other.disconnect()
    clock[0] += limits.FLOOD_PENALTY_SECONDS + 1
    later = reopening(alice_client)
    assert (await later.connect())[0]
    await later.disconnect()


async def test_a_flooding_socket_holds_up_no_other_table(
    table, alice, bob, carol, make_table, rig
) -> None:
    @database_sync_to_async
    def other_table():
        other = make_table(host=carol, players=[bob], start=True, turn_seconds=None)
        rig(other, [ALICE_HAND, BOB_HAND], leading="red:5", first_player=0)
        return other

    other = await other_table()
    flooding = await connect(table, alice)
    watching = await connect(other, bob)
    playing = await connect(other, carol)
    for socket in (flooding, watching, playing):
        await latest(socket)

    for _ in range(5000):
        await flooding.send_to(text_data=json.dumps({"type": "draw", "version": -1}))
    await playing.send_to(text_data=json.dumps({"type": "play", "card": "red:7", "version": "0"}))

    assert "carol played red 7" in await latest(watching, timeout=2)
    assert (await close_within(flooding, 2))["code"] == consumers.CLOSE_TOO_MANY
    for socket in (watching, playing):
        await socket.disconnect()


async def test_a_person_may_not_open_more_than_a_few_sockets_at_one_table(table, alice) -> None:
    sockets = [await connect(table, alice) for _ in range(consumers.SOCKETS_PER_PERSON_AND_TABLE)]

    one_too_many = WebsocketCommunicator(SOCKETS, f"/ws/tables/{table.pk}/")
    one_too_many.scope["user"] = alice
    connected, _ = await one_too_many.connect()

    assert connected
    output = await one_too_many.receive_output(timeout=1)
    assert (output["type"], output["code"]) == ("websocket.close", consumers.CLOSE_TOO_MANY)
    for socket in sockets:
        await socket.disconnect()
    # The refused socket does not count: a new one may open again.
    again = await connect(table, alice)
    await again.disconnect()


async def signed_in_socket(table, user) -> tuple[WebsocketCommunicator, Client]:
    """A socket opened the way a browser opens it: with the session cookie of a log-in."""
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    socket = WebsocketCommunicator(
        visitor_stack(SOCKETS),
        f"/ws/tables/{table.pk}/",
        headers=[(b"cookie", cookie)],
    )
    connected, _ = await socket.connect()
    assert connected
    await latest(socket)
    return socket, client


async def closed_with(socket: WebsocketCommunicator) -> int | None:
    for _ in range(50):
        output = await socket.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            return output["code"]
    return None


async def test_logging_out_closes_the_sockets_opened_before(table, alice) -> None:
    socket, client = await signed_in_socket(table, alice)

    await database_sync_to_async(client.post)(reverse("accounts:logout"))

    assert await closed_with(socket) == consumers.CLOSE_SIGNED_OUT


async def test_changing_the_password_closes_the_sockets_opened_before(table, alice) -> None:
    socket, client = await signed_in_socket(table, alice)
    new = "alice-password-2"

    await database_sync_to_async(client.post)(
        reverse("accounts:password_change"),
        {"old_password": "alice-password-1", "new_password1": new, "new_password2": new},
    )

    assert await closed_with(socket) == consumers.CLOSE_SIGNED_OUT


async def test_a_password_set_in_the_admin_closes_the_players_sockets(
    table, alice, moderator
) -> None:
    socket, _client = await signed_in_socket(table, alice)
    admin = Client()
    await database_sync_to_async(admin.force_login)(moderator)
    new = "alice-password-2"

    await database_sync_to_async(admin.post)(
        reverse("admin:auth_user_password_change", args=[alice.pk]),
        {"usable_password": "true", "password1": new, "password2": new},
    )

    assert await closed_with(socket) == consumers.CLOSE_SIGNED_OUT
    assert await database_sync_to_async(lambda: Client().login(username="alice", password=new))()


async def test_a_password_change_refused_by_the_form_leaves_the_sockets_open(table, alice) -> None:
    socket, client = await signed_in_socket(table, alice)

    await database_sync_to_async(client.post)(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": "x-1-y-2-z", "new_password2": "x-1-y-2-z"},
    )

    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_socket_whose_log_in_ended_cannot_act(table, alice) -> None:
    socket, _client = await signed_in_socket(table, alice)
    # The session ends without a log-out signal (it expired, or was flushed elsewhere).
    await Session.objects.all().adelete()

    await socket.send_to(text_data=json.dumps({"type": "draw", "version": "0"}))

    assert "You have been logged out" in await latest(socket)
    assert await game_state(table) == (0, 0)
    await socket.disconnect()


async def test_a_socket_whose_log_in_ended_cannot_chat(table, alice) -> None:
    socket, _client = await signed_in_socket(table, alice)
    await Session.objects.all().adelete()

    await socket.send_to(
        text_data=json.dumps({"type": "chat", "room": "players", "text": "still here?"})
    )

    flash = await socket.receive_from(timeout=1)
    assert 'id="chat-flash"' in flash and "You have been logged out" in flash
    assert not await ChatMessage.objects.filter(table=table).aexists()
    await socket.disconnect()


async def test_a_log_in_that_ended_after_the_first_action_is_checked_again(
    table, alice, monkeypatch
) -> None:
    socket, _client = await signed_in_socket(table, alice)
    await socket.send_to(text_data=json.dumps({"type": "draw", "version": "0"}))
    await latest(socket)
    assert await game_state(table) == (1, 1)
    await Session.objects.all().adelete()
    monkeypatch.setattr(consumers, "SESSION_RECHECK_SECONDS", 0.0)  # the next check is due

    await socket.send_to(text_data=json.dumps({"type": "draw", "version": "1"}))

    assert "You have been logged out" in await latest(socket)
    assert await game_state(table) == (1, 1)
    await socket.disconnect()


async def test_a_ban_closes_the_players_sockets_and_a_bot_takes_their_seat(
    table, alice, bob, moderator
) -> None:
    socket, _client = await signed_in_socket(table, bob)
    admin = Client()
    await database_sync_to_async(admin.force_login)(moderator)

    await database_sync_to_async(admin.post)(
        reverse("admin:auth_user_changelist"),
        {"action": "ban", "_selected_action": [bob.pk], "reason": "spam"},
    )

    assert await closed_with(socket) == consumers.CLOSE_SIGNED_OUT
    seat = await Seat.objects.aget(table=table, position=1)
    assert (seat.user_id, seat.bot, seat.replaced_user_id) == (None, "greedy", bob.pk)
    game = await Game.objects.select_related("table").aget(table=table)
    assert game.table.status == "playing"  # alice plays on, against the bot


async def test_a_socket_whose_log_in_ended_is_not_sent_the_spectators_lines(
    table, alice, carol
) -> None:
    from games.services import chat

    line = await database_sync_to_async(chat.post_message)(table.pk, carol, "spectators", "psst")
    socket, _client = await signed_in_socket(table, carol)
    await Session.objects.all().adelete()

    await socket.send_to(text_data=json.dumps({"type": "chat_since", "after": line.pk - 1}))

    answer = await socket.receive_from(timeout=1)
    while not await socket.receive_nothing(timeout=0.3):
        answer += await socket.receive_from(timeout=1)
    assert "You have been logged out" in answer and "psst" not in answer
    await socket.disconnect()
