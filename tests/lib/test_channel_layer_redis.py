"""With REDIS_URL set, the channel layer is channels-redis and really carries messages between
layer instances (as between two Daphne processes), and a move stored in one process reaches the
table's sockets in another. The `redis_url` fixture (tests/conftest.py) starts a redis-server of
its own on a free loopback port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from redis import RedisError

from games.live.table_hub import TableHub
from games.live.transports import HubTransport
from games.services import broadcast
from lib.env import REDIS_CHANNEL_LAYERS, channel_layers_config
from tests.play import play_next_move

KINDS = sorted(REDIS_CHANNEL_LAYERS)


def _redis_layer(url: str, kind: str) -> Any:
    config = channel_layers_config(url, kind)["default"]
    module, _, name = config["BACKEND"].rpartition(".")
    layer_class = getattr(__import__(module, fromlist=[name]), name)
    return layer_class(**config["CONFIG"])


class CountedLayer:
    """A layer that counts what is sent through it (one message per send or group send)."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.sent: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.layer, name)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.sent.append(message)
        await self.layer.send(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append(message)
        await self.layer.group_send(group, message)


@pytest.mark.parametrize("kind", KINDS)
async def test_a_group_message_crosses_between_two_redis_layers(redis_url, kind) -> None:
    sender, receiver = _redis_layer(redis_url, kind), _redis_layer(redis_url, kind)
    channel = await receiver.new_channel()
    await receiver.group_add("table-7", channel)

    await sender.group_send("table-7", {"type": "table.update", "version": 3})

    message = await asyncio.wait_for(receiver.receive(channel), 5)
    assert message == {"type": "table.update", "version": 3}
    await receiver.group_discard("table-7", channel)
    await sender.flush()
    await receiver.flush()


async def test_the_settings_choose_redis_pub_sub_with_a_high_connection_cap(
    redis_url, settings
) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(redis_url)
    layer = get_channel_layer()
    try:
        assert type(layer).__name__ == "RedisPubSubChannelLayer"
        # redis-py 8 caps the async pool at 100; consumers die under load without this.
        assert layer._get_layer()._shards[0].host["max_connections"] == 1000
    finally:
        from channels.layers import channel_layers

        channel_layers.backends.pop("default", None)


# ---------------------------------------------------------------------- two processes' hubs


class Socket:
    """A table socket that records the game versions it is sent."""

    def __init__(self, user: Any) -> None:
        self.user, self.language = user, "en"
        self.versions: list[int | None] = []

    async def push(self, view: Any, flash: str = "") -> None:
        self.versions.append(view.version)

    async def push_seats(self, view: Any) -> None: ...

    async def push_chat_line(self, line: Any) -> None: ...

    async def push_chat_hidden(self, message_id: int) -> None: ...


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "waited in vain"
        await asyncio.sleep(0.005)


@pytest.fixture(params=KINDS)
async def two_hubs(request, redis_url) -> AsyncIterator[tuple[TableHub, TableHub]]:
    """The hubs of two server processes on one Redis: the second is where moves are stored
    (the services' transport), the first another process's."""
    layers = [CountedLayer(_redis_layer(redis_url, request.param)) for _ in range(2)]
    other, here = TableHub(layers[0]), TableHub(layers[1])
    broadcast.serve_through(HubTransport(here))
    yield other, here
    for hub in (other, here):
        await hub.close()
    for layer in layers:
        await layer.flush()


play_one = database_sync_to_async(play_next_move)


@pytest.mark.django_db(transaction=True)
async def test_a_move_reaches_the_table_s_sockets_in_both_processes_read_by_neither(
    two_hubs, game_table, alice, bob, counted_reads
) -> None:
    other, here = two_hubs
    await here.sends.done()  # the table was opened and started before anyone was at it
    mine, theirs = Socket(alice), Socket(bob)
    here.join(game_table.pk, mine)
    await until(lambda: bool(mine.versions))
    other.join(game_table.pk, theirs)
    await until(lambda: bool(theirs.versions) and bool(here.others.get(game_table.pk)))
    await until(lambda: bool(other.others.get(game_table.pk)))

    first = await play_one(game_table, alice, bob)
    second = await play_one(game_table, alice, bob)

    await until(lambda: theirs.versions[-1] == second and mine.versions[-1] == second)
    assert first in mine.versions and first in theirs.versions  # each move, in turn
    assert here.others[game_table.pk] == {other.channel_name}
    # The joins' reads only: the other process draws from the change sent with the move.
    assert counted_reads == [game_table.pk, game_table.pk]


@pytest.mark.django_db(transaction=True)
async def test_a_move_with_every_socket_in_its_own_process_sends_nothing_to_redis(
    two_hubs, game_table, alice, bob
) -> None:
    other, here = two_hubs
    await here.sends.done()  # the table was opened and started before anyone was at it
    sockets = [Socket(alice), Socket(bob)]
    for socket in sockets:
        here.join(game_table.pk, socket)
    await until(lambda: all(socket.versions for socket in sockets))
    await here.sends.done()  # the joins, told
    before = len(here.layer.sent)

    version = await play_one(game_table, alice, bob)
    await until(lambda: all(socket.versions[-1] == version for socket in sockets))
    await here.sends.done()

    assert here.layer.sent[before:] == []
    assert not here.others.get(game_table.pk) and not other.layer.sent


@pytest.mark.parametrize("kind", KINDS)
async def test_the_health_check_asks_redis_itself_whichever_the_layer(
    redis_url, kind, settings
) -> None:
    from channels.layers import channel_layers

    from monitoring import health

    settings.CHANNEL_LAYERS = channel_layers_config(redis_url, kind)
    channel_layers.backends.pop("default", None)
    await health.channel_layer_answers()  # answers

    port = redis_url.rsplit(":", 1)[1].split("/")[0]
    settings.CHANNEL_LAYERS = channel_layers_config(redis_url.replace(port, "1"), kind)
    channel_layers.backends.pop("default", None)
    try:
        with pytest.raises((RedisError, OSError)):
            await health.channel_layer_answers()
    finally:
        channel_layers.backends.pop("default", None)
