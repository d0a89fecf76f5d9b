"""What the arenas hear from the games (connected in apps.py)."""

from __future__ import annotations

import logging
from typing import Any

from arenas.services import results

logger = logging.getLogger(__name__)


def game_ended(sender: Any, *, table_id: int, ending: str, winner: int | None, **kwargs) -> None:
    """A game ended (after its commit): if it was an arena's, its points are counted and its
    players go back to the pool. A failure is logged: the game's end is already stored."""
    try:
        results.game_ended(table_id, ending, winner)
    except Exception:
        logger.exception("the arena's points of table %s were not counted", table_id)
