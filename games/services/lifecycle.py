"""What other apps may listen to as games begin and end, without the games knowing them.

Both signals are sent after the transaction that started or ended the game commits, so a
receiver reads what was written and may open its own transaction. ``sender`` is
:class:`~games.models.Game`.

- :data:`game_started`: ``table_id``, ``game_id``, ``user_ids`` (the people seated, bots left
  out), sent by :func:`games.services.starting.start_seated`.
- :data:`game_ended`: ``table_id``, ``game_id`` (``None`` for a table closed before any game),
  ``ending`` (a :class:`games.services.finish.Ending` value), ``winner`` (the winning seat, or
  ``None``), ``user_ids``, sent by :func:`games.services.finish.finish`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

from games.models import Game

game_started = Signal()
game_ended = Signal()


def started(table_id: int, game_id: int, user_ids: Iterable[int | None]) -> None:
    """Send :data:`game_started` once the transaction commits."""
    people = tuple(user_id for user_id in user_ids if user_id is not None)
    transaction.on_commit(
        lambda: game_started.send(Game, table_id=table_id, game_id=game_id, user_ids=people)
    )


def ended(
    table_id: int,
    game_id: int | None,
    ending: str,
    winner: int | None,
    user_ids: Iterable[int | None],
) -> None:
    """Send :data:`game_ended` once the transaction commits."""
    people = tuple(user_id for user_id in user_ids if user_id is not None)
    transaction.on_commit(
        lambda: game_ended.send(
            Game,
            table_id=table_id,
            game_id=game_id,
            ending=str(ending),
            winner=winner,
            user_ids=people,
        )
    )
