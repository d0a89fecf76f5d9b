"""Chosen hands for a browser test's game, written into the shared site's database.

A game is dealt at random when it starts; a test that must reach a given state quickly (a win,
a last card, a +3) gives it chosen hands before the first move, as tests/games' ``rig`` does
through the ORM. The site runs in its own process on SQLite, so this writes the game's row
directly: the deck, the first player and the engine's snapshot, only while no move is made
(``version = 0``), so a bot that moved first is never overwritten.
"""

from __future__ import annotations

import json
import sqlite3
from itertools import chain
from typing import Any

from games.engine import GameState, deck_codes


def rigged_deck(hands: list[list[str]], leading: str) -> list[str]:
    """A full deck (R1) that deals ``hands`` (eight codes each, R4) and turns ``leading`` up."""
    rest = deck_codes()
    for code in [*chain.from_iterable(hands), leading]:
        rest.remove(code)
    dealt = [hands[seat][index] for index in range(8) for seat in range(len(hands))]
    return dealt + [leading] + rest


def rig(site: Any, table_id: int, hands: list[list[str]], leading: str, first: int = 0) -> bool:
    """Deal ``hands`` at the table's game if no move has been made; False if one has."""
    connection = sqlite3.connect(site.db_path, timeout=10)
    try:
        with connection:
            seed, tournament = connection.execute(
                "SELECT seed, tournament FROM games_game WHERE table_id = ?", (table_id,)
            ).fetchone()
            deck = rigged_deck(hands, leading)
            engine = GameState(deck, len(hands), first, seed, bool(tournament))
            changed = connection.execute(
                "UPDATE games_game SET deck = ?, first_player = ?, state = ?, next_due = NULL,"
                " turn_deadline = NULL WHERE table_id = ? AND version = 0",
                (json.dumps(deck), first, json.dumps(engine.to_snapshot()), table_id),
            ).rowcount
    finally:
        connection.close()
    return changed == 1
