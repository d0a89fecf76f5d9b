"""An arena under load beside ordinary tables, in one run and with the same players' count.

Ordinary tables first (``run.run``: two players a table, no spectator, no steady window), then
one running arena that every player of a second set of users has joined: the Daphne process's
own clock runs the arena's job, whose waves seat them; each player's client sees its table as
the wave writes it (the load test reads the arena's tables from the database, where a browser
would follow the push sending it there), opens the table's socket and plays the game open loop
with the same think times; once it ends, the client waits to be seated again.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import timedelta
from pathlib import Path

import aiohttp
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from arenas.models import Arena, ArenaPlayer, ArenaTable
from tools.loadtest.driver import Client, GameRun, _until_over
from tools.loadtest.fragments import Push
from tools.loadtest.run import (
    PASSWORD,
    SETUP_TIMEOUT,
    CpuMeter,
    LoadOptions,
    create_users,
    moves_in,
    run,
    verify_games,
)
from tools.loadtest.servers import SITE_APP, DaphneGroup
from tools.loadtest.stats import (
    OwnLoop,
    Report,
    SiteCounters,
    Verification,
    Window,
    round_trip_figures,
)

LOOK_SECONDS = 0.2  # how often the clients look for the tables the waves wrote
ARENA_MINUTES = 60
TURN_SECONDS = 30  # the arena's turn time: far above the think times, so never reached


def run_side_by_side(
    options: LoadOptions, log_dir: Path, say: Callable[[str], None]
) -> tuple[Report, Report]:
    """Ordinary tables, then the arena, with ``options.tables * 2`` players each."""
    ordinary = replace(options, players=2, spectators=0, ceiling=False, steady_seconds=0)
    folder = log_dir / "tables"
    folder.mkdir()
    say(f"--- {ordinary.tables * 2} players at ordinary tables of 2")
    tables = run(ordinary, folder, say)
    folder = log_dir / "arena"
    folder.mkdir()
    say(f"--- {ordinary.tables * 2} players in an arena of duels")
    return tables, run_arena(ordinary, folder, say)


def run_arena(options: LoadOptions, log_dir: Path, say: Callable[[str], None]) -> Report:
    names = create_users(options)
    arena = _open_arena(names)
    try:
        with DaphneGroup(SITE_APP, 1, log_dir, "arena") as site:
            own = OwnLoop()
            counters = SiteCounters()
            window, cpu, seated = asyncio.run(
                _drive(options, arena, site, CpuMeter(site, None), names, counters, own, say)
            )
            site.check_alive()
    finally:
        Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)
    moves = moves_in(window)
    report = Report(
        options={**asdict(options), "think": f"{options.think.low:g}-{options.think.high:g}"},
        seconds=window.seconds,
        moves=moves,
        moves_per_second=moves / window.seconds,
        round_trip_ms=round_trip_figures(counters.round_trips),
        pushes=counters.window_pushes,
        pushes_per_second=counters.window_pushes / window.seconds,
        server_cpu_seconds=cpu,
        server_cpu_ms_per_move=cpu * 1000 / moves if moves else None,
        redis_cpu_seconds=0.0,
        games_started=counters.games_started,
        games_finished=counters.games_finished,
    )
    report.clients = own.figures(window.seconds)
    check = _verify(arena, counters)
    if seated < len(names):
        check.problems.append(f"{len(names) - seated} players were never seated")
    report.verification = {**asdict(check), "ok": check.ok}
    return report


def _open_arena(names: list[str]) -> Arena:
    """A running arena of duels that every one of ``names`` has joined, all in the pool."""
    now = timezone.now()
    arena = Arena.objects.create(
        name="Load arena",
        starts_at=now - timedelta(minutes=1),
        minutes=ARENA_MINUTES,
        seats=2,
        turn_seconds=TURN_SECONDS,
        status=Arena.Status.RUNNING,
    )
    users = get_user_model().objects.filter(username__in=names)
    ArenaPlayer.objects.bulk_create(
        ArenaPlayer(arena=arena, user=user, waiting_since=now) for user in users
    )
    return arena


class ArenaGame:
    """One arena table's game as its players' clients play it."""

    def __init__(self, table_id: int, players: list[Client]) -> None:
        self.table_id = table_id
        self.players = players
        self.last_version = -1
        self.last_progress = time.monotonic()

    def saw(self, push: Push) -> None:
        if push.version is not None and push.version > self.last_version:
            self.last_version = push.version
            self.last_progress = time.monotonic()

    async def play(self, counters: SiteCounters, stop: asyncio.Event) -> None:
        game = GameRun(self.table_id, self)  # type: ignore[arg-type]
        sockets = await asyncio.gather(*(client.connect(self.table_id) for client in self.players))
        counters.games_started += 1
        listeners = [
            asyncio.create_task(client.listen(ws, game))
            for client, ws in zip(self.players, sockets, strict=True)
        ]
        try:
            await _until_over(game, stop, listeners)
            game.closing = True
            deadline = time.monotonic() + 10.0
            while any(not p.idle for p in self.players) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if game.finished.is_set():
                counters.games_finished += 1
            counters.unresolved += sum(not player.idle for player in self.players)
        finally:
            game.closing = True
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
            results = await asyncio.gather(*listeners, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result


@sync_to_async
def _new_tables(arena_id: int, after: int) -> list[tuple[int, int, list[str]]]:
    """The arena's tables written after table ``after``: (arena table, table, its people)."""
    found = (
        ArenaTable.objects.filter(arena_id=arena_id, pk__gt=after)
        .order_by("pk")
        .prefetch_related("table__seats__user")
    )
    return [
        (
            row.pk,
            row.table_id,
            [seat.user.username for seat in row.table.seats.all() if seat.user is not None],
        )
        for row in found
    ]


