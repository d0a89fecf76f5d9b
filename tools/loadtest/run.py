"""One benchmark run: servers up, users made, site driven, ceiling driven, figures checked."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher

from games.models import Game, Move
from tools.loadtest.bots import bot_moves, start_bot_tables
from tools.loadtest.driver import SETUP_AT_ONCE, Client, RelayGroup, TableGroup, Think
from tools.loadtest.servers import CEILING_APP, SITE_APP, DaphneGroup, cpu_seconds
from tools.loadtest.stats import (
    CpuUse,
    OwnLoop,
    Report,
    SiteCounters,
    Verification,
    Window,
    round_trip_figures,
)

PASSWORD = "load-test-password"  # throwaway users on a throwaway database
SETUP_TIMEOUT = 300.0  # logging in and opening the first tables
STEADY_SETTLE = 0.5  # seconds for the tables being set up to finish before the steady window
STALL_SECONDS = 5.0  # a table whose game has not moved for this long (plus think time) is stuck


@dataclass(frozen=True)
class LoadOptions:
    tables: int = 50
    players: int = 2
    spectators: int = 1
    think: Think = Think()
    seconds: float = 20.0
    warmup: float = 5.0
    processes: int = 1
    ceiling: bool = True
    seed: int = 1
    bot_tables: int = 0  # tables of bots alone, thinking beside the players
    bot_level: str = "expert"
    # Every socket of a table on one process (as nginx hashing the table's path sends them),
    # rather than a table's clients spread over the processes in turn.
    local: bool = False
    # A second window after the first, with no table opened, joined, started or left in it:
    # only moves and their pushes (0: none).
    steady_seconds: float = 10.0

    @property
    def clients_per_table(self) -> int:
        return self.players + self.spectators


def verify_game(game: Game) -> bool:
    """The site's own check of a game (its log replays to its snapshot; the digests chain).
    Imported here, in one place, so that its home in the services can move."""
    from games.services.history import verify_game as site_verify_game

    return site_verify_game(game)


def create_users(options: LoadOptions) -> list[str]:
    """One user per client, made directly in the database (they log in through the site).

    The password hash is computed once and shared: the benchmark's server settings use the MD5
    hasher (see tools.loadtest.settings), which checks it in microseconds.
    """
    prefix = "ld" + secrets.token_hex(3)  # a fresh name space per run: 8 + "-" + index
    names = [f"{prefix}-{index}" for index in range(options.tables * options.clients_per_table)]
    password = MD5PasswordHasher().encode(PASSWORD, MD5PasswordHasher().salt())
    User = get_user_model()
    User.objects.bulk_create(User(username=name, password=password) for name in names)
    return names


def run(
    options: LoadOptions,
    log_dir: Path,
    say: Callable[[str], None],
    env: dict[str, str | None] | None = None,
    redis_pid: int | None = None,
) -> Report:
    """Run the benchmark and return its report (verification included). ``env`` changes the
    servers' environment; the CPU of ``redis_pid``, when given, counts with theirs."""
    names = create_users(options)
    bot_games = start_bot_tables(options.bot_tables, options.bot_level)
    if bot_games:
        say(f"{len(bot_games)} tables of {options.bot_level} bots thinking beside the players")
    say(f"{len(names)} users; serving the site with {options.processes} Daphne process(es)")
    with DaphneGroup(SITE_APP, options.processes, log_dir, "site", env=env) as site:
        meter = CpuMeter(site, redis_pid)
        own = OwnLoop()
        counters, window, cpu, steady = asyncio.run(
            _drive_site(options, site, meter, names, say, own)
        )
        site.check_alive()
    report = _site_report(options, counters, window, cpu)
    report.clients = own.figures(window.seconds)
    if steady is not None:
        steady_window, steady_cpu = steady
        report.steady_round_trip_ms = round_trip_figures(counters.steady_round_trips)
        report.steady_seconds = steady_window.seconds
        report.steady_moves = moves_in(steady_window)
        report.steady_cpu_seconds = steady_cpu.total
        if report.steady_moves:
            report.steady_cpu_ms_per_move = steady_cpu.total * 1000 / report.steady_moves
    if bot_games:
        start = datetime.fromtimestamp(window.wall_start, UTC)
        end = datetime.fromtimestamp(window.wall_start + window.seconds, UTC)
        report.bot_moves = bot_moves(bot_games, start, end)
    if options.ceiling:
        say("ceiling: a trivial relay consumer on the same stack")
        with DaphneGroup(CEILING_APP, options.processes, log_dir, "ceiling", env=env) as ceiling:
            messages, pushes, ceiling_seconds, ceiling_cpu = asyncio.run(
                _drive_ceiling(options, ceiling, CpuMeter(ceiling, redis_pid))
            )
            ceiling.check_alive()
        report.ceiling_messages = messages
        report.ceiling_messages_per_second = messages / ceiling_seconds
        report.ceiling_pushes_per_second = pushes / ceiling_seconds
        if messages:
            report.ceiling_push_share = pushes / (messages * options.clients_per_table)
            report.ceiling_cpu_ms_per_message = ceiling_cpu * 1000 / messages
        if report.ceiling_messages_per_second:
            report.share_of_ceiling = report.moves_per_second / report.ceiling_messages_per_second
    verification = verify(names, counters, bot_games)
    if options.ceiling and not report.ceiling_messages:
        verification.problems.append("the ceiling relayed no message")
    report.verification = {**asdict(verification), "ok": verification.ok}
    return report


