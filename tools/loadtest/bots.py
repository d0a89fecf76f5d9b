"""Tables of bots that think beside the benchmark's players: each seat a bot of one level, the
game played by the site's clock, so that the figures show whether the bots' thinking delays the
people's moves at other tables."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, Move, Seat
from games.services import tables

SEATS = 4


def start_bot_tables(count: int, level: str) -> list[int]:
    """Open and start ``count`` private tables of ``SEATS`` bots of ``level``; their ids.

    Each table has a throwaway host (one person may play only a few games against bots at
    once), whose seat a bot of the same level takes as soon as the game starts; every game is
    due at once.
    """
    prefix = "ldbots" + secrets.token_hex(3)
    User = get_user_model()
    games = []
    for index in range(count):
        host = User.objects.create_user(f"{prefix}-{index}", password=None)
        table = tables.create_table(
            host,
            name=f"Bots {index + 1}",
            seat_count=SEATS,
            bot_seats=SEATS - 1,
            bot_kind=level,
            turn_seconds=None,
            public=False,
        )
        game = tables.start_game(table.pk, host)
        Seat.objects.filter(table=table, user=host).update(user=None, bot=level)
        Game.objects.filter(pk=game.pk).update(next_due=timezone.now())
        games.append(game.pk)
    return games


def bot_moves(games: list[int], start: datetime, end: datetime) -> int:
    """The bots' moves of ``games`` stored between ``start`` and ``end``."""
    return Move.objects.filter(
        game__in=games, source=Move.Source.BOT, created_at__gte=start, created_at__lt=end
    ).count()
