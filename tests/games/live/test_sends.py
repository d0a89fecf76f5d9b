"""A process's sends to the channel layer go one after the other (``games.live.sends``)."""

from __future__ import annotations

import asyncio

from games.live.sends import OrderedSends


class SlowFirstLayer:
    """A layer whose first send is the slowest, as a Redis round trip may be."""

    def __init__(self) -> None:
        self.delivered: list[tuple[str, int]] = []

    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.sleep(0.05 if message["number"] == 0 else 0)
        self.delivered.append((group, message["number"]))

    async def send(self, channel: str, message: dict) -> None:
        await asyncio.sleep(0.05 if message["number"] == 0 else 0)
        self.delivered.append((channel, message["number"]))


async def test_sends_do_not_overtake_each_other_whatever_they_are_sent_to() -> None:
    layer = SlowFirstLayer()
    sends = OrderedSends(layer)

    sends.group_send("table-7", {"number": 0})
    sends.send("hub-2", {"number": 1})
    sends.group_send("lobby", {"number": 2})
    await sends.done()

    assert layer.delivered == [("table-7", 0), ("hub-2", 1), ("lobby", 2)]


async def test_a_send_that_fails_does_not_hold_up_the_ones_after_it(caplog) -> None:
    class Broken(SlowFirstLayer):
        async def group_send(self, group: str, message: dict) -> None:
            if message["number"] == 0:
                raise ConnectionError("the layer went away")
            await super().group_send(group, message)

    layer = Broken()
    sends = OrderedSends(layer)

    sends.group_send("table-7", {"number": 0})
    sends.group_send("table-7", {"number": 1})
    await sends.done()

    assert layer.delivered == [("table-7", 1)]
    assert "a message was not sent" in caplog.text
