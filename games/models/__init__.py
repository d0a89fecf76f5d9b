"""The games app's tables: one module per part of the site, every model imported here, where
Django looks for them (``games.models.Table`` and the others are imported from here).

- :mod:`~games.models.tables`: tables, seats, games, the append-only hash-chained move log,
  replays' snapshots, verifications and rematch invitations;
- :mod:`~games.models.chat`: chat lines, blocked words, mutes;
- :mod:`~games.models.ratings`: ratings per mode and their changes;
- :mod:`~games.models.quickmatch`: quick match's pool entries and the row of its waves;
- :mod:`~games.models.challenges`: challenges and the people each asks;
- :mod:`~games.models.turns`: the days off that stop a person's turn-based clocks.
"""

from __future__ import annotations

from games.models.challenges import Challenge, ChallengeInvitation
from games.models.chat import CHAT_MAX_CHARS, BlockedWord, ChatMessage, ChatMute
from games.models.quickmatch import MatchWave, PoolEntry
from games.models.ratings import Rating, RatingChange, RatingMode
from games.models.tables import (
    BOT_KINDS,
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    MAX_SEATS,
    MIN_SEATS,
    TURN_DAYS,
    Game,
    GameVerification,
    Move,
    MoveLogError,
    RematchInvitation,
    ReplaySnapshot,
    Seat,
    SeatQuerySet,
    Table,
    new_invite_token,
    seat_name,
)
from games.models.turns import Vacation

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "CHAT_MAX_CHARS",
    "DEFAULT_BOT_LEVEL",
    "MAX_SEATS",
    "MIN_SEATS",
    "TURN_DAYS",
    "BlockedWord",
    "Challenge",
    "ChallengeInvitation",
    "ChatMessage",
    "ChatMute",
    "Game",
    "GameVerification",
    "MatchWave",
    "Move",
    "MoveLogError",
    "PoolEntry",
    "Rating",
    "RatingChange",
    "RatingMode",
    "RematchInvitation",
    "ReplaySnapshot",
    "Seat",
    "SeatQuerySet",
    "Table",
    "Vacation",
    "new_invite_token",
    "seat_name",
]
