"""The arena's pages are told through the games' transport, after commit."""

from __future__ import annotations

import uuid

from django.db import transaction

from games.services import broadcast


def arena_group(arena_id: int) -> str:
    """The channel-layer group of one arena's pages."""
    return f"arena-{arena_id}"


def standings_changed(arena_id: int) -> None:
    """After commit, tell the arena's pages to draw its standings again (each process reads
    them once for all its pages: ``key``)."""
    message = {"type": "arena.update", "arena": arena_id, "key": uuid.uuid4().hex}
    through = broadcast.transport()
    transaction.on_commit(lambda: through.send(arena_group(arena_id), message), robust=True)
