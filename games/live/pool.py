"""``ws/pool/``: a quick-match pool page's socket.

It keeps its person's place in the pool while it is open (``quickmatch.page_opened``, the
process's :class:`Heartbeat`, ``page_closed``), pushes how many people wait in the
pool whenever that changes, and, when its person is seated (or leaves the pool in another tab),
pushes the element that sends the page on (``presenters.pools.pool_elsewhere_fragment``).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.live import heartbeat, restarts
from games.live.consumers import CLOSE_FORBIDDEN, CLOSE_SIGNED_OUT, SharedReads
from games.live.scope import language_of, user_of
from games.presenters import pools as pool_fragments
from games.presenters.pools import PoolView
from games.services import broadcast, quickmatch

pool_views: SharedReads[PoolView] = SharedReads()


class Heartbeat(heartbeat.Heartbeat):
    """The people with a pool page open in this process, told alive to the database in one
    statement every ``HEARTBEAT_SECONDS`` (``quickmatch.pages_alive``), however many pages: an
    entry no process speaks for any more (its server died) is reaped."""

    def interval(self) -> float:
        return quickmatch.HEARTBEAT_SECONDS

    def alive(self, user_ids: list[int]) -> None:
        quickmatch.pages_alive(user_ids)


class PoolConsumer(AsyncWebsocketConsumer):
    """One pool page of a signed-in person waiting in a pool."""

    pool = ""
    counted = False  # in its entry's count of open pages, and in this process's heartbeat

    async def connect(self) -> None:
        self.user = user_of(self.scope)
        if not getattr(self.user, "is_authenticated", False):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = language_of(self.scope)
        await self.accept()
        restarts.opened(self)
        for group in self._person_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        entry = await database_sync_to_async(quickmatch.page_opened)(self.user)
        if entry is None:  # seated, or out of the pools, before this page opened
            await self._send_elsewhere(None)
            return
        self.counted = True
        Heartbeat.here().add(self.user.pk)
        self.pool = entry.pool
        await self.channel_layer.group_add(broadcast.pool_group(self.pool), self.channel_name)
        await self.pool_update({"key": ""})

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "language"):
            return  # refused before it was accepted
        restarts.closed(self)
        for group in self._person_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.pool:
            await self.channel_layer.group_discard(
                broadcast.pool_group(self.pool), self.channel_name
            )
        if self.counted:
            Heartbeat.here().discard(self.user.pk)
            await database_sync_to_async(quickmatch.page_closed)(self.user)

    @property
    def _person_groups(self) -> tuple[str, ...]:
        """Its person's pool pages, and every socket of theirs (told when their sessions end)."""
        return broadcast.pool_person_group(self.user.pk), broadcast.user_group(self.user.pk)

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        """The person logged out, changed their password or was banned: the page stops holding
        their place (they leave the pool as when it closes)."""
        await self.close(code=CLOSE_SIGNED_OUT)

    async def close_for_restart(self) -> None:
        """The process is stopping: close, and the page reconnects elsewhere, keeping its place
        (an entry outlives its last page by ``quickmatch.RECONNECT_GRACE``)."""
        await self.close(code=restarts.CLOSE_SERVICE_RESTART)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page only listens

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
