"""The table hub: one queue of work per table, one group membership per process and table, and
each change drawn once for all the sockets of a table here (``games.live.table_hub``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.contrib.auth.models import AnonymousUser

from games import presenters
from games.live.table_hub import TableHub
from games.live.transports import HubTransport
from games.services import broadcast
from games.services.broadcast import group_name
from lib.channel_layers import PacedInMemoryChannelLayer
from tests.play import play_next_move

# The reads of the tables below are faked, but the database thread still checks its connection.
pytestmark = pytest.mark.django_db


class FakeSocket:
    """A table socket that records what it is sent; its pushes may wait for ``gate`` or fail."""

    def __init__(
        self, *, gate: asyncio.Event | None = None, failures: int = 0, user: Any = None
    ) -> None:
        self.user = user or AnonymousUser()
        self.language = "en"
        self.gate = gate
        self.failures = failures
        self.tried = 0
        self.pushed: list[Any] = []

    async def push(self, view: Any, flash: str = "") -> None:
        self.tried += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the socket is gone")
        self.pushed.append(view)

    async def push_seats(self, view: Any) -> None:
        self.pushed.append(view)

    async def push_chat_line(self, line: Any) -> None: ...

    async def push_chat_hidden(self, message_id: int) -> None: ...


async def until(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "waited in vain"
        await asyncio.sleep(0.005)


async def settled(hub: TableHub) -> None:
    """Until every table's queue here has run dry."""
    await until(lambda: not hub._queues)


class Stored(dict[int, int]):
    """The game version of each table "in the database", and the tables read, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[int] = []

    def read_table(self, table_id: int) -> SimpleNamespace:
        self.reads.append(table_id)
        return SimpleNamespace(table_id=table_id, version=self.get(table_id), seats=())


@pytest.fixture
def stored(monkeypatch) -> Stored:
    """Tables read from :class:`Stored` instead of the database."""
    tables = Stored()
    monkeypatch.setattr(presenters, "read_table", tables.read_table)
    return tables


@pytest.fixture
async def hub() -> AsyncIterator[TableHub]:
    hub = TableHub(InMemoryChannelLayer())
    yield hub
    await hub.close()


def serving(hub: TableHub) -> TableHub:
    """Give the services ``hub`` as their transport, as a server process's live side does."""
    broadcast.serve_through(HubTransport(hub))
    return hub


def change(table_id: int, version: int | None = None) -> dict[str, Any]:
    return {"type": "table.update", "table": table_id, "version": version}


async def test_the_jobs_of_one_table_run_in_order_even_when_they_await(hub) -> None:
    done: list[int] = []

    def job(number: int, pause: float) -> Callable[[], Any]:
        async def run() -> None:
            await asyncio.sleep(pause)
            done.append(number)

        return run

    for number, pause in enumerate([0.03, 0, 0.01, 0]):
        hub._enqueue(1, job(number, pause))
    await settled(hub)

    assert done == [0, 1, 2, 3]


async def test_a_slow_socket_at_one_table_does_not_hold_up_another_tables_sockets(
    hub, stored
) -> None:
    gate = asyncio.Event()
    slow, quick = FakeSocket(gate=gate), FakeSocket()
    hub.join(1, slow)
    hub.join(2, quick)
    await until(lambda: len(quick.pushed) == 1)
    stored[2] = 1
    await hub.layer.group_send(group_name(2), change(2, 1))

    await until(lambda: len(quick.pushed) == 2)
    assert slow.pushed == [] and slow.tried == 1  # still waiting for its first push
    gate.set()
    await settled(hub)
    assert len(slow.pushed) == 1


async def test_a_failing_socket_does_not_stop_the_others(hub, stored) -> None:
    # Each fails the first push of the change: whichever is sent it first, the other is too.
    sockets = [FakeSocket(), FakeSocket()]
    for socket in sockets:
        hub.join(1, socket)
    await settled(hub)
    for socket in sockets:
        socket.failures = 1
    await hub.layer.group_send(group_name(1), change(1))
    await until(lambda: all(socket.tried == 2 for socket in sockets))

    await hub.layer.group_send(group_name(1), change(1))  # both still get the next one
    await until(lambda: all(len(socket.pushed) == 2 for socket in sockets))


