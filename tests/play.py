"""Helpers for the view and consumer tests: drive a real game through the services, and seat
people at a table through quick match."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.engine import make_bot
from games.models import Game, Table
from games.services import moves, quickmatch

# Seat 0 empties their hand in one red TAKI run (R14, R21): a game won in eight moves, led by
# red:9 (``rig(table, WINNING_RUN, leading="red:9")``).
WINNING_RUN = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "red:8"],
    ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "yellow:7", "yellow:8", "blue:1"],
]


def play_to_the_end(table: Table, max_moves: int = 2000) -> Game:
    """Play every seat of a started table with a greedy bot's choices, through
    ``moves.submit_action`` as its seated user, until someone wins. A seat a bot holds is
    played by the server (``moves.advance``), as the clock would."""
    seats = {seat.position: seat.user for seat in table.seats.select_related("user")}
    bot = make_bot("greedy", random.Random(7))
    # Each server turn an hour after the last: a bot that plays twice running (a Stop at two
    # seats, a run) is due again only after the time its first move was played at.
    later = timezone.now()
    for _ in range(max_moves):
        game = Game.objects.get(table=table)
        if game.finished:
            return game
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if seats[seat] is None:
            later += timedelta(hours=1)
            moves.advance(game.pk, later)
            continue
        action = bot.choose(engine, seat).to_json()
        moves.submit_action(table.pk, seats[seat], {**action, "version": game.version})
    raise AssertionError("the game did not finish")


def unkeyed(message: dict) -> dict:
    """A broadcast message without its random ``key`` (which only lets each process read the
    table once for all its sockets), so that tests can compare the rest."""
    return {name: value for name, value in message.items() if name != "key"}


def play_next_move(table: Table, *people) -> int:
    """The person to act, one of ``people``, plays what a greedy bot would; returns the game's
    version after it."""
    game = Game.objects.get(table=table)
    engine = game.engine()
    seat = engine.seats_to_act()[0]
    user_id = table.seats.get(position=seat).user_id
    user = next(person for person in people if person.pk == user_id)
    action = make_bot("greedy", random.Random(1)).choose(engine, seat).to_json()
    moves.submit_action(table.pk, user, {**action, "version": game.version})
    return game.version + 1


def matched(*people, pool: str = "duel-untimed") -> Table:
    """``people`` seated by quick match's wave at a table of ``pool``, started a moment ago."""
    for person in people:
        quickmatch.enter(person, pool)
    [table] = quickmatch.wave(timezone.now() + timedelta(seconds=1))
    return table
