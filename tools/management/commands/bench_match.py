"""``make bench-match``: how long quick match's wave takes with thousands waiting.

Fills one pool with ``--people`` made-up players (ratings spread as a site's are, waits of up to
a minute, some asking for bots), then times, side by side in one run: the pairing alone
(``pairing.pair``), reading the pool and pairing it, and the whole wave (``quickmatch.wave``:
reaping, reading, pairing and writing every table with its seats and its started game). Run it
on a throwaway database (the Makefile target does).
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import datetime, timedelta

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from games import clock
from games.live.server import LiveSide
from games.models import MatchWave, PoolEntry, Table
from games.services import broadcast, pairing, quickmatch

RATING_MEAN, RATING_SPREAD = 1500, 250
BOTS_WANTED_SHARE = 0.2
LONGEST_WAIT = 60.0  # seconds


class Command(BaseCommand):
    help = (
        "Time quick match's wave with thousands waiting in one pool: the pairing alone, reading "
        "and pairing, and the whole wave with its tables written. Writes to the configured "
        "database: use a throwaway one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--people", type=int, default=2000, help="waiting (default 2000)")
        parser.add_argument(
            "--pool", default="duel-15", choices=sorted(quickmatch.POOLS), help="the pool"
        )
        parser.add_argument("--runs", type=int, default=3, help="runs; the median is printed")
        parser.add_argument("--seed", type=int, default=1, help="the made-up players' seed")

    def handle(self, *args, people: int, pool: str, runs: int, seed: int, **options) -> None:
        if people < 2 or runs < 1:
            raise CommandError("--people must be at least 2 and --runs at least 1")
        users = self._players(people)
        rng = random.Random(seed)
        runs_done = [self._run(users, pool, rng) for _run in range(runs)]
        timings = {
            key: [run[index] for run in runs_done]
            for index, key in enumerate(("pair", "read", "wave"))
        }
        self._report(people, pool, runs, timings, statistics.median(run[3] for run in runs_done))

    def _run(self, users: list, pool: str, rng: random.Random) -> tuple[float, float, float, int]:
        """One full pool: the pairing alone, reading and pairing, then the whole wave; the
        seconds each took, and how many tables the wave seated."""
        now = self._fill(users, pool, rng)
        seats = quickmatch.POOLS[pool].seats
        waiting = quickmatch.waiting_in(pool, now)
        start = time.perf_counter()
        pairing.pair(waiting, seats)
        paired = time.perf_counter()
        pairing.pair(quickmatch.waiting_in(pool, now), seats)
        read = time.perf_counter()
        tables = async_to_sync(_wave_as_the_web_clock_runs_it)(now)
        waved = time.perf_counter()
        return paired - start, read - paired, waved - read, len(tables)

    def _players(self, count: int) -> list:
        User = get_user_model()
        names = [f"bench-match-{index}" for index in range(count)]
        existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
        User.objects.bulk_create(
            User(username=name, password="!") for name in names if name not in existing
        )
        return list(User.objects.filter(username__in=names).order_by("pk"))

    def _fill(self, users: list, pool: str, rng: random.Random):
        """A fresh pool: every player waiting, their pool page open; no tables yet."""
        Table.objects.all().delete()
        PoolEntry.objects.all().delete()
        MatchWave.objects.all().delete()
        now = timezone.now()
        PoolEntry.objects.bulk_create(
            PoolEntry(
                user=user,
                pool=pool,
                rating=round(rng.gauss(RATING_MEAN, RATING_SPREAD)),
                bots_wanted=rng.random() < BOTS_WANTED_SHARE,
                joined_at=now - timedelta(seconds=rng.uniform(0, LONGEST_WAIT)),
                sockets=1,
                seen_at=now,
            )
            for user in users
        )
        return now

    def _report(self, people, pool, runs, timings, tables) -> None:
        pair, read, wave = (statistics.median(timings[key]) for key in ("pair", "read", "wave"))
        self.stdout.write(
            f"{connection.vendor}: {people:,} waiting in {pool}, median of {runs} runs\n"
            f"  pairing alone            {pair * 1000:8.1f} ms\n"
            f"  reading + pairing        {read * 1000:8.1f} ms\n"
            f"  whole wave (+ {tables:,.0f} tables written, games started) "
            f"{wave * 1000:8.1f} ms, {wave * 1000 / max(tables, 1):.2f} ms a table"
        )


async def _wave_as_the_web_clock_runs_it(now: datetime) -> list[Table]:
    """The wave on the clock's own database thread, as a web process's clock runs it, the
    process's live side serving its sockets: the pushes after each table's commit are handed
    to the event loop, not waited for."""
    before = broadcast.transport()
    hub = LiveSide(None).hub()
    try:
        return await clock.Clock().on_thread(quickmatch.wave)(now)
    finally:
        await hub.sends.done()
        await hub.close()
        broadcast.serve_through(before)