async def test_every_socket_s_join_adds_the_process_to_the_table_s_group_again(hub, stored) -> None:
    layer, group = hub.layer, group_name(1)
    hub.join(1, FakeSocket())
    await settled(hub)
    channel = await hub._channel
    await layer.group_discard(group, channel)  # as a layer forgets a member after a day

    hub.join(1, FakeSocket())
    await settled(hub)

    assert channel in layer.groups[group]


async def test_a_change_older_than_the_one_drawn_is_not_drawn_again(hub, stored) -> None:
    socket = FakeSocket()
    hub.join(1, socket)
    await settled(hub)
    stored[1] = 6
    await hub.layer.group_send(group_name(1), change(1, 6))
    await until(lambda: len(socket.pushed) == 2)

    for version in (5, 6):
        await hub.layer.group_send(group_name(1), change(1, version))
    await hub.layer.group_send(group_name(1), change(1))  # no version: always drawn
    await until(lambda: len(socket.pushed) == 3)
    await settled(hub)

    assert [view.version for view in socket.pushed] == [None, 6, 6]
    assert stored.reads == [1, 1, 1]


async def test_leaving_with_the_last_socket_leaves_the_group_and_forgets_the_table(
    hub, stored
) -> None:
    first, second = FakeSocket(), FakeSocket()
    stored[1] = 3
    hub.join(1, first)
    hub.join(1, second)
    await settled(hub)
    await hub.layer.group_send(group_name(1), change(1, 3))
    await until(lambda: len(first.pushed) == 2)
    channel = await hub._channel

    hub.leave(1, first)
    await settled(hub)
    assert channel in hub.layer.groups[group_name(1)] and 1 in hub.sockets

    hub.leave(1, second)
    await settled(hub)
    assert channel not in hub.layer.groups.get(group_name(1), {})
    assert (1 in hub.sockets, 1 in hub.views, 1 in hub.versions) == (False, False, False)


# ---------------------------------------------------------------------- a move stored here


play_one = database_sync_to_async(play_next_move)


@pytest.mark.django_db(transaction=True)
async def test_a_change_handed_in_process_is_drawn_without_a_database_read(
    game_table, alice, bob, counted_reads
) -> None:
    hub = serving(TableHub(get_channel_layer()))
    socket = FakeSocket(user=alice)
    hub.join(game_table.pk, socket)
    await until(lambda: len(socket.pushed) == 1)
    handed = []
    move_stored = hub.move_stored
    hub.move_stored = lambda change: (handed.append(change), move_stored(change))

    version = await play_one(game_table, alice, bob)

    await until(lambda: len(socket.pushed) == 2)
    assert [change.version for change in handed] == [version]
    assert socket.pushed[1].version == version
    assert counted_reads == [game_table.pk]  # the join's read only
    await hub.close()


