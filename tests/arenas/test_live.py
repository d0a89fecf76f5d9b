"""The arena page's socket (arenas.live): the standings pushed as they change, the viewer's
own row always shown, a private arena's socket only with its link."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from arenas import presenters
from arenas import routing as arena_routing
from arenas.models import ArenaPlayer
from arenas.services import players
from games.live import routing
from tests.arenas.conftest import User

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = routing.application(arena_routing.websocket_urlpatterns)
join = database_sync_to_async(players.join)


async def arena_page(arena, user, query: str = "") -> WebsocketCommunicator:
    socket = WebsocketCommunicator(SOCKETS, f"/ws/arenas/{arena.pk}/{query}")
    socket.scope["user"] = user
    return socket


async def test_the_standings_are_pushed_as_someone_joins(make_arena, alice, bob) -> None:
    arena = await database_sync_to_async(make_arena)()
    await join(arena.pk, alice)
    socket = await arena_page(arena, alice)
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=2)
    assert first.startswith('<div id="arena-standings"')
    assert 'data-player="alice" aria-current="true"' in first
    assert 'data-player="bob"' not in first

    await join(arena.pk, bob)

    pushed = await socket.receive_from(timeout=2)
    assert 'data-player="bob"' in pushed and "Standings: 2 players" in pushed
    await socket.disconnect()


async def test_a_private_arena_s_socket_needs_its_link(make_arena, bob) -> None:
    arena = await database_sync_to_async(make_arena)(private=True)
    refused = await arena_page(arena, AnonymousUser())
    connected, code = await refused.connect()
    assert not connected and code == 4403
    allowed = await arena_page(arena, AnonymousUser(), f"?invite={arena.invite_token}")
    assert (await allowed.connect())[0]
    await allowed.disconnect()


@pytest.mark.django_db
def test_the_viewer_s_own_row_is_shown_below_the_first_rows(make_arena, monkeypatch) -> None:
    arena = make_arena()
    people = [User.objects.create_user(f"p{n}", password="p-password-1") for n in range(5)]
    for rank, person in enumerate(people):
        ArenaPlayer.objects.create(arena=arena, user=person, points=10 - rank)
    monkeypatch.setattr(presenters, "SHOWN_ROWS", 2)
    view = presenters.standings(arena, people[4])
    assert [row.username for row in view.rows] == ["p0", "p1"]
    assert view.mine is not None and view.mine.username == "p4" and view.mine.rank == 5
    for html in (
        presenters.standings_fragment(view),
        presenters.board_fragment(presenters.read_board(arena.pk), people[4]),
    ):
        assert html.count("<tr class=") == 3 and 'data-player="p4" aria-current="true"' in html


async def test_changes_close_together_are_one_read_for_every_page_each_with_its_own_row(
    make_arena, alice, bob, carol, monkeypatch
) -> None:
    arena = await database_sync_to_async(make_arena)()
    for person in (alice, bob):
        await join(arena.pk, person)
    pages = []
    for person in (alice, bob):
        page = await arena_page(arena, person)
        assert (await page.connect())[0]
        await page.receive_from(timeout=2)
        pages.append(page)
    reads = []
    read_board = presenters.read_board
    monkeypatch.setattr(
        presenters, "read_board", lambda *args: reads.append(args) or read_board(*args)
    )

    await join(arena.pk, carol)
    await database_sync_to_async(players.pause)(arena.pk, alice)

    alices, bobs = [await page.receive_from(timeout=2) for page in pages]
    assert len(reads) == 1
    for page in pages:
        assert await page.receive_nothing(timeout=0.7)
    assert "(Paused)" in alices
    assert 'data-player="alice" aria-current="true"' in alices
    assert 'data-player="bob" aria-current="true"' not in alices
    assert 'data-player="bob" aria-current="true"' in bobs and 'data-player="carol"' in bobs
    for page in pages:
        await page.disconnect()
