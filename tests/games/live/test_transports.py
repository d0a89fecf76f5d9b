"""The services' transports (``games.live.transports``): straight to the channel layer, or from
the live side's event loop without making the database thread wait."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.live.server import LiveSide
from games.live.transports import ChannelLayerTransport, HubTransport


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


def test_a_process_that_serves_no_sockets_sends_before_it_returns() -> None:
    """As ``manage.py run_clock`` sends: from a thread with no event loop behind it, straight to
    the channel layer. The listener keeps one loop throughout (the Redis pub/sub layer
    subscribes per loop)."""
    layer = get_channel_layer()
    sent = threading.Event()

    def send() -> None:
        ChannelLayerTransport().send("direct", {"type": "test.message", "number": 7})
        sent.set()

    async def listen_while_another_thread_sends() -> dict:
        channel = await layer.new_channel()
        await layer.group_add("direct", channel)
        thread = threading.Thread(target=send)
        thread.start()
        await asyncio.to_thread(thread.join, 10)
        assert sent.is_set(), "the send did not return"
        return await asyncio.wait_for(layer.receive(channel), 5)

    assert asyncio.run(listen_while_another_thread_sends())["number"] == 7
