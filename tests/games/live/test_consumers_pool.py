"""The pool page's socket (games.live.pool): the count pushed, the place kept while a page is
open, and the page sent on when its person is seated."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.live import restarts
from games.models import PoolEntry
from games.services import broadcast, quickmatch
from tests.games.live.sockets import SOCKETS

pytestmark = pytest.mark.django_db(transaction=True)

enter = database_sync_to_async(quickmatch.enter)


async def pool_page(user) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(SOCKETS, "/ws/pool/")
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    return socket


@database_sync_to_async
def seen_at(user):
    return PoolEntry.objects.get(user=user).seen_at


@database_sync_to_async
def open_pages(user) -> int:
    return PoolEntry.objects.get(user=user).sockets


async def test_the_page_is_pushed_the_count_and_each_change_of_it(alice, bob) -> None:
    await enter(alice, "duel-15")
    socket = await pool_page(alice)
    assert "1 person waiting in this pool" in await socket.receive_from(timeout=1)

    await enter(bob, "duel-15")

    html = await socket.receive_from(timeout=1)
    assert html.startswith('<p id="pool-count"')
    assert "2 people waiting in this pool" in html
    await socket.disconnect()


async def test_another_pools_change_is_not_pushed(alice, bob) -> None:
    await enter(alice, "duel-15")
    socket = await pool_page(alice)
    await socket.receive_from(timeout=1)

    await enter(bob, "party-30")

    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_the_last_page_closing_leaves_the_pool(alice) -> None:
    await enter(alice, "duel-15")
    first, second = await pool_page(alice), await pool_page(alice)
    for page in (first, second):
        await page.receive_from(timeout=1)  # counted, then told the count
    assert await open_pages(alice) == 2

    await first.disconnect()
    assert await open_pages(alice) == 1
    await second.disconnect()
    assert await open_pages(alice) == 0

    later = timezone.now() + quickmatch.RECONNECT_GRACE + timedelta(seconds=1)
    assert await database_sync_to_async(quickmatch.reap)(later) == 1


async def test_the_process_tells_the_database_its_pages_are_still_open(alice, monkeypatch) -> None:
    monkeypatch.setattr(quickmatch, "HEARTBEAT_SECONDS", 0.05)
    await enter(alice, "duel-15")
    socket = await pool_page(alice)
    await socket.receive_from(timeout=1)
    opened = await seen_at(alice)

    await asyncio.sleep(0.3)

    assert await seen_at(alice) > opened
    await socket.disconnect()


async def test_a_seated_persons_page_is_sent_to_the_table(alice, bob) -> None:
    await enter(alice, "duel-15")
    await enter(bob, "duel-15")
    socket = await pool_page(alice)
    await socket.receive_from(timeout=1)

    [table] = await database_sync_to_async(quickmatch.wave)(timezone.now() + timedelta(seconds=1))

    pushed = [await socket.receive_from(timeout=1) for _ in range(2)]
    went = next(html for html in pushed if 'id="pool-status"' in html)
    assert 'hx-get="/play-now/waiting/"' in went
    assert 'hx-trigger="load"' in went  # at once
    assert f'href="/tables/{table.pk}/"' in went
    await socket.disconnect()


async def test_a_page_opened_out_of_every_pool_is_sent_on(alice) -> None:
    socket = await pool_page(alice)

    html = await socket.receive_from(timeout=1)

    assert 'hx-get="/play-now/waiting/"' in html
    # A second later: a page that pressed Cancel has gone to the lobby by then.
    assert 'hx-trigger="load delay:1s"' in html
    await socket.disconnect()


async def test_the_page_closes_when_its_person_logs_out_elsewhere(alice) -> None:
    await enter(alice, "duel-15")
    socket = await pool_page(alice)
    await socket.receive_from(timeout=1)

    await database_sync_to_async(broadcast.sessions_ended)(alice.pk)

    closed = await socket.receive_output(timeout=1)
    assert closed == {"type": "websocket.close", "code": 4401}
    await socket.disconnect()  # the browser's side of the close
    assert await open_pages(alice) == 0


async def test_a_visitor_without_a_log_in_is_refused() -> None:
    socket = WebsocketCommunicator(SOCKETS, "/ws/pool/")
    socket.scope["user"] = AnonymousUser()

    connected, code = await socket.connect()

    assert not connected
    assert code == 4403


async def test_a_restart_closes_the_pool_page_with_1012_and_the_place_is_kept(alice) -> None:
    restarts.reset()
    await enter(alice, "duel-15")
    socket = await pool_page(alice)
    await socket.receive_from(timeout=1)
    assert restarts.open_sockets() == 1

    await restarts.close_all(close_grace=0.1)

    message = await socket.receive_output(timeout=1)
    assert message == {"type": "websocket.close", "code": restarts.CLOSE_SERVICE_RESTART}
    await socket.disconnect()
    restarts.reset()
    assert await database_sync_to_async(PoolEntry.objects.filter(user=alice).exists)()
