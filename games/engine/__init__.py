"""The TAKI rules engine: standard library only, no Django (docs/rules.md, docs/record-format.md).

>>> from games.engine import GameState, Record, replay
"""

from .actions import Action, Event, IllegalAction, play
from .bots import LEVELS, GreedyBot, RandomBot, SearchBot, make_bot
from .cards import CARDS, COLORS, Card, deck_codes, shuffled_deck
from .perspectives import seat_view, spectator_view
from .record import BadRecord, Record, ReplayResult, replay, replay_text
from .state import GameState

__all__ = [
    "CARDS",
    "COLORS",
    "LEVELS",
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
    "SearchBot",
    "deck_codes",
    "make_bot",
    "play",
    "replay",
    "replay_text",
    "seat_view",
    "shuffled_deck",
    "spectator_view",
]
