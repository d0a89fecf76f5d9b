"""``ws/arenas/<id>/``: an arena page's socket. It pushes the standings (``#arena-standings``)
whenever they change (``arenas.services.broadcast.standings_changed``): each process reads them
at most once every half second for all its pages and draws them once per language; each page's
person has their own row marked, or shown below the first rows."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from arenas import presenters
from arenas.models import Arena
from arenas.services import broadcast
from arenas.services.players import may_see
from games.live import restarts
from games.live.consumers import CLOSE_FORBIDDEN, CLOSE_SIGNED_OUT
from games.live.scope import language_of, user_of
from games.services import broadcast as games_broadcast

# Changes within this many seconds of one another are drawn once, from one read at the end.
COALESCE_SECONDS = 0.5


class Coalesced:
    """One read of an arena per ``COALESCE_SECONDS`` for every page of this process: the first
    change starts a read that waits that long, and every change heard meanwhile, on every page,
    awaits that same read (a busy arena's games end several times a second)."""

    def __init__(self, seconds: float = COALESCE_SECONDS) -> None:
        self.seconds = seconds
        self._pending: dict[int, asyncio.Future[presenters.Board]] = {}

    async def get(self, arena_id: int) -> presenters.Board:
        future = self._pending.get(arena_id)
        if future is None:
            future = self._pending[arena_id] = asyncio.ensure_future(self._read(arena_id))
        return await asyncio.shield(future)

    async def _read(self, arena_id: int) -> presenters.Board:
        await asyncio.sleep(self.seconds)
        # A change heard from now on starts the next read: this one may not include it.
        self._pending.pop(arena_id, None)
        return await database_sync_to_async(presenters.read_board)(arena_id)


boards = Coalesced()


def _visible(arena_id: int, user, invite: str) -> Arena | None:
    arena = Arena.objects.filter(pk=arena_id).first()
    return arena if arena is not None and may_see(arena, user, invite) else None


class ArenaConsumer(AsyncWebsocketConsumer):
    """One arena page."""

    arena: Arena | None = None
    shown: presenters.Board | None = None

    async def connect(self) -> None:
        self.user = user_of(self.scope)
        self.language = language_of(self.scope)
        arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        query = self.scope.get("query_string", b"").decode()
        invite = query.removeprefix("invite=") if query.startswith("invite=") else ""
        self.arena = await database_sync_to_async(_visible)(arena_id, self.user, invite)
        if self.arena is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.pushes: set[asyncio.Task[None]] = set()
        await self.accept()
        restarts.opened(self)
        await self.channel_layer.group_add(broadcast.arena_group(arena_id), self.channel_name)
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_add(
                games_broadcast.user_group(self.user.pk), self.channel_name
            )
        await self.arena_update({})

    async def disconnect(self, code: int) -> None:
        if self.arena is None:
            return
        for task in list(self.pushes):
            task.cancel()
        restarts.closed(self)
        await self.channel_layer.group_discard(
            broadcast.arena_group(self.arena.pk), self.channel_name
        )
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_discard(
                games_broadcast.user_group(self.user.pk), self.channel_name
            )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page only listens

    async def close_for_restart(self) -> None:
        await self.close(code=restarts.CLOSE_SERVICE_RESTART)

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_SIGNED_OUT)

    async def arena_update(self, message: dict[str, Any]) -> None:
        """The standings changed: read once for the process's pages (``boards``), drawn once
        per language, this page's person's row marked; a page already shown that board is not
        sent it again. The page's first drawing is read at once."""
        if not message:
            await self._show(await database_sync_to_async(presenters.read_board)(self.arena.pk))
            return
        # Waited for beside the socket's next messages, which join the same read meanwhile.
        task = asyncio.ensure_future(self._show_coalesced())
        self.pushes.add(task)
        task.add_done_callback(self.pushes.discard)

    async def _show_coalesced(self) -> None:
        await self._show(await boards.get(self.arena.pk))

    async def _show(self, board: presenters.Board) -> None:
        if board is self.shown:
            return
        self.shown = board
        with translation.override(self.language):
            html = presenters.board_fragment(board, self.user)
        await self.send(text_data=html)
