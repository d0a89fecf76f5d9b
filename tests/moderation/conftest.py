"""Fixtures of the moderation tests: a moderator as the site makes one (staff in the Moderators
group, not a superuser), logged in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.test import Client

from games.models import Game, Table
from games.services import moves


@pytest.fixture
def mod(db) -> AbstractBaseUser:
    """A moderator: staff in the Moderators group, not a superuser."""
    user = get_user_model().objects.create_user("mia", password="mia-password-1", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


@pytest.fixture
def mod_client(mod) -> Client:
    client = Client()
    client.force_login(mod)
    return client


@pytest.fixture
def running(alice, bob, make_table) -> Table:
    """A game alice and bob are playing, one move in."""
    table = make_table(name="Running", players=[bob], start=True, turn_seconds=None)
    game = Game.objects.get(table=table)
    seat = game.engine().seats_to_act()[0]
    moves.submit_action(table.pk, [alice, bob][seat], {"type": "draw", "version": 0})
    return table
