"""Helpers for the presenters' tests: what a table's page and its pushes show a viewer, and the
cards found in them."""

from __future__ import annotations

import dataclasses
from typing import Any

from games import presenters
from games.engine import CARDS
from games.models import Game, Table

# alice's and bob's hands in the ``table`` fixture (tests/games/presenters/conftest.py).
HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
]

# alice's red TAKI run takes her hand down to one card in her first turn.
RUN = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "blue:1"],
    ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "green:7", "green:8", "blue:9"],
]


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


def seen_by(table: Table, user: Any) -> dict[str, Any]:
    """What the table's templates draw for ``user``, from the view every socket shares."""
    return presenters.table_page_context(presenters.read_table(table.pk), user)


def pushed_to(table: Table, user: Any) -> str:
    """The fragments a socket of ``user`` is sent."""
    return presenters.table_fragments(presenters.read_table(table.pk), user)


def card_lists(value: Any, path: tuple = ()) -> dict[tuple, list[str]]:
    """Every non-empty list of card codes in ``value``, by its path of keys."""
    found = {}
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_lists(item, (*path, key))
    elif isinstance(value, list | tuple):
        if value and all(isinstance(item, str) and item in CARDS for item in value):
            found[path] = list(value)
        for index, item in enumerate(value):
            found |= card_lists(item, (*path, index))
    return found


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in ``value`` (models are not looked into)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return card_codes(dataclasses.asdict(value))
    if isinstance(value, str):
        return {value} if value in CARDS else set()
    if isinstance(value, dict):
        return set().union(*(card_codes(item) for item in value.values()))
    if isinstance(value, list | tuple | set):
        return set().union(*(card_codes(item) for item in value))
    return set()


def public_codes(game: Game) -> set[str]:
    """The cards everyone has seen: the discard pile's top and the cards played."""
    engine = game.engine()
    played = {
        event["card"]
        for events in game.moves.values_list("events", flat=True)
        for event in events
        if "card" in event
    }
    return played | {engine.discard[-1].code, engine.leading.code}
