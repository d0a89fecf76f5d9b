"""A finished game's page: its players, its moves in words, and its replay."""

from __future__ import annotations

from typing import Any

from games.engine import spectator_view
from games.models import Game
from games.presenters import listings
from games.presenters.table import board_view
from games.presenters.words import describe_move
from games.services import replays


def finished_game_context(game: Game, step: int | None) -> dict[str, Any]:
    """A finished game's page: players (a seat a bot took over says so), options, result,
    length, moves in words, and the replay after move ``step`` (the last move by default)."""
    moves = list(game.moves.order_by("seq").values("seq", "seat", "source", "events"))
    players = listings.player_views(game)
    names = _move_names(players)
    total = len(moves)
    duration = (game.finished_at - game.started_at) if game.finished_at else None
    return {
        "game": game,
        "table": game.table,
        "players": players,
        "winner": players[game.winner] if game.winner is not None else None,
        "move_count": total,
        "duration_minutes": int(duration.total_seconds() // 60) if duration else None,
        "duration_seconds": int(duration.total_seconds() % 60) if duration else None,
        "moves": [
            {
                "number": move["seq"] + 1,
                "text": describe_move(move["events"], names),
                "by_bot": move["source"] == "bot",
                "timed_out": move["source"] == "timeout",
            }
            for move in moves
        ],
        **replay_context(game, total if step is None else step, players),
    }


def replay_context(
    game: Game, step: int, players: list[listings.PlayerView] | None = None
) -> dict[str, Any]:
    """The finished game after move ``step``: the public table and every hand (the game is
    over), and what that move did. Costs the same at any step (``replays.engine_at``)."""
    players = players if players is not None else listings.player_views(game)
    total = game.version
    step = min(max(step, 0), total)
    engine = replays.engine_at(game, step)
    view = spectator_view(engine)
    names = _move_names(players)
    move = None
    if step > 0:
        events = game.moves.values_list("events", flat=True).get(seq=step - 1)
        move = describe_move(events, names)
    return {
        "step": step,
        "last_step": total,
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < total else None,
        "step_move": move,
        "replay_board": board_view(view, names),
        "replay_seats": [
            {
                "player": player,
                "hand": sorted(card.code for card in engine.hands[player.position]),
                "stage": view["stages"][player.position] if view["stages"] else None,
                "is_turn": view["current_player"] == player.position and not view["finished"],
            }
            for player in players
        ],
    }


def _move_names(players: list[listings.PlayerView]) -> list[str]:
    """The names the moves are worded with: who played them, the person before a bot came."""
    return [player.username or player.name for player in players]
