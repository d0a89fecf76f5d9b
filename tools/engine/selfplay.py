"""Bots playing whole games against each other, for the tests, the benchmarks and the arena."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.actions import Action
from games.engine.bots import Bot
from games.engine.record import Record
from games.engine.state import GameState

# A guard: random bots in a many-player tournament can draw for ever (they draw at random and
# forget "last card"), so self-play cuts a game here and reports it as unfinished.
MAX_ACTIONS = 100_000


@dataclass
class GameResult:
    record: Record
    game: GameState
    actions: int

    @property
    def winner(self) -> int | None:
        return self.game.winner


def play_game(
    record: Record,
    bots: Sequence[Bot],
    keep_actions: bool = True,
    max_actions: int = MAX_ACTIONS,
) -> GameResult:
    """Let ``bots`` (one per seat) play the game of ``record`` to its end, or ``max_actions``
    actions at most (then the result's ``winner`` is None).

    During a pending +3 the seats yet to answer act in turn order (R18). Before each action is
    applied, every bot that learns from the table observes it.
    """
    game = record.new_game()
    log: list[Action] = record.actions
    # Only the bots that learn from the table watch it (the others would just slow self-play).
    watchers = [bot for bot in bots if type(bot).observe is not Bot.observe]
    count = 0
    while game.winner is None and count < max_actions:
        pending = game.plus3
        seat = pending.waiting[0] if pending is not None else game.current
        action = bots[seat].choose(game, seat)
        for watcher in watchers:
            watcher.observe(game, action)
        game.apply(action)
        if keep_actions:
            log.append(action)
        count += 1
    return GameResult(record, game, count)
