"""A finished game's page: its players, its moves in words, and its replay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import spectator_view
from games.models import Game
from games.presenters import listings
from games.presenters.narration import describe_move
from games.presenters.ratings import game_rating_changes
from games.presenters.table import board_view
from games.services import replays


def finished_game_context(game: Game, step: int | None) -> dict[str, Any]:
    """A finished game's page: players (a seat a bot took over says so), options, result,
    length, moves in words, and the replay after move ``step`` (the last move by default)."""
    moves = list(game.moves.order_by("seq").values("seq", "seat", "source", "events"))
    players = listings.player_views(game)
    total = len(moves)
    lines = []
    for move in moves:
        lines += _takeovers_at(players, move["seq"])
        lines.append(
            {
                "number": move["seq"] + 1,
                # Worded with the names of who played it: the person, before a bot came.
                "text": describe_move(move["events"], _player_names_at(players, move["seq"])),
                "by_bot": move["source"] == "bot",
                "timed_out": move["source"] == "timeout",
            }
        )
    lines += [  # a bot took over after the last move
        {"number": None, "text": player.takeover}
        for player in players
        if player.took_over and player.replaced_at is not None and player.replaced_at >= total
    ]
    duration = (game.finished_at - game.started_at) if game.finished_at else None
    return {
        "game": game,
        "table": game.table,
        "players": players,
        "winner": players[game.winner] if game.winner is not None else None,
        "move_count": total,
        "duration_minutes": int(duration.total_seconds() // 60) if duration else None,
        "duration_seconds": int(duration.total_seconds() % 60) if duration else None,
        "moves": lines,
        "rating_changes": game_rating_changes(game) if game.table.rated else [],
        **replay_context(game, total if step is None else step, players),
    }


def replay_context(
    game: Game, step: int, players: list[listings.PlayerView] | None = None
) -> dict[str, Any]:
    """The finished game after move ``step``: the public table and every hand (the game is
    over), and what that move did. After the last move nobody is to play: the board says who
    won, if anyone did. Costs the same at any step (``replays.engine_at``)."""
    players = players if players is not None else listings.player_views(game)
    total = game.version
    step = min(max(step, 0), total)
    engine = replays.engine_at(game, step)
    view = spectator_view(engine)
    names = _player_names_at(players, step)
    move = None
    if step > 0:
        events = game.moves.values_list("events", flat=True).get(seq=step - 1)
        move = describe_move(events, _player_names_at(players, step - 1))
    return {
        "step": step,
        "last_step": total,
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < total else None,
        "step_move": move,
        "replay_board": board_view(view, names),
        "replay_over": step == total,
        "replay_winner": names[game.winner] if step == total and game.winner is not None else None,
        "replay_seats": [
            {
                "player": player,
                "hand": sorted(card.code for card in engine.hands[player.position]),
                "stage": view["stages"][player.position] if view["stages"] else None,
                "is_turn": view["current_player"] == player.position and step < total,
            }
            for player in players
        ],
    }


def _player_names_at(players: Sequence[listings.PlayerView], seq: int) -> list[str]:
    """The players' names as of the move ``seq`` (the person until a bot took their seat)."""
    return [player.name_at(seq) for player in players]


def _takeovers_at(players: Sequence[listings.PlayerView], seq: int) -> list[dict[str, Any]]:
    """The lines of a finished game's moves saying who left before the move ``seq``."""
    return [
        {"number": None, "text": player.takeover}
        for player in players
        if player.took_over and player.replaced_at == seq
    ]
