"""``ws/pool/``: a quick-match pool page's socket.

It keeps its person's place in the pool while it is open (``quickmatch.page_opened``, a
heartbeat every ``HEARTBEAT_SECONDS``, ``page_closed``), pushes how many people wait in the
pool whenever that changes, and, when its person is seated (or leaves the pool in another tab),
pushes the element that sends the page on (``presenters.pools.pool_elsewhere_fragment``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.live.consumers import CLOSE_FORBIDDEN, SharedReads, _language, _user
from games.presenters import pools as pool_fragments
from games.presenters.pools import PoolView
from games.services import broadcast, quickmatch

pool_views: SharedReads[PoolView] = SharedReads()


class PoolConsumer(AsyncWebsocketConsumer):
    """One pool page of a signed-in person waiting in a pool."""

    pool = ""
    counted = False  # in its entry's count of open pages
    heartbeat: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.user = _user(self.scope)
        if not getattr(self.user, "is_authenticated", False):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = _language(self.scope)
        await self.accept()
        await self.channel_layer.group_add(
            broadcast.pool_person_group(self.user.pk), self.channel_name
        )
        entry = await database_sync_to_async(quickmatch.page_opened)(self.user)
        if entry is None:  # seated, or out of the pools, before this page opened
            await self._send_elsewhere(None)
            return
        self.counted = True
        self.pool = entry.pool
        await self.channel_layer.group_add(broadcast.pool_group(self.pool), self.channel_name)
        self.heartbeat = asyncio.ensure_future(self._beat())
        await self.pool_update({"key": ""})

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if not hasattr(self, "language"):
            return  # refused before it was accepted
        await self.channel_layer.group_discard(
            broadcast.pool_person_group(self.user.pk), self.channel_name
        )
        if self.pool:
            await self.channel_layer.group_discard(
                broadcast.pool_group(self.pool), self.channel_name
            )
        if self.counted:
            await database_sync_to_async(quickmatch.page_closed)(self.user)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page only listens

    async def _beat(self) -> None:
        """Say every ``HEARTBEAT_SECONDS`` that this page is still open: an entry no page speaks
        for any more (its server died) is reaped."""
        alive = database_sync_to_async(quickmatch.page_alive)
        while True:
            await asyncio.sleep(quickmatch.HEARTBEAT_SECONDS)
            with contextlib.suppress(Exception):  # the database away for a moment: next beat
                await alive(self.user)

    async def pool_update(self, message: dict[str, Any]) -> None:
        """The number of people waiting in the pool changed."""
        pool = self.pool
        read = database_sync_to_async(pool_fragments.read_pool)
        key = message.get("key") or ""
        view = await (pool_views.get(key, lambda: read(pool)) if key else read(pool))
        with translation.override(self.language):
            await self.send(text_data=pool_fragments.pool_count_fragment(view))

    async def pool_elsewhere(self, message: dict[str, Any]) -> None:
        """The person was seated, moved to another pool or left in another tab."""
        await self._send_elsewhere(message.get("table"))

    async def _send_elsewhere(self, table_id: int | None) -> None:
        with translation.override(self.language):
            await self.send(text_data=pool_fragments.pool_elsewhere_fragment(table_id))
