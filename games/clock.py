"""The server's clock: plays the bots' moves and the R23 timeouts when they fall due.

One asyncio task per event loop (so one per Daphne process), started with the server itself
when ``CLOCK_IN_WEB`` is on (``start_with_server``, from ``taki_site.asgi``), before any socket
connects. ``manage.py run_clock`` plays the same turns as a process of its own (``play_due``),
in place of the web processes' clocks or beside them: each move is played once. Every
``POLL_INTERVAL`` it asks the database which games are due (``Game.next_due <= now``) and lets
``moves.advance`` play what is owed. The deadlines live in the database, so a restart loses
nothing: the next clock picks them up.

A bot's thinking never holds up a table: the clock reads the bot's turn under the game's lock,
lets the bot think in the clock's worker processes (``THINKERS`` of them, ``THINK_BUDGET``
seconds a move at most) with no lock held, and plays the choice through the locked move path at
the version it was made for (``moves.play_bot_move``: a stale choice is dropped and thought
again). In a web process the event loop only awaits the workers, and the clock reads and writes
on a database thread of its own, not the one the views and sockets share: none of them waits
for a bot. Past its budget, a move is the greedy player's.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sys
import time
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game, Table
from games.services import abandon, moves, no_shows, quickmatch, thinking
from games.services.thinking import BotTurn

logger = logging.getLogger(__name__)

POLL_INTERVAL = 0.25  # seconds
ABANDON_SWEEP = 60.0  # seconds between two looks for abandoned tables
# Worker processes in which the bots think, per clock: half the cores, the rest for serving;
# they run at a lower priority than the web process, which a person's move never waits behind.
THINKERS = max(1, (os.cpu_count() or 2) // 2)
THINKERS_NICENESS = 19
THINK_BUDGET = 2.0  # seconds a bot may think about one move before the greedy player moves
FALLBACK_BOT = "greedy"  # thinks in microseconds: it plays a move past its budget
_thinkers: ProcessPoolExecutor | None = None
# The clock's own database thread: its reads and writes never queue in front of the people's
# (a web process's views and sockets share one database thread; a burst of due bots' moves
# there would hold up every person's move behind it).
_clock_thread = ThreadPoolExecutor(1, thread_name_prefix="taki-clock")


class Every:
    """A look the clock takes at most every ``seconds`` (in this process): ``due`` says yes the
    first time, then once that long has passed since it last said yes."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.last = float("-inf")

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.seconds:
            return False
        self.last = now
        return True


_abandoned_sweeps = Every(ABANDON_SWEEP)
_no_show_sweeps = Every(no_shows.SWEEP_SECONDS)


def on_clock_thread[**P, R](function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``function`` run on the clock's own database thread (connections handled as Channels
    handles them on the shared one)."""
    return database_sync_to_async(function, thread_sensitive=False, executor=_clock_thread)


_clocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def start_with_server() -> None:
    """Start the clock when Daphne's event loop starts (called from ``asgi.py``).

    Daphne runs Twisted's asyncio reactor and knows no ASGI lifespan events: the clock is
    started by the reactor's first turn of the event loop instead (a ``callLater`` runs on the
    running loop; a start-up trigger would run before it). Outside Daphne (tests, management
    commands) this does nothing.
    """
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    reactor.callLater(0, ensure_clock)


def ensure_clock() -> asyncio.Task[None]:
    """Start the clock on the running event loop unless it already runs there; return its task.

    Must be called on a running event loop.
    """
    loop = asyncio.get_running_loop()
    task = _clocks.get(loop)
    if task is None or task.done():
        task = loop.create_task(run_clock(), name="taki-clock")
        _clocks[loop] = task
        logger.info("the game clock is running in this process")
    return task


async def run_clock(interval: float = POLL_INTERVAL) -> None:
    """Tick forever; an error is logged and the clock goes on."""
    while True:
        try:
            await tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("the game clock failed to tick")
        await asyncio.sleep(interval)


async def tick(now: datetime | None = None) -> int:
    """Advance every game that is due by ``now``; return how many were advanced. Every
    ``ABANDON_SWEEP`` seconds, also end the untimed tables whose people have all gone; run quick
    match's wave, and abort its untimed tables a matched player never came to.

    The games advance side by side: one game's bot thinking holds up no other game. One game's
    failure is logged and does not hold up the others.
    """
    await on_clock_thread(sweep_abandoned)(now)
    due = await on_clock_thread(due_game_ids)(now)
    await asyncio.gather(*(_advance_logged(game_id, now) for game_id in due))
    await on_clock_thread(match_pools)(now)
    await on_clock_thread(sweep_no_shows)(now)
    return len(due)


async def _advance_logged(game_id: int, now: datetime | None) -> None:
    try:
        await advance(game_id, now)
    except Exception:
        logger.exception("the game clock could not advance game %s", game_id)


async def advance(game_id: int, now: datetime | None = None) -> None:
    """``moves.advance`` on the event loop: each locked step on the clock's own database thread,
    each bot's thinking in the worker processes, awaited."""
    now = now or timezone.now()
    for _step in range(moves.MAX_STEPS):
        step = await on_clock_thread(moves.advance_step)(game_id, now)
        if isinstance(step, BotTurn):
            choice = await think(step)
            await on_clock_thread(moves.play_bot_move)(step, choice, now)
        elif step[0]:
            return


