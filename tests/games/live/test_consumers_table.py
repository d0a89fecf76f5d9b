"""The table socket: each person sees their own view only; forged actions change nothing."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games.models import Game, Move
from games.services import presence
from games.services.broadcast import group_name
from tests.games.live.sockets import SOCKETS

pytestmark = pytest.mark.django_db(transaction=True)

ALICE_HAND = [
    "red:7",
    "red:3",
    "blue:4",
    "green:plus2",
    "yellow:9",
    "change-color",
    "king",
    "red:taki",
]
BOB_HAND = [
    "blue:1",
    "blue:5",
    "green:6",
    "yellow:1",
    "yellow:stop",
    "plus3",
    "breaker",
    "blue:plus",
]
DATA_CARD = re.compile(r'data-card="([^"]+)"')


@pytest.fixture
def table(make_table, bob, rig):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, [ALICE_HAND, BOB_HAND], leading="red:5", first_player=0)
    return table


async def connect(table, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(SOCKETS, f"/ws/tables/{table.pk}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


# A pushed fragment's top-level elements, each swapped into the page by its id (htmx's ws).
TOP_LEVEL = re.compile(r'^<(?:section|div) id="([^"]+)"', re.M)


def swap_in(page: dict[str, str], fragment: str) -> None:
    starts = [(match.start(), match.group(1)) for match in TOP_LEVEL.finditer(fragment)]
    for index, (start, element_id) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(fragment)
        page[element_id] = fragment[start:end]


async def latest(communicator: WebsocketCommunicator, timeout: float = 1) -> str:
    """The table as the page shows it once the pushes that arrive within ``timeout`` are
    swapped in (a push may carry only some of the table's parts: the seats alone when someone
    connects)."""
    page = communicator.__dict__.setdefault("page", {})
    swap_in(page, await communicator.receive_from(timeout=timeout))
    while not await communicator.receive_nothing(timeout=0.1):
        swap_in(page, await communicator.receive_from(timeout=timeout))
    return "".join(page.values())


def hand_codes(html: str) -> list[str]:
    return DATA_CARD.findall(html)


async def game_state(table) -> tuple[int, int]:
    @database_sync_to_async
    def read() -> tuple[int, int]:
        game = Game.objects.get(table=table)
        return game.version, Move.objects.filter(game=game).count()

    return await read()


async def test_each_player_receives_their_own_hand_and_the_spectator_none(
    table, alice, bob, carol
) -> None:
    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    carol_socket = await connect(table, carol)

    alice_sees, bob_sees, carol_sees = (
        await latest(alice_socket),
        await latest(bob_socket),
        await latest(carol_socket),
    )

    assert sorted(hand_codes(alice_sees)) == sorted(ALICE_HAND)
    assert sorted(hand_codes(bob_sees)) == sorted(BOB_HAND)
    assert hand_codes(carol_sees) == []
    # No card of the other hand appears anywhere, not even by name in a title.
    for code in set(BOB_HAND) - set(ALICE_HAND):
        assert f'"{code}"' not in alice_sees
    assert 'id="table-hand"' in carol_sees and "Your hand" not in carol_sees
    for socket in (alice_socket, bob_socket, carol_socket):
        await socket.disconnect()


async def test_the_player_to_move_gets_clickable_legal_cards(table, alice) -> None:
    socket = await connect(table, alice)

    html = await latest(socket)

    # red:7 matches the red 5; blue:4 does not (R7).
    assert re.search(r'data-card="red:7">\s*<form ws-send', html)
    assert not re.search(r'data-card="blue:4">\s*<form ws-send', html)
    assert 'name="version" value="0"' in html
    assert 'value="draw"' in html
    await socket.disconnect()


async def test_a_legal_move_is_pushed_to_the_other_player_and_the_spectator(
    table, alice, bob, carol
) -> None:
    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    carol_socket = await connect(table, carol)
    for socket in (alice_socket, bob_socket, carol_socket):
        await latest(socket)

    await alice_socket.send_to(
        text_data=json.dumps({"type": "play", "card": "red:7", "version": "0", "HEADERS": {}})
    )

    bob_sees, carol_sees = await latest(bob_socket), await latest(carol_socket)
    assert "alice played red 7" in bob_sees
    assert "alice played red 7" in carol_sees
    assert sorted(hand_codes(bob_sees)) == sorted(BOB_HAND)
    assert await game_state(table) == (1, 1)
    alice_sees = await latest(alice_socket)
    assert "red:7" not in hand_codes(alice_sees)
    for socket in (alice_socket, bob_socket, carol_socket):
        await socket.disconnect()


async def test_the_process_hears_of_a_table_once_however_many_sockets_it_has_there(
    table, alice, bob, carol, counted_reads
) -> None:
    layer, group = get_channel_layer(), group_name(table.pk)
    sockets = [await connect(table, person) for person in (alice, bob, carol, alice)]
    for socket in sockets:
        await latest(socket)
    counted_reads.clear()

    assert await members(layer, group) == 1  # the process's hub, not one channel per socket
    await sockets[0].send_to(text_data=json.dumps({"type": "play", "card": "red:7", "version": 0}))
    for socket in sockets:
        assert "alice played red 7" in await latest(socket)
    assert counted_reads == []  # built from the state the move left here, not read back

    for socket in sockets:
        await socket.disconnect()
    for _ in range(100):  # the last socket's leaving takes the process out of the group
        if not await members(layer, group):
            break
        await asyncio.sleep(0.01)
    assert not await members(layer, group)


async def members(layer, group: str) -> int:
    """How many channels the group holds: in memory, in this process on Redis's pub/sub layer
    (its subscriptions), or on Redis's list-based layer."""
    if hasattr(layer, "_get_group_channel_name"):  # pub/sub: the groups are the loop's own
        return len(layer.groups.get(layer._get_group_channel_name(group), ()))
    if hasattr(layer, "groups"):
        return len(layer.groups.get(group, {}))
    redis = layer.connection(layer.consistent_hash(group))
    return await redis.zcard(layer._group_key(group))


