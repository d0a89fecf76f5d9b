"""The API's streams: the event stream (``api.events``) and a seat's game stream (``api.play``),
listening through the channel layer and the table hub as the site's sockets do; no line of
either carries a card another seat holds."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.models import Sanction
from api import receivers, tokens
from api.events import event_lines
from api.play import SeatStream, seat_lines
from games.live.table_hub import TableHub
from games.live.transports import HubTransport
from games.models import Game, Table
from games.services import broadcast, challenges, chat, moves, tables
from tests.play import WINNING_RUN

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("nobody_connected")]

ALICE_RUN, BOB_HAND = WINNING_RUN


async def next_line(lines: AsyncIterator[bytes], timeout: float = 3.0) -> dict[str, Any]:
    """The stream's next line that is not a keep-alive, read, within ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "no line came"
        data = await asyncio.wait_for(anext(lines), left)
        if data.strip():
            return json.loads(data)


async def ended(lines: AsyncIterator[bytes]) -> bool:
    try:
        await asyncio.wait_for(anext(lines), 3.0)
    except StopAsyncIteration:
        return True
    return False


def make_token(user, *scopes: str):
    return tokens.create_token(user, "bot", scopes or ["challenge:read"])[0]


# ------------------------------------------------------------------ the event stream


async def test_on_connect_it_tells_the_games_under_way_and_the_open_challenges(
    alice, bob, carol, make_table
):
    table = await database_sync_to_async(make_table)(host=carol, players=[alice], start=True)
    game = await database_sync_to_async(lambda: Game.objects.get(table=table))()
    made = await database_sync_to_async(challenges.create_challenge)(bob, [alice], seat_count=2)
    token = await database_sync_to_async(make_token)(alice)
    lines = event_lines(token, get_channel_layer())

    started = await next_line(lines)
    assert started == {"type": "gameStart", "game": {"table": table.pk, "game": game.pk}}
    challenge = await next_line(lines)
    assert challenge["type"] == "challenge" and challenge["challenge"]["id"] == made.pk
    assert challenge["challenge"]["challenger"]["username"] == "bob"
    await lines.aclose()


async def test_challenges_and_games_as_they_happen(alice, bob):
    token = await database_sync_to_async(make_token)(alice)
    lines = event_lines(token, get_channel_layer(), keep_alive=0.05)
    assert await asyncio.wait_for(anext(lines), 3) == b"\n"  # nothing yet: kept alive
    seen: list[dict[str, Any]] = []

    async def told() -> dict[str, Any]:
        seen.append(await next_line(lines))
        return seen[-1]

    create = database_sync_to_async(challenges.create_challenge)
    first = await create(bob, [alice], seat_count=2)
    assert (await told())["type"] == "challenge"
    await database_sync_to_async(challenges.cancel_challenge)(first.pk, bob)
    cancelled = await told()
    assert cancelled["type"] == "challengeCanceled"
    assert cancelled["challenge"]["status"] == "cancelled"

    second = await create(bob, [alice], seat_count=2)
    assert (await told())["challenge"]["id"] == second.pk
    await database_sync_to_async(challenges.decline_challenge)(second.pk, alice)
    assert (await told())["type"] == "challengeDeclined"

    third = await create(bob, [alice], seat_count=2)
    assert (await told())["challenge"]["id"] == third.pk
    await database_sync_to_async(challenges.accept_challenge)(third.pk, alice)
    start = await told()
    table = await database_sync_to_async(lambda: Table.objects.get(challenge=third.pk))()
    game = await database_sync_to_async(lambda: Game.objects.get(table=table))()
    assert start == {"type": "gameStart", "game": {"table": table.pk, "game": game.pk}}

    await database_sync_to_async(tables.abort_table)(table.pk)
    finish = await told()
    assert finish["type"] == "gameFinish"
    assert finish["game"]["table"] == table.pk and finish["game"]["ending"] == "aborted"
    await lines.aclose()
    # No event carries a card, a hand or the deck.
    text = json.dumps(seen)
    for secret in ("hand", "deck", "snapshot", "red:", "yellow:", "green:", "blue:"):
        assert secret not in text


