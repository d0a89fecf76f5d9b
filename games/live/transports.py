"""The transports the services tell the site's sockets through (``broadcast.Transport``): one for
a process that serves no sockets, one for a process whose live side serves them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.services.changes import TableChange

if TYPE_CHECKING:
    from games.live.table_hub import TableHub

logger = logging.getLogger(__name__)


class ChannelLayerTransport:
    """The services' transport in a process that serves no sockets (``manage.py run_clock``, a
    management command, a test): each message sent to the channel layer at once, and waited
    for, so that sends keep their order; no move is taken in process. The games app gives it to
    every process as it starts (``GamesConfig.ready``)."""

    def send(self, group: str, message: dict[str, Any]) -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    def move_stored(self, change: TableChange) -> bool:
        return False


class HubTransport:
    """The services' transport in a process that serves sockets: sends are handed to the hub's
    event loop and made there one after the other (not waited for: the one thread that runs
    every database call of a process would otherwise idle until the loop, busy drawing tables,
    gets round to it); a stored move's change is handed to the hub itself."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub

    def send(self, group: str, message: dict[str, Any]) -> None:
        try:
            self.hub.loop.call_soon_threadsafe(self.hub.sends.group_send, group, message)
        except RuntimeError:  # the loop closed meanwhile (the server is stopping)
            logger.warning("not sent to %s: the event loop is closed", group)

    def move_stored(self, change: TableChange) -> bool:
        return self.hub.move_stored(change)
