"""A bot's thinking, apart from the table it plays at.

A bot's move is played in three steps (:func:`games.services.moves.advance`): the game owes a
bot's move, read under the game's lock as a :class:`BotTurn` (the game's snapshot at one version
and the seat to play); the bot chooses, with no lock held, in the clock's worker processes
(:mod:`games.clock`) or in the caller's thread; the choice is played through the locked move
path only if the game is still at that version (``moves.play_bot_move``), and dropped otherwise.

A bot chooses from its seat's perspective: the searching levels reduce the game to what the seat
may know before they search (``games.engine.search.seat_knowledge``), the others read their own
hand and the public table. This module imports the standard library and the engine only, so a
worker process starts without Django.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import Action, GameState, Record, make_bot
from games.engine.bots import BOTS, Bot


@dataclass(frozen=True)
class BotTurn:
    """A bot's move a game owes: the bot ``kind`` at seat ``position``, in the game ``game_id``
    as its ``snapshot`` stood at ``version`` (the engine's snapshot: it travels to a worker)."""

    game_id: int
    version: int
    position: int
    kind: str
    snapshot: dict[str, Any]
    # The game's record so far (taki-record/1 JSON), for a bot that learns from what the others
    # did (``learns_from_the_table``); it watches the game again, move by move, before choosing.
    history: str | None = None


def learns_from_the_table(kind: str) -> bool:
    """Whether the bot ``kind`` reads the others' moves as they are played (``Bot.observe``): a
    player who drew instead of following a colour probably holds none of it."""
    bot = BOTS.get(kind)
    return bot is not None and bot.observe is not Bot.observe


def choose(turn: BotTurn) -> dict[str, Any]:
    """The bot's choice for ``turn``, as the action's JSON (``Action.to_json``)."""
    bot = make_bot(turn.kind, random.Random())
    if turn.history is None:
        game = GameState.from_snapshot(turn.snapshot)
    else:
        game = _watched_again(bot, Record.loads(turn.history))
    return bot.choose(game, turn.position).to_json()


def _watched_again(bot: Bot, record: Record) -> GameState:
    """The game of ``record`` played again from its deal, ``bot`` watching every move as it
    would have at the table (it reads only what is public: ``Bot.observe``)."""
    game = record.new_game()
    for raw in record.actions:
        action = Action.from_json(raw, game.players)
        bot.observe(game, action)
        game.apply(action)
    return game
