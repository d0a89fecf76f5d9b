"""Shared fixtures for the games tests: users with different roles and a table factory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from games import services
from games.models import Table

User = get_user_model()


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
    ``services.create_table``."""

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
        table = services.create_table(host, **options)
        for player in players:
            services.join_table(table.pk, player, invite=table.invite_token)
        if start:
            services.start_game(table.pk, host)
        table.refresh_from_db()
        return table

    return make
