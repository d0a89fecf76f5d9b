"""Shared fixtures for the games tests: users with different roles and a table factory."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.engine import GameState, deck_codes
from games.models import Game, Table
from games.services import moves, tables

User = get_user_model()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """The users below get real passwords; a fast hasher keeps their creation quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db) -> AbstractBaseUser:
    """A player; the host of the tables ``make_table`` opens."""
    return User.objects.create_user("alice", password="alice-password-1")


@pytest.fixture
def bob(db) -> AbstractBaseUser:
    return User.objects.create_user("bob", password="bob-password-1")


@pytest.fixture
def carol(db) -> AbstractBaseUser:
    return User.objects.create_user("carol", password="carol-password-1")


@pytest.fixture
def moderator(db) -> AbstractBaseUser:
    """Staff with the games' admin permissions, as a site moderator."""
    return User.objects.create_superuser("moderator", password="moderator-password-1")


@pytest.fixture
def make_table(alice) -> Callable[..., Table]:
    """Open a table through the services: ``make_table(seat_count=3, players=[bob])`` seats the
    given users after the host; ``start=True`` starts the game. Other keywords go to
    ``tables.create_table``."""

    def make(
        *,
        host: AbstractBaseUser | None = None,
        players: list[AbstractBaseUser] = (),  # type: ignore[assignment]
        start: bool = False,
        **options: Any,
    ) -> Table:
        host = host or alice
        options.setdefault("name", "Friday game")
        options.setdefault("seat_count", 2)
        table = tables.create_table(host, **options)
        for player in players:
            tables.join_table(table.pk, player, invite=table.invite_token)
        if start:
            tables.start_game(table.pk, host)
        table.refresh_from_db()
        return table

    return make


def rigged_deck(hands: list[list[str]], leading: str = "red:5") -> list[str]:
    """A full deck that deals ``hands`` (eight codes each, R4) and turns ``leading`` up; the
    draw pile then holds the other cards in ``deck_codes()`` order."""
    rest = deck_codes()
    for code in [*chain.from_iterable(hands), leading]:
        rest.remove(code)
    players = len(hands)
    dealt = [hands[seat][index] for index in range(8) for seat in range(players)]
    return dealt + [leading] + rest


@pytest.fixture
def rig() -> Callable[..., Game]:
    """Give a started table's game chosen hands: ``rig(table, hands, leading, first_player)``.

    Replaces the header and snapshot of a game that has no move yet, and schedules it afresh
    as ``start_game`` would (deadline or bot move from now).
    """

    def rig_game(
        table: Table, hands: list[list[str]], leading: str = "red:5", first_player: int = 0
    ) -> Game:
        game = Game.objects.get(table=table)
        assert game.version == 0, "rig a game before its first move"
        game.deck = rigged_deck(hands, leading)
        game.first_player = first_player
        engine = GameState(game.deck, len(hands), first_player, game.seed, game.tournament)
        game.state = engine.to_snapshot()
        moves.schedule(game, engine, timezone.now())
        game.save()
        return game

    return rig_game
