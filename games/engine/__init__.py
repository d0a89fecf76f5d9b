"""The TAKI rules engine: standard library only, no Django (RULES.md, GAME_RECORD.md).

>>> from games.engine import GameState, Record, replay
"""

from .actions import Action, Event, IllegalAction, play
from .bots import GreedyBot, RandomBot, make_bot
from .cards import CARDS, COLORS, Card, deck_codes, shuffled_deck
from .perspectives import seat_view, spectator_view
from .record import BadRecord, Record, ReplayResult, replay, replay_text
from .state import GameState

__all__ = [
    "CARDS",
    "COLORS",
    "Action",
    "BadRecord",
    "Card",
    "Event",
    "GameState",
    "GreedyBot",
    "IllegalAction",
    "RandomBot",
    "Record",
    "ReplayResult",
    "deck_codes",
    "make_bot",
    "play",
    "replay",
    "replay_text",
    "seat_view",
    "shuffled_deck",
    "spectator_view",
]