async def test_each_socket_is_sent_the_table_in_its_own_language(table, alice, bob) -> None:
    spanish = WebsocketCommunicator(SOCKETS, f"/ws/tables/{table.pk}/")
    spanish.scope["user"] = alice
    spanish.scope["headers"] = [(b"accept-language", b"es")]
    assert (await spanish.connect())[0]
    english = await connect(table, bob)
    for socket in (spanish, english):
        await latest(socket)
    with translation.override("es"):
        seats_in_spanish = f'aria-label="{translation.gettext("Seats")}"'
    assert seats_in_spanish != 'aria-label="Seats"'

    await spanish.send_to(text_data=json.dumps({"type": "play", "card": "red:7", "version": 0}))

    alice_sees, bob_sees = await latest(spanish), await latest(english)
    assert seats_in_spanish in alice_sees and 'aria-label="Seats"' not in alice_sees
    assert 'aria-label="Seats"' in bob_sees and "alice played red 7" in bob_sees
    for socket in (spanish, english):
        await socket.disconnect()


@pytest.mark.parametrize(
    ("who", "message", "words"),
    [
        ("bob", {"type": "play", "card": "blue:1", "version": 0}, "It is not your turn."),
        ("alice", {"type": "play", "card": "blue:1", "version": 0}, "You do not hold that card."),
        ("alice", {"type": "play", "card": "red:7", "version": 5}, "against an old position"),
        ("alice", {"type": "play", "card": "red:7", "player": 1, "version": "x"}, "not understood"),
        ("carol", {"type": "draw", "version": 0}, "You do not sit at this table."),
        ("anonymous", {"type": "draw", "version": 0}, "Log in"),
    ],
)
async def test_a_forged_action_is_refused_with_a_message_and_changes_nothing(
    table, alice, bob, carol, who, message, words
) -> None:
    users = {"alice": alice, "bob": bob, "carol": carol, "anonymous": AnonymousUser()}
    socket = await connect(table, users[who])
    await latest(socket)

    await socket.send_to(text_data=json.dumps(message))

    reply = await latest(socket)
    assert 'id="flash" class="flash flash--error"' in reply
    assert words in reply
    assert await game_state(table) == (0, 0)
    await socket.disconnect()


async def test_malformed_json_is_refused_to_that_socket_only(table, alice, bob) -> None:
    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    await latest(alice_socket)
    await latest(bob_socket)

    await alice_socket.send_to(text_data="{not json")

    assert "That request is not understood." in await latest(alice_socket)
    assert await bob_socket.receive_nothing(timeout=0.2)
    assert await game_state(table) == (0, 0)
    await alice_socket.disconnect()
    await bob_socket.disconnect()


async def test_a_private_table_refuses_a_stranger_without_the_invite(make_table, carol) -> None:
    table = await _private_table(make_table)
    communicator = WebsocketCommunicator(SOCKETS, f"/ws/tables/{table.pk}/")
    communicator.scope["user"] = carol

    connected, _ = await communicator.connect()

    assert not connected


async def _private_table(make_table):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(make_table)(public=False)


