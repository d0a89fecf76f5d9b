"""A server process's live side (``games.live.server``): one table hub per event loop, handed to
the sockets and given to the services as the transport they tell."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.live.server import HubTransport, LiveSide
from games.services import broadcast


async def scope_seen_by(side: LiveSide) -> dict:
    seen: dict = {}

    async def app(scope, receive, send) -> None:
        seen.update(scope)

    side.application = app
    await side({"type": "websocket", "path": "/ws/lobby/"}, None, None)
    return seen


async def test_each_socket_is_handed_the_hub_of_its_loop_which_the_services_tell() -> None:
    side = LiveSide(None)

    first = (await scope_seen_by(side))["table_hub"]
    second = (await scope_seen_by(side))["table_hub"]

    assert first is second is side.hub()
    assert first.loop is asyncio.get_running_loop()
    told = broadcast.transport()
    assert isinstance(told, HubTransport) and told.hub is first


def test_a_new_event_loop_has_a_hub_of_its_own() -> None:
    side = LiveSide(None)

    async def hub():
        return side.hub()

    first = asyncio.run(hub())
    second = asyncio.run(hub())

    assert first is not second


async def test_a_send_from_the_database_thread_does_not_wait_for_the_busy_loop() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("sends", channel)
    transport = HubTransport(LiveSide(None).hub())
    sent = threading.Event()

    def send_in_order() -> None:
        for number in range(5):
            transport.send("sends", {"type": "test.message", "number": number})
        sent.set()

    call = asyncio.ensure_future(sync_to_async(send_in_order, thread_sensitive=True)())
    await asyncio.sleep(0)  # the call is on its way to the database thread
    # Block the event loop itself, as a loop busy drawing tables would be: waiting for it, the
    # sends could not finish and the event would never be set.
    assert sent.wait(timeout=10), "the database thread waited for the event loop"
    await call

    received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(5)]
    assert [message["number"] for message in received] == [0, 1, 2, 3, 4]


def test_a_send_after_the_loop_closed_is_dropped_with_a_warning(caplog) -> None:
    async def hub():
        return LiveSide(None).hub()

    transport = HubTransport(asyncio.run(hub()))

    transport.send("lobby", {"type": "lobby.update"})

    assert "the event loop is closed" in caplog.text
