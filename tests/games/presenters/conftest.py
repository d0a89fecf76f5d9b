"""The presenters' tables: a game in play with chosen hands, and a finished game."""

from __future__ import annotations

import pytest

from games.models import Game, Table
from games.services import moves, tables
from tests.games.presenters.helpers import HANDS
from tests.play import play_to_the_end


@pytest.fixture
def table(alice, bob, make_table, rig) -> Table:
    """alice and bob with ``HANDS``; alice has played her red 3, and it is bob's turn."""
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})
    return table


@pytest.fixture
def finished(alice) -> Game:
    """alice's game against one bot, played to the end."""
    return play_to_the_end(tables.play_against_bots(alice, opponents=1))