class CountingLayer(PacedInMemoryChannelLayer):
    """The in-memory layer, counting the messages sent through it: a group's message once."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []
        self.to_group = False

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if not self.to_group:
            self.sent.append(message)
        await super().send(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append(message)
        self.to_group = True
        try:
            await super().group_send(group, message)
        finally:
            self.to_group = False


@pytest.mark.django_db(transaction=True)
async def test_a_move_with_every_socket_of_the_table_here_crosses_no_layer(
    game_table, alice, bob, counted_reads
) -> None:
    layer = CountingLayer()
    hub = serving(TableHub(layer))
    sockets = [FakeSocket(user=alice), FakeSocket(user=bob), FakeSocket()]
    for socket in sockets:
        hub.join(game_table.pk, socket)
    await until(lambda: all(socket.pushed for socket in sockets))
    await settled(hub)
    assert [message["type"] for message in layer.sent] == ["hub.joined"]  # heard by no other

    await play_one(game_table, alice, bob)
    version = await play_one(game_table, alice, bob)

    await until(lambda: all(socket.pushed[-1].version == version for socket in sockets))
    await settled(hub)
    assert [message["type"] for message in layer.sent] == ["hub.joined"]
    assert counted_reads == [game_table.pk] * 3  # the joins' reads only
    await hub.close()


@pytest.mark.django_db(transaction=True)
async def test_a_move_at_a_table_with_no_socket_here_goes_to_its_group(
    game_table, alice, bob
) -> None:
    layer = CountingLayer()
    hub = serving(TableHub(layer))

    version = await play_one(game_table, alice, bob)

    await until(lambda: bool(layer.sent))
    assert layer.sent == [{"type": "table.update", "table": game_table.pk, "version": version}]
    await hub.close()


async def test_a_hub_that_joins_is_answered_with_the_newest_version_sent_here(hub, stored) -> None:
    socket = FakeSocket()
    hub.join(1, socket)
    await settled(hub)
    stored[1] = 4
    await hub.layer.group_send(group_name(1), change(1, 4))
    await until(lambda: len(socket.pushed) == 2)
    other = await hub.layer.new_channel()

    await hub.layer.group_send(group_name(1), {"type": "hub.joined", "table": 1, "from": other})

    answer = await asyncio.wait_for(hub.layer.receive(other), 2)
    assert answer == {"type": "hub.present", "table": 1, "from": hub.channel_name, "version": 4}
    assert hub.others[1] == {other}


async def test_a_hub_that_answers_this_one_s_joining_is_told_the_newest_version_sent_here(
    hub, stored
) -> None:
    socket = FakeSocket()
    stored[1] = 5
    hub.join(1, socket)
    await settled(hub)
    await hub.layer.group_send(group_name(1), change(1, 5))  # a move it did not hear of
    await until(lambda: len(socket.pushed) == 2)
    other = await hub.layer.new_channel()
    present = {"type": "hub.present", "table": 1, "from": other, "version": None}

    await hub.layer.send(hub.channel_name, present)

    told = await asyncio.wait_for(hub.layer.receive(other), 2)
    assert told == {"type": "table.update", "table": 1, "version": 5}


async def test_a_newer_version_brought_by_another_hub_is_read_and_drawn(hub, stored) -> None:
    socket = FakeSocket()
    hub.join(1, socket)
    await settled(hub)
    stored[1] = 9  # stored by the other process before it knew of this one
    present = {"type": "hub.present", "table": 1, "from": "elsewhere", "version": 9}

    await hub.layer.send(hub.channel_name, present)

    await until(lambda: len(socket.pushed) == 2)
    assert socket.pushed[1].version == 9 and hub.others[1] == {"elsewhere"}
    await hub.layer.send(hub.channel_name, {**present, "type": "hub.left", "version": 9})
    await until(lambda: not hub.others[1])
    await settled(hub)
    assert len(socket.pushed) == 2  # nothing newer: not drawn again


async def test_the_last_socket_leaving_tells_the_table_s_group_what_it_was_sent(
    hub, stored
) -> None:
    socket = FakeSocket()
    stored[1] = 5
    hub.join(1, socket)
    await settled(hub)
    await hub.layer.group_send(group_name(1), change(1, 5))
    await until(lambda: len(socket.pushed) == 2)
    other = await hub.layer.new_channel()
    await hub.layer.group_add(group_name(1), other)

    hub.leave(1, socket)

    left = await asyncio.wait_for(hub.layer.receive(other), 2)
    assert left == {"type": "hub.left", "table": 1, "from": hub.channel_name, "version": 5}


@pytest.mark.parametrize(
    "sent",
    [
        {"format": "taki-change/2", "table": {"id": 1, "status": "playing"}},
        {"format": "taki-change/1", "table": {"id": 1}},
        "a pickle from another version of the site",
    ],
)
async def test_a_change_this_process_cannot_read_makes_it_read_the_table(
    hub, stored, sent, caplog
) -> None:
    socket = FakeSocket()
    hub.join(1, socket)
    await settled(hub)
    stored[1] = 5

    await hub.layer.group_send(group_name(1), {**change(1, 5), "change": sent})

    await until(lambda: len(socket.pushed) == 2)
    assert socket.pushed[-1].version == 5
    assert stored.reads == [1, 1]  # the join's, and this one
    assert hub.versions[1] == 5
    assert "a move's change from another process was not read" in caplog.text
