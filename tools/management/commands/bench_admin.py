"""``make bench-admin``: how fast the moderators' admin pages answer for a long game.

Ten random bots play one game through ``moves.advance`` (the site's own move path: the move log,
its digests and the snapshot, as in production) until it ends or reaches ``--moves`` moves.
Then a moderator's session times the pages a moderator opens for it, through Django's test
client (the whole request: middleware, admin, templates): the game's page, the first and last
page of its move log, the games list, the table's page, and the verify action, which replays
the whole log. Run it on a throwaway database (the Makefile target does).
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import MAX_SEATS, Game
from games.services import moves, tables
from moderation.admin.games import MOVES_PER_PAGE


class Command(BaseCommand):
    help = (
        "Build a long bot game and time the admin pages moderators open for it. Writes to the "
        "configured database: use a throwaway one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--moves", type=int, default=4000, help="moves at most (4000)")
        parser.add_argument("--runs", type=int, default=5, help="timed loads per page (median)")

    def handle(self, *args, moves: int, runs: int, **options) -> None:
        started = time.perf_counter()
        game = self._long_game(moves)
        self.stdout.write(
            f"built a {game.version:,}-move game of {MAX_SEATS} random bots in "
            f"{time.perf_counter() - started:.1f} s ({connection.vendor})"
        )
        client = Client()
        client.force_login(self._moderator())
        moves_url = reverse("admin:games_move_changelist") + f"?game__id__exact={game.pk}"
        last_page = (game.version - 1) // MOVES_PER_PAGE + 1
        pages = [
            ("game page", reverse("admin:games_game_change", args=[game.pk])),
            ("move log, page 1", moves_url),
            (f"move log, page {last_page}", f"{moves_url}&p={last_page}"),
            ("games list", reverse("admin:games_game_changelist")),
            ("table page", reverse("admin:games_table_change", args=[game.table_id])),
        ]
        self.stdout.write(f"{'page':<24}{'median':>10}{'max':>10}{'size':>10}{'queries':>9}")
        for name, url in pages:
            self._time(client, name, lambda url=url: client.get(url), runs)
        verify = {"action": "verify_games", "_selected_action": [game.pk]}
        changelist = reverse("admin:games_game_changelist")
        self._time(client, "verify action", lambda: client.post(changelist, verify), runs)

    def _time(self, client: Client, name: str, request, runs: int) -> None:
        request()  # warm: templates compiled, caches filled
        times = []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = request()
                times.append(time.perf_counter() - start)
            if response.status_code not in (200, 302):
                raise RuntimeError(f"{name}: HTTP {response.status_code}")
        size = len(response.content) / 1024
        self.stdout.write(
            f"{name:<24}{statistics.median(times) * 1000:>8.0f} ms{max(times) * 1000:>7.0f} ms"
            f"{size:>7.0f} KB{len(queries):>9}"
        )

    def _moderator(self):
        users = get_user_model().objects
        moderator = users.filter(username="bench-moderator").first()
        return moderator or users.create_superuser("bench-moderator", password=None)

    def _long_game(self, limit: int) -> Game:
        host, _ = get_user_model().objects.get_or_create(username="bench-host")
        table = tables.create_table(
            host,
            name="bench admin",
            seat_count=MAX_SEATS,
            turn_seconds=None,
            bot_seats=MAX_SEATS - 1,
            bot_kind="random",
        )
        table.seats.filter(position=0).update(user=None, bot="random")  # bots in every seat
        game = tables.start_game(table.pk, host)
        now = timezone.now()
        while game.winner is None and game.version < limit:
            now += timedelta(seconds=1)
            moves.advance(game.pk, now)
            game.refresh_from_db(fields=["version", "winner"])
        return game
