"""``make bench-arena``: how long an arena's wave takes with a thousand players waiting.

Fills one running arena with ``--people`` made-up players (scores spread as a running arena's
are, each kept apart from the players of their last table, waits of up to half a minute), then
times, side by side in one run: the pairing alone (``arenas.pairing.pair``), reading the pool
and pairing it, and the whole wave (``arenas.services.waves.wave``: reading, pairing and writing
each table, ``TABLES_PER_WAVE`` at most, with its seats and its started game); then what one
change of the standings costs a process serving ``--pages`` arena pages: the standings read once
(``presenters.read_board``) and drawn for each page's person (``board_fragment``). Run it on a
throwaway database (the Makefile target does). Last, each seated table's end is heard as if
its seat 0 had won (``results.game_ended``): what a game's end adds to the move that ends it.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from arenas import pairing, presenters
from arenas.models import Arena, ArenaPlayer
from arenas.services import results, waves
from games import clock
from games.live.server import LiveSide
from games.models import Table
from games.services import broadcast
from games.services.finish import Ending

LONGEST_WAIT = 30.0  # seconds
TOP_SCORE = 40


class Command(BaseCommand):
    help = (
        "Time an arena's wave with a thousand waiting: the pairing alone, reading and pairing, "
        "and the whole wave with its tables written. Writes to the configured database: use a "
        "throwaway one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--people", type=int, default=1000, help="waiting (default 1000)")
        parser.add_argument("--seats", type=int, default=2, help="players per table (2–6)")
        parser.add_argument(
            "--pages", type=int, default=300, help="arena pages one change is drawn for (300)"
        )
        parser.add_argument("--runs", type=int, default=3, help="runs; the median is printed")
        parser.add_argument("--seed", type=int, default=1, help="the made-up players' seed")

    def handle(
        self, *args, people: int, seats: int, pages: int, runs: int, seed: int, **options
    ) -> None:
        if people < 2 or runs < 1 or not 2 <= seats <= 6:
            raise CommandError("--people at least 2, --runs at least 1, --seats 2 to 6")
        users = self._players(people)
        self.scoring: list[float] = []
        rng = random.Random(seed)
        done = [self._run(users, seats, rng) for _run in range(runs)]
        pair, read, wave = (statistics.median(run[i] for run in done) for i in range(3))
        tables = statistics.median(run[3] for run in done)
        read_once, drawn = self._push(users[:pages], runs)
        self.stdout.write(
            f"{connection.vendor}: {people:,} waiting in an arena of tables of {seats}, "
            f"median of {runs} runs\n"
            f"  pairing alone            {pair * 1000:8.1f} ms\n"
            f"  reading + pairing        {read * 1000:8.1f} ms\n"
            f"  whole wave (+ {tables:,.0f} tables written, games started) "
            f"{wave * 1000:8.1f} ms, {wave * 1000 / max(tables, 1):.2f} ms a table\n"
            f"  a game's end scored       {statistics.median(self.scoring) * 1000:8.2f} ms\n"
            f"  one standings change: read once {read_once * 1000:.1f} ms, drawn for "
            f"{min(pages, people):,} pages {drawn * 1000:.1f} ms "
            f"({drawn * 1e6 / max(min(pages, people), 1):.0f} µs a page)"
        )

    def _push(self, viewers: list, runs: int) -> tuple[float, float]:
        """The median seconds to read the arena's standings once, and to draw them for every
        viewer, as a process's arena pages do on one change."""
        arena = Arena.objects.get()
        reads, draws = [], []
        for _run in range(runs):
            start = time.perf_counter()
            board = presenters.read_board(arena.pk)
            read = time.perf_counter()
            for viewer in viewers:
                presenters.board_fragment(board, viewer)
            reads.append(read - start)
            draws.append(time.perf_counter() - read)
        return statistics.median(reads), statistics.median(draws)

    def _run(self, users: list, seats: int, rng: random.Random) -> tuple[float, float, float, int]:
        arena, now = self._fill(users, seats, rng)
        waiting = waves.waiting_in(arena, now)
        start = time.perf_counter()
        pairing.pair(waiting, seats)
        paired = time.perf_counter()
        pairing.pair(waves.waiting_in(arena, now), seats)
        read = time.perf_counter()
        tables = async_to_sync(_wave_as_the_web_clock_runs_it)(arena, now)
        waved = time.perf_counter()
        for table in tables:  # each game's end heard: seat 0 won, the others behind
            results.game_ended(table.pk, Ending.WON, 0, now)
        scored = time.perf_counter()
        self.scoring.append((scored - waved) / max(len(tables), 1))
        return paired - start, read - paired, waved - read, len(tables)

    def _players(self, count: int) -> list:
        User = get_user_model()
        names = [f"bench-arena-{index}" for index in range(count)]
        existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
        User.objects.bulk_create(
            User(username=name, password="!") for name in names if name not in existing
        )
        return list(User.objects.filter(username__in=names).order_by("pk"))

    def _fill(self, users: list, seats: int, rng: random.Random):
        """A fresh running arena, every player waiting, each kept apart from the others of
        their last table; no tables yet."""
        Table.objects.all().delete()
        Arena.objects.all().delete()
        now = timezone.now()
        arena = Arena.objects.create(
            name="Bench arena",
            starts_at=now - timedelta(minutes=10),
            minutes=60,
            seats=seats,
            turn_seconds=30,
            status=Arena.Status.RUNNING,
        )
        placed = ArenaPlayer.objects.bulk_create(
            ArenaPlayer(
                arena=arena,
                user=user,
                points=rng.randint(0, TOP_SCORE),
                games=rng.randint(0, 12),
                rating=round(rng.gauss(1500, 250)),
                waiting_since=now - timedelta(seconds=rng.uniform(waves.POOL_SECONDS, 30)),
            )
            for user in users
        )
        ids = [player.pk for player in placed]
        rng.shuffle(ids)
        for start in range(0, len(ids), seats):
            last_table = ids[start : start + seats]
            for pk in last_table:
                ArenaPlayer.objects.filter(pk=pk).update(apart=[o for o in last_table if o != pk])
        return arena, now


async def _wave_as_the_web_clock_runs_it(arena: Arena, now) -> list[Table]:
    """The wave on the clock's own database thread, as a web process's clock runs it, the
    process's live side serving its sockets."""
    before = broadcast.transport()
    hub = LiveSide(None).hub()
    try:
        return await clock.Clock().on_thread(waves.wave)(arena, now)
    finally:
        await hub.sends.done()
        await hub.close()
        broadcast.serve_through(before)
