"""Finished games as records: export a game's taki-record/1, and verify a stored game."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.engine import replay
from games.models import Game, Move
from games.services.errors import ServiceError

User = AbstractBaseUser


def export_record(game: Game, user: User | None = None) -> dict[str, Any]:
    """The finished game's taki-record/1 record (docs/record-format.md), with extra keys:
    ``game_id``, ``started_at``, ``finished_at``, ``result`` (winner seat and name) and
    ``digests``.

    :raises ServiceError: ``forbidden`` while the game runs or if it was aborted (the record
        holds the deck and so every hand).
    """
    if not game.finished:
        raise ServiceError("forbidden", _("The record is published when the game is over."))
    moves = list(game.moves.order_by("seq").values_list("action", "digest"))
    record = game.record(
        actions=[action for action, _digest in moves],
        extra={
            "game_id": game.pk,
            "started_at": game.started_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "result": {"winner": game.winner, "winner_name": game.players[game.winner]},
            "digests": [digest for _action, digest in moves],
        },
    )
    return record.to_json()


def verify_game(game: Game) -> bool:
    """Replay the game's moves from its header: do they give the stored snapshot again, and does
    every move's digest chain to the one before?"""
    moves = list(game.moves.order_by("seq"))
    previous = ""
    for index, move in enumerate(moves):
        if move.seq != index or move.digest != Move.chain(previous, move.action):
            return False
        previous = move.digest
    if len(moves) != game.version:
        return False
    result = replay(game.record())
    return result.ok and result.game is not None and result.game.to_snapshot() == game.state