async def test_a_seat_shows_as_connected_while_its_socket_is_open(table, alice, bob) -> None:
    alice_socket = await connect(table, alice)
    await latest(alice_socket)

    bob_socket = await connect(table, bob)
    alice_sees = await latest(alice_socket)

    assert re.search(r'data-seat="1">.*?dot--on', alice_sees, re.S)
    await bob_socket.disconnect()
    alice_sees = await latest(alice_socket)
    bob_seat = alice_sees.split('data-seat="1"')[1].split("</li>")[0]
    assert "dot--on" not in bob_seat
    await alice_socket.disconnect()


async def test_a_socket_first_push_shows_its_own_person_online(table, alice) -> None:
    """After a restart nobody is counted: the first push must already count its own socket."""
    socket = await connect(table, alice)

    first = await socket.receive_from(timeout=1)

    alice_seat = first.split('data-seat="0"')[1].split("</li>")[0]
    assert "dot--on" in alice_seat
    await socket.disconnect()


def seat_of(html: str, position: int) -> str:
    return html.split(f'data-seat="{position}"')[1].split("</li>")[0]


async def test_presence_and_refusals_redraw_the_table_without_reading_it(
    table, alice, bob, counted_reads
) -> None:
    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    await latest(alice_socket)
    await latest(bob_socket)
    await alice_socket.send_to(
        text_data=json.dumps({"type": "play", "card": "red:7", "version": 0})
    )
    await latest(bob_socket)
    await latest(alice_socket)
    counted_reads.clear()

    await bob_socket.disconnect()  # bob's last socket: the seats are drawn again
    alice_sees = await latest(alice_socket)
    assert "dot--on" not in seat_of(alice_sees, 1)
    assert "7 cards" in seat_of(alice_sees, 0)

    await alice_socket.send_to(
        text_data=json.dumps({"type": "play", "card": "red:3", "version": 0})
    )
    alice_sees = await latest(alice_socket)
    assert "against an old position" in alice_sees
    assert 'name="version" value="1"' not in alice_sees  # bob's turn: alice has nothing to send
    assert "alice played red 7" in alice_sees and "7 cards" in seat_of(alice_sees, 0)

    assert counted_reads == []
    await alice_socket.disconnect()


async def test_a_table_left_by_every_socket_here_is_read_again_when_one_comes_back(
    table, alice, bob
) -> None:
    from channels.db import database_sync_to_async

    from games.services import moves

    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)  # bob comes online: the seats are drawn again
    await latest(alice_socket)
    for socket in (alice_socket, bob_socket):
        await socket.disconnect()
    # A move while nobody here listens: what this process drew of the table is out of date.
    await database_sync_to_async(moves.submit_action)(
        table.pk, alice, {"type": "play", "card": "red:7", "version": 0}
    )
    await SOCKETS.hub().sends.done()  # its broadcast has reached no socket here

    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    alice_sees = await latest(alice_socket)

    assert "dot--on" in seat_of(alice_sees, 1)
    assert "7 cards" in seat_of(alice_sees, 0)
    assert "alice played red 7" in alice_sees
    for socket in (alice_socket, bob_socket):
        await socket.disconnect()


async def test_a_socket_s_first_push_is_the_table_as_stored_not_as_held_here(
    make_table, alice, bob, rig
) -> None:
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(make_table)(players=[bob], start=True, turn_seconds=None)
    alice_socket = await connect(table, alice)
    bob_socket = await connect(table, bob)
    await latest(alice_socket)
    await latest(bob_socket)
    # The game changes in the database without a word to the sockets (as a test rigs it): a
    # page loaded now shows the new hand, and so must its socket's first push.
    await database_sync_to_async(rig)(table, [ALICE_HAND, BOB_HAND], "red:5", 0)

    alice_again = await connect(table, alice)
    first = await alice_again.receive_from(timeout=1)

    assert sorted(hand_codes(first)) == sorted(ALICE_HAND)
    for socket in (alice_socket, bob_socket, alice_again):
        await socket.disconnect()


async def test_the_hub_keeps_the_people_of_its_open_sockets_online(
    table, alice, monkeypatch
) -> None:
    monkeypatch.setattr(presence, "PRESENCE_TTL", 1)
    monkeypatch.setattr(presence, "PRESENCE_REFRESH", 0.2)
    socket = await connect(table, alice)
    await latest(socket)

    await asyncio.sleep(1.5)  # longer than a count lives unless it is kept

    online = await database_sync_to_async(presence.connected_users)(table.pk, [alice.pk])
    assert online == {alice.pk}
    await socket.disconnect()
