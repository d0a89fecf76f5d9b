"""``ws/arenas/<id>/``: an arena page's socket. It pushes the standings (``#arena-standings``)
whenever they change (``arenas.services.broadcast.standings_changed``): each process reads them
once per change for all its pages and draws them once per language; each page's person has
their own row marked, or shown below the first rows."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from arenas import presenters
from arenas.models import Arena
from arenas.services import broadcast
from arenas.services.players import may_see
from games.live import restarts
from games.live.consumers import CLOSE_FORBIDDEN, CLOSE_SIGNED_OUT, SharedReads
from games.live.scope import language_of, user_of
from games.services import broadcast as games_broadcast

# The boards of the last few changes, read once for all of this process's arena pages.
boards: SharedReads[presenters.Board] = SharedReads()


def _visible(arena_id: int, user, invite: str) -> Arena | None:
    arena = Arena.objects.filter(pk=arena_id).first()
    return arena if arena is not None and may_see(arena, user, invite) else None


class ArenaConsumer(AsyncWebsocketConsumer):
    """One arena page."""

    arena: Arena | None = None

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
        """The standings changed: read once for the process's pages (``key``), drawn once per
        language, this page's person's row marked."""
        arena_id = self.arena.pk
        read = database_sync_to_async(presenters.read_board)
        key = message.get("key") or ""
        board = await (boards.get(key, lambda: read(arena_id)) if key else read(arena_id))
        with translation.override(self.language):
            html = presenters.board_fragment(board, self.user)
        await self.send(text_data=html)
