"""``make bench-turns``: the clock with thousands of turn-based games waiting.

Times, on the configured database (a throwaway one: the Makefile target makes it):

- the live tables' move path before any turn-based game waits: bots play whole games through
  ``moves.advance``, as ``bench_site`` does;
- the clock's look for due games (``clock.due_game_ids``, every quarter second in each clock)
  with ``--games`` turn-based games waiting, their deadlines spread over the next days, and a few
  due now; with the database's plan of that look;
- the same live move path again, with those games waiting.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from games import clock
from games.models import Game, Move, Seat, Table
from games.services import moves, tables

BATCH = 5000
DUE_NOW = 10  # waiting games whose deadline has passed: the look finds them


def _joined_look() -> list[int]:
    """The due look written as a join from the tables, for comparison: the database then reads
    every playing table."""
    due = Game.objects.filter(
        next_due__lte=timezone.now(), winner__isnull=True, table__status=Table.Status.PLAYING
    )
    return list(due.order_by("next_due").values_list("pk", flat=True))


class Command(BaseCommand):
    help = (
        "Time the clock's look for due games with thousands of turn-based games waiting, and "
        "the live tables' move path with and without them. Writes to the configured database: "
        "use a throwaway one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100_000, help="turn-based, waiting")
        parser.add_argument("--looks", type=int, default=200, help="due looks timed")
        parser.add_argument("--live", type=int, default=5, help="live bot games per run")
        parser.add_argument("--runs", type=int, default=3, help="move-path runs (median)")

    def handle(self, *args, games: int, looks: int, live: int, runs: int, **options) -> None:
        if games < DUE_NOW or looks < 1 or live < 1 or runs < 1:
            raise CommandError(f"--games at least {DUE_NOW}; --looks, --live, --runs at least 1")
        User = get_user_model()
        host, _ = User.objects.get_or_create(username="bench-turns-host")
        other, _ = User.objects.get_or_create(username="bench-turns-other")
        before = statistics.median(self._moves_per_second(host, live) for _run in range(runs))
        started = time.perf_counter()
        self._fill(host, other, games)
        filled = time.perf_counter() - started
        if connection.vendor == "sqlite":  # the write-ahead log folded in before timing
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        elif connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        timings, found = self._looks(looks)
        joined, _found = self._looks(max(1, looks // 10), _joined_look)
        after = statistics.median(self._moves_per_second(host, live) for _run in range(runs))
        self._report(games, filled, looks, timings, found, before, after, live, runs)
        self.stdout.write(
            f"  (the same look as a join from the playing tables: median "
            f"{statistics.median(joined) * 1000:.2f} ms)"
        )

    # ------------------------------------------------------------------ the waiting games

    def _fill(self, host, other, count: int) -> None:
        """``count`` turn-based games at two seats, playing, each waiting for a move within the
        next three days (the first ``DUE_NOW`` overdue)."""
        rng = random.Random(1)
        now = timezone.now()
        for start in range(0, count, BATCH):
            size = min(BATCH, count - start)
            with transaction.atomic():
                made = Table.objects.bulk_create(
                    Table(
                        name=f"bench-turns {start + index}",
                        host=host,
                        seat_count=2,
                        turn_seconds=None,
                        turn_days=3,
                        public=False,
                        status=Table.Status.PLAYING,
                    )
                    for index in range(size)
                )
                if connection.vendor == "sqlite" or made[0].pk is None:
                    first = Table.objects.order_by("-pk").values_list("pk", flat=True)[size - 1]
                    ids = list(range(first, first + size))
                else:
                    ids = [table.pk for table in made]
                Seat.objects.bulk_create(
                    Seat(table_id=table_id, position=position, user=user)
                    for table_id in ids
                    for position, user in ((0, host), (1, other))
                )
                games = []
                for index, table_id in enumerate(ids):
                    number = start + index
                    if number < DUE_NOW:
                        deadline = now - timedelta(minutes=1)
                    else:
                        deadline = now + timedelta(seconds=rng.uniform(60, 3 * 86400))
                    games.append(
                        Game(
                            table_id=table_id,
                            seed="bench",
                            players=["a", "b"],
                            deck=[],
                            first_player=0,
                            state={},
                            next_due=deadline,
                            turn_deadline=deadline,
                            to_act=[number % 2],
                        )
                    )
                Game.objects.bulk_create(games)

    def _looks(self, count: int, look=clock.due_game_ids) -> tuple[list[float], int]:
        """The clock's look (or ``look``), ``count`` times after a warm-up: the seconds of each,
        and how many games it found due."""
        found = len(look())
        timings = []
        for _look in range(count):
            start = time.perf_counter()
            look()
            timings.append(time.perf_counter() - start)
        return timings, found

    # ------------------------------------------------------------------ the live tables

    def _moves_per_second(self, host, games: int) -> float:
        ids = [self._bot_game(host) for _game in range(games)]
        moves_before = Move.objects.count()
        start = time.perf_counter()
        for game_id in ids:
            now = timezone.now()
            while Game.objects.filter(pk=game_id, winner__isnull=True).exists():
                now += timedelta(seconds=1)
                moves.advance(game_id, now)
        elapsed = time.perf_counter() - start
        return (Move.objects.count() - moves_before) / elapsed

    def _bot_game(self, host) -> int:
        table = tables.create_table(
            host, name="bench-live", seat_count=2, turn_seconds=15, bot_seats=1
        )
        table.seats.filter(position=0).update(user=None, bot="greedy")
        return tables.start_game(table.pk, host).pk

    # ------------------------------------------------------------------ the report

    def _report(self, games, filled, looks, timings, found, before, after, live, runs) -> None:
        ms = sorted(seconds * 1000 for seconds in timings)
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        plan = Game.objects.due(timezone.now()).order_by("next_due").values("pk").explain()
        write = self.stdout.write
        write(
            f"{connection.vendor}: {games:,} turn-based games waiting (written in {filled:.1f} s)"
        )
        write(
            f"  the clock's look for due games: median {statistics.median(ms):.2f} ms, "
            f"95th percentile {p95:.2f} ms, worst {ms[-1]:.2f} ms ({looks} looks; "
            f"{found} due found)"
        )
        write("  its plan:")
        for line in plan.splitlines():
            write(f"    {line}")
        write(
            f"  live move path: {before:,.0f} moves/s before, {after:,.0f} moves/s with them "
            f"waiting (median of {runs} runs of {live} bot duels)"
        )
