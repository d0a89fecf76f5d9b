"""A server process's live side: the table hub its sockets share, and the transport it gives the
services.

:class:`LiveSide` wraps the site's websocket routes (``games.live.routing.application``). On the
event loop that serves them it makes the process's :class:`~games.live.table_hub.TableHub`, hands
it to each table socket in the socket's scope (``scope["table_hub"]``), and gives the services
their transport (``broadcast.serve_through``): from then on what they send after commit goes out
from that loop, in order, and each move they store is handed to the hub, which draws it here and
tells the other processes at the table. Daphne's process makes it when its reactor starts
(``start_with_server``), so that the clock's first move already goes through it.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from channels.layers import get_channel_layer

from games.live.table_hub import TableHub
from games.live.transports import HubTransport
from games.services import broadcast
from lib import garbage_collection


class LiveSide:
    """ASGI middleware around the websocket routes: the table hub of the running event loop and
    channel layer in each socket's scope, made (and given to the services) the first time one is
    asked for on that loop."""

    def __init__(
        self, application: Any, collector: garbage_collection.Settling = garbage_collection.process
    ) -> None:
        self.application = application
        self.collector = collector  # settled as the first socket is served
        self._hub: TableHub | None = None

    def hub(self) -> TableHub:
        """The hub of the running event loop and channel layer; a new one (given to the
        services as their transport) if there is none yet."""
        layer = get_channel_layer()
        hub = self._hub
        if hub is None or hub.loop is not asyncio.get_running_loop() or hub.layer is not layer:
            hub = self._hub = TableHub(layer)
            broadcast.serve_through(HubTransport(hub))
        return hub

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        self.collector.settle()  # a socket is served: start-up is over, its objects kept
        return await self.application({**scope, "table_hub": self.hub()}, receive, send)

    def http(self, application: Any) -> Any:
        """``application`` (Django's, for HTTP) with the same hub in each request's scope, for
        the API's game streams, which are sockets of the hub too (``api.play``)."""

        async def serve(scope: dict[str, Any], receive: Any, send: Any) -> Any:
            return await application({**scope, "table_hub": self.hub()}, receive, send)

        return serve

    def start_with_server(self) -> None:
        """Make the hub when Daphne's event loop starts (called from ``asgi.py``), as the clock
        is started (``games.clock.start_with_server``). Outside Daphne this does nothing: the
        hub is made when the first socket connects."""
        if "daphne.server" not in sys.modules:
            return
        from twisted.internet import reactor

        reactor.callLater(0, self.hub)
