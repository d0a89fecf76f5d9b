"""Bots playing whole games against each other, for tests, benchmarks and the command line."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .bots import Bot
from .cards import shuffled_deck
from .game import Game
from .record import Record

MAX_ACTIONS = 100_000  # a guard: no sane game comes near it


@dataclass
class GameResult:
    record: Record
    game: Game
    actions: int

    @property
    def winner(self) -> int | None:
        return self.game.winner


def new_record(players: Sequence[str], rng: random.Random, tournament: bool = False) -> Record:
    """A record for a fresh game: shuffled deck (R4), random first player (R5), a seed (R9)."""
    return Record(
        seed=f"{rng.getrandbits(64):016x}",
        players=list(players),
        deck=shuffled_deck(rng),
        first_player=rng.randrange(len(players)),
        tournament=tournament,
    )


def play_game(record: Record, bots: Sequence[Bot], keep_actions: bool = True) -> GameResult:
    """Let ``bots`` (one per seat) play the game of ``record`` to its end.

    During a pending +3 the seats yet to answer act in turn order (R18).
    :raises RuntimeError: the game did not end within MAX_ACTIONS.
    """
    game = record.new_game()
    log: list[Action] = record.actions
    count = 0
    while game.winner is None:
        if count >= MAX_ACTIONS:
            raise RuntimeError(f"game did not end in {MAX_ACTIONS} actions (seed {record.seed})")
        pending = game.plus3
        seat = pending.waiting[0] if pending is not None else game.current
        action = bots[seat].choose(game, seat)
        game.apply(action)
        if keep_actions:
            log.append(action)
        count += 1
    return GameResult(record, game, count)
