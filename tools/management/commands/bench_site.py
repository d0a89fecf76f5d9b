"""``make bench-site``: how fast the site applies moves through games.services.

Bots play whole games through ``moves.advance``, the path every server move takes: lock the
game row, load the snapshot, apply with the engine, append the move to the log, save the
snapshot, broadcast after commit. Run it on a throwaway database (the Makefile target does).
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.utils import timezone

from games.models import Game, Move
from games.services import moves, tables


class Command(BaseCommand):
    help = (
        "Play bot games through games.services (lock, engine, move log, snapshot, broadcast) and "
        "print moves per second. Writes to the configured database: use a throwaway one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20, help="games per run (default 20)")
        parser.add_argument("--players", type=int, default=4, help="seats per game, 2 to 10")
        parser.add_argument("--runs", type=int, default=3, help="runs; the median is printed")

    def handle(self, *args, games: int, players: int, runs: int, **options) -> None:
        host, _ = get_user_model().objects.get_or_create(username="bench-host")
        rates = [self._run(host, games, players) for _ in range(runs)]
        moves = Move.objects.count()
        self.stdout.write(
            f"{connection.vendor}: {statistics.median(rates):,.0f} moves per second through "
            f"services (median of {runs} runs of {games} {players}-player bot games; "
            f"{moves:,} moves logged in all)"
        )

    def _run(self, host, games: int, players: int) -> float:
        ids = [self._bot_game(host, players) for _ in range(games)]
        moves_before = Move.objects.count()
        start = time.perf_counter()
        for game_id in ids:
            now = timezone.now()
            # Each call plays what is due by ``now``; moving ``now`` on plays the next bot move.
            while Game.objects.filter(pk=game_id, winner__isnull=True).exists():
                now += timedelta(seconds=1)
                moves.advance(game_id, now)
        elapsed = time.perf_counter() - start
        return (Move.objects.count() - moves_before) / elapsed

    def _bot_game(self, host, players: int) -> int:
        table = tables.create_table(
            host, name="bench", seat_count=players, turn_seconds=None, bot_seats=players - 1
        )
        table.seats.filter(position=0).update(user=None, bot="greedy")  # bots in every seat
        return tables.start_game(table.pk, host).pk
