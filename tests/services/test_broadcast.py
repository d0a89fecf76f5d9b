"""Group sends made from a server's database thread are handed to its event loop, not waited
for: that one thread runs every database call of the process."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.services import broadcast


async def test_a_send_from_the_database_thread_does_not_wait_for_the_busy_loop() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("sends", channel)
    sent = threading.Event()

    def send_in_order() -> None:
        for number in range(5):
            broadcast._group_send("sends", {"type": "test.message", "number": number})
        sent.set()

    call = asyncio.ensure_future(sync_to_async(send_in_order, thread_sensitive=True)())
    await asyncio.sleep(0)  # the call is on its way to the database thread
    # Block the event loop itself, as a loop busy drawing tables would be: waiting for it, the
    # sends could not finish and the event would never be set.
    assert sent.wait(timeout=10), "the database thread waited for the event loop"
    await call

    received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(5)]
    assert [message["number"] for message in received] == [0, 1, 2, 3, 4]


def test_a_send_outside_a_server_thread_is_made_before_it_returns() -> None:
    layer = get_channel_layer()

    async def listen() -> str:
        channel = await layer.new_channel()
        await layer.group_add("direct", channel)
        return channel

    from asgiref.sync import async_to_sync

    channel = async_to_sync(listen)()
    broadcast._group_send("direct", {"type": "test.message", "number": 7})
    message = async_to_sync(layer.receive)(channel)
    assert message["number"] == 7


async def test_sends_handed_to_the_loop_do_not_overtake_each_other(monkeypatch) -> None:
    """A layer whose first send is the slowest (as a Redis round trip may be) still delivers
    in the order the database thread sent."""
    delivered: list[int] = []

    class SlowFirstLayer:
        async def group_send(self, group: str, message: dict) -> None:
            await asyncio.sleep(0.05 if message["number"] == 0 else 0)
            delivered.append(message["number"])

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: SlowFirstLayer())

    def send_three() -> None:
        for number in range(3):
            broadcast._group_send("slow", {"type": "test.message", "number": number})

    await sync_to_async(send_three, thread_sensitive=True)()
    while broadcast._sending:
        await asyncio.sleep(0.01)
    assert delivered == [0, 1, 2]
