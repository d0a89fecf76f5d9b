"""Players and finished games for the accounts tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from games.engine import GameState, shuffled_deck
from games.models import Game, Seat, Table

PASSWORD = "a-long-enough-passphrase"

User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    # The log-in throttle counts failures in the cache, which outlives a test's database.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dana(db) -> AbstractBaseUser:
    return User.objects.create_user("Dana", "dana@example.com", PASSWORD)


@pytest.fixture
def ben(db) -> AbstractBaseUser:
    return User.objects.create_user("ben", "", PASSWORD)


FinishGame = Callable[..., Game]


@pytest.fixture
def finish_game(db) -> FinishGame:
    """Make a finished game: ``finish_game(dana, ben, winner=dana, finished_at=…)``.

    Each player is a user, or a ``(bot_name, replaced_user)`` pair for a seat a bot took over.
    """
    count = 0

    def make(*players, winner, finished_at: datetime | None = None) -> Game:
        nonlocal count
        count += 1
        host = next(p for p in players if isinstance(p, User))
        table = Table.objects.create(
            name=f"Table {count}", host=host, seat_count=len(players), status="finished"
        )
        names, winner_position = [], None
        for position, player in enumerate(players):
            if isinstance(player, tuple):
                bot, replaced = player
                Seat.objects.create(table=table, position=position, bot=bot, replaced_user=replaced)
                names.append(replaced.get_username())
                person = replaced
            else:
                Seat.objects.create(table=table, position=position, user=player)
                names.append(player.get_username())
                person = player
            if person == winner:
                winner_position = position
        deck = shuffled_deck(random.Random(count))
        return Game.objects.create(
            table=table,
            seed=str(count),
            players=names,
            deck=deck,
            first_player=0,
            state=GameState(deck, len(players)).to_snapshot(),
            winner=winner_position,
            finished_at=finished_at or datetime(2025, 1, count, 12, 0, tzinfo=UTC),
        )

    return make
