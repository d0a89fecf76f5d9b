"""A process's sends to the channel layer, one after the other.

A layer's sends may overtake each other (channels-redis makes several round trips for one), and
a table's sockets must never be told of a change before the change before it. So every send of
a process's live side goes through one :class:`OrderedSends`: each starts once the one before it
is done (whether it failed or not), and none is waited for by whoever asked for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)


class OrderedSends:
    """Sends to ``layer`` in the order they are asked for, on the running event loop."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self._under_way: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None

    def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``group`` after the sends asked for before it."""
        self._after_the_last(lambda: self.layer.group_send(group, message))

    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to one ``channel`` after the sends asked for before it."""
        self._after_the_last(lambda: self.layer.send(channel, message))

    async def done(self) -> None:
        """Return once every send asked for so far has been made (or has failed)."""
        if self._under_way:
            await asyncio.wait(set(self._under_way))

    def _after_the_last(self, send: Callable[[], Awaitable[None]]) -> None:
        previous = self._last

        async def in_turn() -> None:
            if previous is not None:
                await asyncio.wait([previous])  # done, whether it failed or not
            await send()

        task = self._last = asyncio.get_running_loop().create_task(in_turn())
        self._under_way.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._under_way.discard(task)
        if self._last is task:
            self._last = None
        if not task.cancelled() and task.exception() is not None:
            logger.error("a message was not sent", exc_info=task.exception())