async def _drive(
    options: LoadOptions,
    arena: Arena,
    site: DaphneGroup,
    meter: CpuMeter,
    names: list[str],
    counters: SiteCounters,
    own: OwnLoop,
    say: Callable[[str], None],
) -> tuple[Window, float, int]:
    rng = random.Random(options.seed)
    connector = aiohttp.TCPConnector(limit=0)
    url = site.urls[0]
    clients = {
        name: Client(name, url, connector, counters, random.Random(rng.random()), options.think)
        for name in names
    }
    seen: set[str] = set()
    stop = asyncio.Event()
    try:
        limit = asyncio.Semaphore(8)

        async def log_in(client: Client) -> None:
            async with limit:
                await client.log_in(PASSWORD)

        await asyncio.wait_for(asyncio.gather(*map(log_in, clients.values())), SETUP_TIMEOUT)
        for client in clients.values():
            client.seated = True
        say(f"logged in {len(clients)} clients; the arena's waves seat them")
        async with asyncio.TaskGroup() as tasks:
            last = 0

            async def seat_new() -> None:
                nonlocal last
                for pk, table_id, people in await _new_tables(arena.pk, last):
                    last = pk
                    players = [clients[name] for name in people if name in clients]
                    seen.update(client.username for client in players)
                    if players:
                        tasks.create_task(ArenaGame(table_id, players).play(counters, stop))

            deadline = time.monotonic() + SETUP_TIMEOUT
            while len(seen) < len(clients) and time.monotonic() < deadline:
                await seat_new()
                await asyncio.sleep(LOOK_SECONDS)
            window = Window.after(options.warmup, options.seconds)
            for client in clients.values():
                client.window = window
            say(
                f"{len(seen)} players seated; warm-up {options.warmup:g} s, then "
                f"{options.seconds:g} s measured"
            )
            watching = tasks.create_task(own.watch(window))

            async def measure() -> float:
                await asyncio.sleep(max(0.0, window.start - time.monotonic()))
                start = meter.read()
                await asyncio.sleep(max(0.0, window.end - time.monotonic()))
                return (meter.read() - start).total

            measuring = tasks.create_task(measure())
            while time.monotonic() < window.end:
                await seat_new()
                await asyncio.sleep(LOOK_SECONDS)
            stop.set()
            await watching
            cpu = await measuring
    finally:
        await asyncio.gather(*(client.close() for client in clients.values()))
        await connector.close()
    return window, cpu, len(seen)


def _verify(arena: Arena, counters: SiteCounters) -> Verification:
    games = [row.game for row in ArenaTable.objects.filter(arena=arena).select_related("game")]
    return verify_games([game for game in games if game is not None], counters)


def side_by_side_lines(players: int, tables: Report, arena: Report) -> list[str]:
    """The two runs' round trips and CPU per move, one line each."""
    lines = [f"{players} players, one process      moves/s   p50 ms   p99 ms  CPU/move"]
    for label, report in (("ordinary tables of 2", tables), ("arena of duels", arena)):
        trips = report.round_trip_ms
        lines.append(
            f"{label:<30} {report.moves_per_second:>8.1f} {_shown(trips['p50'], 8, 1)} "
            f"{_shown(trips['p99'], 8, 1)} {_shown(report.server_cpu_ms_per_move, 6, 2)} ms"
        )
    return lines


def _shown(value: float | None, width: int, digits: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"
