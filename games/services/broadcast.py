"""The seam between the site and its transport: group names, sends after commit, presence.

The other services never reach for the channel layer or the cache themselves. A table's message
carries no cards: each consumer renders its own user's view from the database.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction

LOBBY_GROUP = "lobby"


def group_name(table_id: int) -> str:
    """The channel-layer group of one table's sockets."""
    return f"table-{table_id}"


def table_changed(table_id: int, version: int | None = None) -> None:
    """After commit, tell the table's sockets to re-render."""
    message = {"type": "table.update", "version": version}
    transaction.on_commit(lambda: _group_send(group_name(table_id), message), robust=True)


def lobby_changed() -> None:
    """After commit, tell the lobby's sockets that the list of open tables changed."""
    transaction.on_commit(lambda: _group_send(LOBBY_GROUP, {"type": "lobby.update"}), robust=True)


def set_connected(table_id: int, user: AbstractBaseUser, connected: bool) -> None:
    """Count one socket of ``user`` at the table opening or closing (for "connected" marks).

    Kept in the cache (per process with the default cache), not in the database: it is not part
    of the game. Broadcasts the table so the others see the change.
    """
    if not getattr(user, "is_authenticated", False):
        return
    key = _presence_key(table_id, user.pk)
    count = max(0, cache.get(key, 0) + (1 if connected else -1))
    cache.set(key, count, timeout=None)
    table_changed(table_id)


def is_connected(table_id: int, user_id: int | None) -> bool:
    return user_id is not None and cache.get(_presence_key(table_id, user_id), 0) > 0


def _presence_key(table_id: int, user_id: int) -> str:
    return f"taki:presence:{table_id}:{user_id}"


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
