"""What leaves the engine for a live game: each seat's perspective and a spectator's.

Neither holds a card of another seat's hand, nor the order of the draw pile (hidden information).
"""

from __future__ import annotations

from typing import Any

from .state import GameState


def spectator_view(game: GameState) -> dict[str, Any]:
    """The public table: piles, colours, stacks, whose turn, every hand's size; no card in hand."""
    view = game.public_json()
    view["hand_sizes"] = [len(hand) for hand in game.hands]
    view["announced"] = list(game.announced)
    view["seats_to_act"] = game.seats_to_act()
    view["version"] = game.moves
    return view


def seat_view(game: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: the public table, its own hand (sorted by code) and its legal actions."""
    view = spectator_view(game)
    view["seat"] = seat
    view["hand"] = sorted(card.code for card in game.hands[seat])
    view["legal_actions"] = [action.to_json() for action in game.legal_actions(seat)]
    return view
