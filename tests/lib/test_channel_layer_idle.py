"""An idle websocket on the Redis channel layer keeps receiving: a socket whose table has no
move for a while must still get the next one. channels-redis waits for messages with blocking
reads of a few seconds; redis-py must not time those reads out (REDIS_URL set)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator

from lib.env import channel_layers_config

IDLE_SECONDS = 16
GROUP = "idle-table"


class GroupEcho(AsyncWebsocketConsumer):
    """Joins GROUP and sends each group message's text to its socket."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(GROUP, self.channel_name)

    async def table_update(self, event: dict) -> None:
        await self.send(text_data=event["text"])


@pytest.fixture
def redis_layer(redis_url: str, settings) -> Iterator[None]:
    settings.CHANNEL_LAYERS = channel_layers_config(redis_url)
    channel_layers.backends.pop("default", None)
    yield
    channel_layers.backends.pop("default", None)


def test_the_channel_layer_waits_on_redis_without_a_read_timeout() -> None:
    host = channel_layers_config("redis://127.0.0.1:6379/0")["default"]["CONFIG"]["hosts"][0]

    assert host["socket_timeout"] is None
    assert host["max_connections"] == 1000


# Channels closes stale database connections around each message a consumer handles.
@pytest.mark.django_db(transaction=True)
async def test_a_socket_idle_for_longer_than_fifteen_seconds_still_gets_a_group_message(
    redis_layer,
) -> None:
    socket = WebsocketCommunicator(GroupEcho.as_asgi(), "/ws/idle/")
    connected, _ = await socket.connect()
    assert connected

    assert await socket.receive_nothing(timeout=IDLE_SECONDS, interval=1)
    await get_channel_layer().group_send(GROUP, {"type": "table.update", "text": "move 8"})

    assert await socket.receive_from(timeout=5) == "move 8"
    await socket.disconnect()
    await asyncio.sleep(0)