async def test_a_second_stream_of_the_token_closes_the_first(alice):
    token = await database_sync_to_async(make_token)(alice)
    layer = get_channel_layer()
    first = event_lines(token, layer, keep_alive=0.05)
    assert await asyncio.wait_for(anext(first), 3) == b"\n"
    second = event_lines(token, layer, keep_alive=0.05)
    assert await asyncio.wait_for(anext(second), 3) == b"\n"
    assert await ended(first)
    assert await asyncio.wait_for(anext(second), 3) == b"\n"  # the new one stays
    await second.aclose()


async def test_revoking_the_token_or_banning_its_account_ends_the_stream(alice, bob):
    layer = get_channel_layer()
    revoked = await database_sync_to_async(make_token)(alice)
    lines = event_lines(revoked, layer, keep_alive=0.05)
    await anext(lines)
    await database_sync_to_async(tokens.revoke)(alice, revoked.pk)
    await database_sync_to_async(receivers.token_revoked)(revoked.pk)
    assert await ended(lines)

    banned = await database_sync_to_async(make_token)(bob)
    lines = event_lines(banned, layer, keep_alive=0.05)
    await anext(lines)

    def ban() -> None:
        Sanction.objects.create(user=bob, kind=Sanction.Kind.ACCOUNT_BAN, reason="abuse")
        broadcast.sessions_ended(bob.pk)

    await database_sync_to_async(ban)()
    assert await ended(lines)


# ------------------------------------------------------------------ the game stream


@pytest.fixture
def duel(make_table, bob, rig) -> Table:
    """alice (seat 0) and bob at a started duel whose deal lets alice win in eight moves."""
    table = make_table(players=[bob], start=True)
    rig(table, WINNING_RUN, leading="red:9")
    return table


async def test_each_seat_s_stream_follows_the_game_and_holds_no_other_seat_s_cards(
    alice, bob, duel
):
    hub = TableHub(get_channel_layer())
    broadcast.serve_through(HubTransport(hub))  # as a server's live side does
    alice_lines = seat_lines(SeatStream(alice, duel.pk), hub, keep_alive=5)
    bob_lines = seat_lines(SeatStream(bob, duel.pk), hub, keep_alive=5)
    kinds: dict[str, list[tuple[str, dict]]] = {}

    async def both() -> None:
        for who, lines in (("alice", alice_lines), ("bob", bob_lines)):
            data = await next_line(lines)
            kinds.setdefault(data["type"], []).append((who, data))
            check_hidden(who, data)

    played = 0

    def check_hidden(who: str, data: dict) -> None:
        text = json.dumps(data)
        hidden = BOB_HAND if who == "alice" else ALICE_RUN[played:]
        assert not [code for code in hidden if f'"{code}"' in text], (who, data)
        for secret in ('"deck"', '"hands"', '"snapshot"'):
            assert secret not in text
        if data.get("state"):  # the draw pile as a count, never its cards
            assert type(data["state"]["draw_pile"]) is int

    await both()
    [(_, full)] = [entry for entry in kinds["gameFull"] if entry[0] == "alice"]
    assert full["seat"] == 0 and full["state"]["hand"] == sorted(ALICE_RUN)
    assert full["state"]["hand_sizes"] == [8, 8] and full["state"]["version"] == 0
    assert [seat["name"] for seat in full["seats"]] == ["alice", "bob"]

    await database_sync_to_async(chat.post_message)(duel.pk, bob, "players", "good luck")
    await both()
    assert [data["text"] for _who, data in kinds["chatLine"]] == ["good luck"] * 2

    for version, card in enumerate(ALICE_RUN):
        action = {"type": "play", "card": card, "version": version, "last_card": True}
        await database_sync_to_async(moves.submit_action)(duel.pk, alice, action)
        played = version + 1
        await both()
    states = [data for who, data in kinds["gameState"] if who == "bob"]
    assert [data["state"]["version"] for data in states] == list(range(1, 8))
    assert [data["moves"][0]["seq"] for data in states] == list(range(7))
    assert states[0]["moves"][0]["events"][0] == {
        "kind": "played",
        "seat": 0,
        "card": "red:taki",
        "color": "red",
    }
    assert states[-1]["state"]["hand_sizes"] == [1, 8]
    assert "hand" in states[-1]["state"] and states[-1]["state"]["seat"] == 1
    # The winning move came with the end of the game.
    finishes = [data for _who, data in kinds["gameFinish"]]
    assert [data["winner"] for data in finishes] == [0, 0]
    assert [data["moves"][0]["seq"] for data in finishes] == [7, 7]
    assert await ended(alice_lines) and await ended(bob_lines)
    await hub.close()