async def think(turn: BotTurn) -> dict[str, Any]:
    """The bot's choice for ``turn``, thought in a worker process within ``THINK_BUDGET``."""
    loop = asyncio.get_running_loop()
    try:
        work = loop.run_in_executor(thinkers(), thinking.choose, turn)
        return await asyncio.wait_for(work, THINK_BUDGET)
    except TimeoutError:
        return _past_budget(turn)
    except BrokenProcessPool:
        return _without_workers(turn)


def think_now(turn: BotTurn) -> dict[str, Any]:
    """:func:`think` for a clock with no event loop (``manage.py run_clock``): its thread waits
    for the worker, holding no lock."""
    try:
        return thinkers().submit(thinking.choose, turn).result(timeout=THINK_BUDGET)
    except FutureTimeout:
        return _past_budget(turn)
    except BrokenProcessPool:
        return _without_workers(turn)


def _past_budget(turn: BotTurn) -> dict[str, Any]:
    logger.warning("a %s bot thought past its budget in game %s", turn.kind, turn.game_id)
    return thinking.choose(replace(turn, kind=FALLBACK_BOT))


def _without_workers(turn: BotTurn) -> dict[str, Any]:
    global _thinkers
    logger.error("the bots' worker processes stopped; starting new ones")
    _thinkers = None
    return thinking.choose(replace(turn, kind=FALLBACK_BOT))


def thinkers() -> ProcessPoolExecutor:
    """The clock's worker processes, started on first use. They are spawned, not forked (a web
    process has threads), and import the engine only (:mod:`games.services.thinking`)."""
    global _thinkers
    if _thinkers is None:
        _thinkers = ProcessPoolExecutor(
            THINKERS,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=os.nice,
            initargs=(THINKERS_NICENESS,),
        )
    return _thinkers


def sweep_abandoned(now: datetime | None = None) -> list[int]:
    """End the abandoned tables (``abandon.end_abandoned``), at most every ``ABANDON_SWEEP``
    seconds; return their ids."""
    if not _abandoned_sweeps.due():
        return []
    return abandon.end_abandoned(now)


def sweep_no_shows(now: datetime | None = None) -> list[int]:
    """Abort quick match's untimed tables that a matched player never came to
    (``no_shows.abort_no_shows``), at most every ``no_shows.SWEEP_SECONDS``; return their ids.
    A failure is logged and the clock goes on."""
    if not _no_show_sweeps.due():
        return []
    try:
        return no_shows.abort_no_shows(now)
    except Exception:
        logger.exception("the game clock could not abort the tables nobody came to")
        return []


def match_pools(now: datetime | None = None) -> int:
    """Quick match's wave, when it is this clock's turn (``quickmatch.wave``); how many tables
    it seated. A failure is logged and the clock goes on."""
    try:
        return len(quickmatch.wave(now))
    except Exception:
        logger.exception("the game clock could not match the pools")
        return 0


def play_due(now: datetime | None = None, should_stop=lambda: False) -> int:
    """Advance every game that is due by ``now`` (the most overdue first); return how many.

    One game's failure is logged and does not hold up the others.
    """
    due = due_game_ids(now)
    for game_id in due:
        if should_stop():
            break
        try:
            moves.advance(game_id, now, think=think_now)
        except Exception:
            logger.exception("the game clock could not advance game %s", game_id)
    return len(due)


def due_game_ids(now: datetime | None = None) -> list[int]:
    """The running games that owe a move by ``now``, the most overdue first."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(
            next_due__lte=now, winner__isnull=True, table__status=Table.Status.PLAYING
        )
        .order_by("next_due")
        .values_list("pk", flat=True)
    )
