"""A server process's live side (``games.live.server``): one table hub per event loop, handed to
the sockets and given to the services as the transport they tell."""

from __future__ import annotations

import asyncio

from games.live.server import LiveSide
from games.live.transports import HubTransport
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
