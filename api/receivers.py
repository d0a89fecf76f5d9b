"""What the API's streams are told as games begin and end: the games' lifecycle signals
(``games.services.lifecycle``), passed to each person's event streams through the services'
transport, as every other message to the live side."""

from __future__ import annotations

from typing import Any

from games.services import broadcast


def user_group(user_id: int) -> str:
    """The group of one person's event streams (``api.events``)."""
    return f"api-user-{user_id}"


def token_group(token_id: str) -> str:
    """The group of one token's event stream: a new one tells the one before to close."""
    return f"api-token-{token_id}"


def game_started(sender: Any, *, table_id: int, game_id: int, user_ids, **kwargs: Any) -> None:
    message = {"type": "api.game", "kind": "gameStart", "table": table_id, "game": game_id}
    for user_id in user_ids:
        broadcast.transport().send(user_group(user_id), message)


def game_ended(
    sender: Any, *, table_id: int, game_id, ending: str, winner, user_ids, **kwargs: Any
) -> None:
    message = {
        "type": "api.game",
        "kind": "gameFinish",
        "table": table_id,
        "game": game_id,
        "ending": ending,
        "winner": winner,
    }
    for user_id in user_ids:
        broadcast.transport().send(user_group(user_id), message)


def token_revoked(token_id: str) -> None:
    """The token's event stream closes at once."""
    broadcast.transport().send(token_group(token_id), {"type": "api.revoked"})