class CpuMeter:
    """The CPU time used so far by the servers and, when given, by Redis."""

    def __init__(self, site: DaphneGroup, redis_pid: int | None) -> None:
        self.site, self.redis_pid = site, redis_pid

    def read(self) -> CpuUse:
        redis = cpu_seconds(self.redis_pid) if self.redis_pid is not None else 0.0
        return CpuUse(self.site.cpu_seconds(), redis)


async def _drive_site(
    options: LoadOptions,
    site: DaphneGroup,
    meter: CpuMeter,
    names: list[str],
    say: Callable[[str], None],
    own: OwnLoop,
) -> tuple[SiteCounters, Window, CpuUse, tuple[Window, CpuUse] | None]:
    counters = SiteCounters()
    rng = random.Random(options.seed)
    connector = aiohttp.TCPConnector(limit=0)
    urls = site.urls
    size = options.clients_per_table
    clients = [
        Client(
            name,
            # A table's clients on one process, or each on the next process in turn.
            urls[(index // size if options.local else index) % len(urls)],
            connector,
            counters,
            random.Random(rng.random()),
            options.think,
        )
        for index, name in enumerate(names)
    ]
    try:
        started = time.monotonic()
        limit = asyncio.Semaphore(8)

        async def log_in(client: Client) -> None:
            async with limit:
                await client.log_in(PASSWORD)

        await asyncio.wait_for(asyncio.gather(*map(log_in, clients)), SETUP_TIMEOUT)
        say(f"logged in {len(clients)} clients in {time.monotonic() - started:.1f} s")
        setup = asyncio.Semaphore(SETUP_AT_ONCE)
        groups = [
            TableGroup(
                clients[at : at + options.players],
                clients[at + options.players : at + size],
                setup,
            )
            for at in range(0, len(clients), size)
        ]
        async with asyncio.TaskGroup() as tasks:
            for group in groups:
                tasks.create_task(group.run(counters))
            ready = asyncio.gather(*(group.ready.wait() for group in groups))
            await asyncio.wait_for(ready, SETUP_TIMEOUT)
            window = Window.after(options.warmup, options.seconds)
            for client in clients:
                client.window = window
            say(
                f"{len(groups)} tables playing; warm-up {options.warmup:g} s, then "
                f"{options.seconds:g} s measured"
            )
            watching = tasks.create_task(own.watch(window))
            await asyncio.sleep(max(0.0, window.start - time.monotonic()))
            cpu_start = meter.read()
            await asyncio.sleep(max(0.0, window.end - time.monotonic()))
            cpu = meter.read() - cpu_start
            await watching
            stall = STALL_SECONDS + 2 * options.think.high
            now = time.monotonic()
            counters.stalled_tables = sum(now - group.last_progress > stall for group in groups)
            steady = None
            if options.steady_seconds > 0:
                steady = await _steady_window(options, groups, meter, say)
            for group in groups:
                group.stop.set()
                group.opening.set()
    finally:
        await asyncio.gather(*(client.close() for client in clients))
        await connector.close()
    return counters, window, cpu, steady


async def _steady_window(
    options: LoadOptions,
    groups: list[TableGroup],
    meter: CpuMeter,
    say: Callable[[str], None],
) -> tuple[Window, CpuUse]:
    """Hold every table's next one (a finished game keeps its sockets open, no table is opened,
    joined or started) and measure the moves alone, once the tables being set up have been:
    their CPU, and the round trips of the moves sent in the window."""
    for group in groups:
        group.opening.clear()
    say(f"steady: no new table; {options.steady_seconds:g} s of moves alone")
    window = Window.after(STEADY_SETTLE, options.steady_seconds)
    for group in groups:
        for client in group.clients:
            client.steady = window
    await asyncio.sleep(max(0.0, window.start - time.monotonic()))
    start = meter.read()
    await asyncio.sleep(max(0.0, window.end - time.monotonic()))
    return window, meter.read() - start


async def _drive_ceiling(
    options: LoadOptions, ceiling: DaphneGroup, meter: CpuMeter
) -> tuple[int, int, float, float]:
    """Relayed messages and pushes in the ceiling's measured window, its length, and the
    ceiling's CPU seconds in it."""
    urls = ceiling.urls
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        groups = [
            RelayGroup(index, urls[index % len(urls)], options.clients_per_table, options.players)
            for index in range(options.tables)
        ]
        window = Window.after(options.warmup, options.seconds)
        cpu = 0.0

        async def measure_cpu() -> None:
            nonlocal cpu
            await asyncio.sleep(max(0.0, window.start - time.monotonic()))
            start = meter.read()
            await asyncio.sleep(max(0.0, window.end - time.monotonic()))
            cpu = (meter.read() - start).total

        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(measure_cpu())
            for group in groups:
                tasks.create_task(group.run(session, window))
    messages = sum(group.messages for group in groups)
    return messages, sum(group.pushes for group in groups), window.seconds, cpu


def moves_in(window: Window) -> int:
    """The players' moves the site stored in the window."""
    start = datetime.fromtimestamp(window.wall_start, UTC)
    end = datetime.fromtimestamp(window.wall_start + window.seconds, UTC)
    return Move.objects.filter(
        source=Move.Source.PLAYER, created_at__gte=start, created_at__lt=end
    ).count()


def _site_report(
    options: LoadOptions, counters: SiteCounters, window: Window, cpu: CpuUse
) -> Report:
    moves = moves_in(window)
    samples = counters.round_trips
    return Report(
        options={**asdict(options), "think": f"{options.think.low:g}-{options.think.high:g}"},
        seconds=window.seconds,
        moves=moves,
        moves_per_second=moves / window.seconds,
        round_trip_ms=round_trip_figures(samples),
        pushes=counters.window_pushes,
        pushes_per_second=counters.window_pushes / window.seconds,
        server_cpu_seconds=cpu.total,
        server_cpu_ms_per_move=cpu.total * 1000 / moves if moves else None,
        redis_cpu_seconds=cpu.redis,
        games_started=counters.games_started,
        games_finished=counters.games_finished,
    )


def verify(names: list[str], counters: SiteCounters, bot_games: Sequence[int] = ()) -> Verification:
    """Check the run against the database: every game verifies (the bots' too), every
    acknowledged move is logged once and nothing else is, and every doubled click's second copy
    was refused."""
    games = list(Game.objects.filter(table__host__username__in=names))
    return verify_games(games, counters, list(Game.objects.filter(pk__in=bot_games)))


def verify_games(
    games: Sequence[Game], counters: SiteCounters, bots: Sequence[Game] = ()
) -> Verification:
    """:func:`verify` of the games the run's players played, and of the bots' games."""
    check = Verification(
        games=len(games),
        games_verified=sum(verify_game(game) for game in games),
        moves_logged=Move.objects.filter(game__in=games, source=Move.Source.PLAYER).count(),
        moves_acknowledged=counters.acknowledged,
        doubled=counters.doubled,
        doubled_refused=counters.doubled_refused,
        unresolved=counters.unresolved,
        stalled_tables=counters.stalled_tables,
    )
    if not games or check.moves_logged == 0:
        check.problems.append("no move was played")
    if check.games_verified != check.games:
        check.problems.append(f"{check.games - check.games_verified} games do not verify")
    if bots and sum(verify_game(game) for game in bots) != len(bots):
        check.problems.append("a game of bots does not verify")
    if check.moves_logged != check.moves_acknowledged:
        check.problems.append(
            f"{check.moves_logged} moves logged but {check.moves_acknowledged} acknowledged"
        )
    if check.doubled_refused != check.doubled:
        check.problems.append(
            f"{check.doubled - check.doubled_refused} doubled clicks were not refused"
        )
    if check.stalled_tables:
        check.problems.append(f"{check.stalled_tables} tables stalled (a push never came)")
    if check.unresolved:
        check.problems.append(f"{check.unresolved} moves were never answered")
    return check
