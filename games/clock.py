"""The server's clock: plays the bots' moves and the R23 timeouts when they fall due.

A :class:`Clock` runs as one asyncio task on a web process's event loop, started with the
server itself when ``CLOCK_IN_WEB`` is on (``start_with_server``, from ``taki_site.asgi``),
before any socket connects; ``manage.py run_clock`` plays the same turns as a process of its
own (``Clock.play_due``), in place of the web processes' clocks or beside them: each move is
played once. Every ``POLL_INTERVAL`` it asks the database which games are due
(``Game.objects.due``) and plays what is owed. The deadlines live in the database, so a restart
loses nothing: the next clock picks them up.

A bot's thinking never holds up a table: the clock reads the bot's turn under the game's lock,
lets the bot think in the clock's worker processes (``THINKERS`` of them, ``THINK_BUDGET``
seconds a move at most) with no lock held, and plays the choice through the locked move path at
the version it was made for (``moves.advancing``: a stale choice is dropped and thought again).
In a web process the event loop only awaits the workers, and the clock reads and writes on a
database thread of its own, not the one the views and sockets share: none of them waits for a
bot. Past its budget, a move is the greedy player's.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.module_loading import import_string

from games.models import Game
from games.services import abandon, challenges, moves, no_shows, quickmatch, thinking
from games.services.moves import Advancing
from games.services.thinking import BotTurn
from social import notifications

logger = logging.getLogger(__name__)

POLL_INTERVAL = 0.25  # seconds
ABANDON_SWEEP = 60.0  # seconds between two looks for abandoned tables
FORGET_SWEEP = 3600.0  # seconds between two looks for notifications old enough to forget
OUTBOX_SWEEP = 5.0  # seconds between two passes of the outbox (e-mails and pushes owed)
# Worker processes in which the bots think, per clock: half the cores, the rest for serving;
# they run at a lower priority than the web process, which a person's move never waits behind.
THINKERS = max(1, (os.cpu_count() or 2) // 2)
THINKERS_NICENESS = 19
THINK_BUDGET = 2.0  # seconds a bot may think about one move before the greedy player moves
FALLBACK_BOT = "greedy"  # thinks in microseconds: it plays a move past its budget


class AtMostEvery:
    """A look the clock takes at most every ``seconds``: ``due`` says yes the first time, then
    once that long has passed since it last said yes."""

    def __init__(self, seconds: float, now: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.now = now
        self.last = float("-inf")

    def due(self) -> bool:
        now = self.now()
        if now - self.last < self.seconds:
            return False
        self.last = now
        return True


def due_game_ids(now: datetime | None = None) -> list[int]:
    """The running games that owe a move by ``now``, the most overdue first."""
    due = Game.objects.due(now or timezone.now()).order_by("next_due")
    return list(due.values_list("pk", flat=True))


class Clock:
    """One clock: its worker processes (``thinkers``, made on first use unless given), its own
    database thread, and its sweeps, each taken at most so often."""

    def __init__(
        self,
        *,
        thinkers: Executor | None = None,
        think_budget: float = THINK_BUDGET,
        jobs: Sequence[Callable[[datetime | None], object]] = (),
        deliver: Callable[[], object] | None = None,
    ) -> None:
        self.think_budget = think_budget
        # What the apps above the games run on every tick (``configured_jobs``), on the clock's
        # database thread, each paced by itself.
        self.jobs = tuple(jobs)
        # The outbox's pass (outbox.sending.deliver_due), on a thread of its own: an e-mail
        # server or a push service that is slow holds up no move. None: not this clock's.
        self._deliver = deliver
        self._outbox = ThreadPoolExecutor(1, thread_name_prefix="taki-outbox")
        self._outbox_pass: Future[None] | None = None
        self.outbox_sweeps = AtMostEvery(OUTBOX_SWEEP)
        self._thinkers = thinkers
        # The clock's own database thread: its reads and writes never queue in front of the
        # people's (a web process's views and sockets share one database thread; a burst of due
        # bots' moves there would hold up every person's move behind it).
        self._database = ThreadPoolExecutor(1, thread_name_prefix="taki-clock")
        self.abandoned_sweeps = AtMostEvery(ABANDON_SWEEP)
        self.no_show_sweeps = AtMostEvery(no_shows.SWEEP_SECONDS)
        self.challenge_sweeps = AtMostEvery(challenges.SWEEP_SECONDS)
        self.forget_sweeps = AtMostEvery(FORGET_SWEEP)
        self.task: asyncio.Task[None] | None = None  # running on an event loop

    def on_thread[**P, R](self, function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
        """``function`` run on the clock's own database thread (connections handled as
        Channels handles them on the shared one)."""
        return database_sync_to_async(function, thread_sensitive=False, executor=self._database)

    # ------------------------------------------------------------------ on an event loop

    def start(self) -> asyncio.Task[None]:
        """Run the clock on the running event loop unless it runs there already; its task."""
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run(), name="taki-clock")
            logger.info("the game clock is running in this process")
        return self.task

    async def run(self, interval: float = POLL_INTERVAL) -> None:
        """Tick forever; an error is logged and the clock goes on."""
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the game clock failed to tick")
            await asyncio.sleep(interval)

    async def tick(self, now: datetime | None = None) -> int:
        """Advance every game that is due by ``now``; return how many were advanced. At most
        every ``ABANDON_SWEEP`` seconds, also end the untimed tables whose people have all gone;
        run quick match's wave, and abort its untimed tables a matched player never came to;
        close the challenges whose time is up, and forget old notifications.

        The games advance side by side: one game's bot thinking holds up no other game. One
        game's failure is logged and does not hold up the others.
        """
        await self.on_thread(self.sweep_abandoned)(now)
        due = await self.on_thread(due_game_ids)(now)
        await asyncio.gather(*(self._advance_logged(game_id, now) for game_id in due))
        await self.on_thread(self.match_pools)(now)
        await self.on_thread(self.sweep_no_shows)(now)
        await self.on_thread(self.sweep_challenges)(now)
        await self.on_thread(self.run_jobs)(now)
        self.send_outbox()
        return len(due)

    async def _advance_logged(self, game_id: int, now: datetime | None) -> None:
        try:
            await self.advance(game_id, now)
        except Exception:
            logger.exception("the game clock could not advance game %s", game_id)

    async def advance(self, game_id: int, now: datetime | None = None) -> None:
        """Play what the game owes by ``now`` (``moves.advancing``): each locked step on the
        clock's own database thread, each bot's thinking in the worker processes, awaited."""
        steps = moves.advancing(game_id, now or timezone.now())
        resume = self.on_thread(_resumed)
        turn = await resume(steps, None)
        while turn is not None:
            turn = await resume(steps, await self.think(turn))

    async def think(self, turn: BotTurn) -> dict[str, Any]:
        """The bot's choice for ``turn``, thought in a worker process within the budget."""
        loop = asyncio.get_running_loop()
        try:
            work = loop.run_in_executor(self.thinkers(), thinking.choose, turn)
            return await asyncio.wait_for(work, self.think_budget)
        except TimeoutError:
            return self._past_budget(turn)
        except BrokenProcessPool:
            return self._without_workers(turn)

    # ------------------------------------------------------------------ in a thread of its own

    def play_due(self, now: datetime | None = None, should_stop=lambda: False) -> int:
        """Advance every game that is due by ``now`` (the most overdue first), each bot's
        thinking waited for in this thread; return how many. As ``manage.py run_clock`` plays.

        One game's failure is logged and does not hold up the others.
        """
        due = due_game_ids(now)
        for game_id in due:
            if should_stop():
                break
            try:
                moves.advance(game_id, now, think=self.think_now)
            except Exception:
                logger.exception("the game clock could not advance game %s", game_id)
        return len(due)

    def think_now(self, turn: BotTurn) -> dict[str, Any]:
        """:meth:`think` for a clock with no event loop: its thread waits for the worker,
        holding no lock."""
        try:
            return self.thinkers().submit(thinking.choose, turn).result(timeout=self.think_budget)
        except FutureTimeout:
            return self._past_budget(turn)
        except BrokenProcessPool:
            return self._without_workers(turn)

    def sweep_abandoned(self, now: datetime | None = None) -> list[int]:
        """End the abandoned tables (``abandon.end_abandoned``), at most every
        ``ABANDON_SWEEP`` seconds; return their ids."""
        if not self.abandoned_sweeps.due():
            return []
        return abandon.end_abandoned(now)

    def sweep_no_shows(self, now: datetime | None = None) -> list[int]:
        """Abort quick match's untimed tables that a matched player never came to
        (``no_shows.abort_no_shows``), at most every ``no_shows.SWEEP_SECONDS``; return their
        ids. A failure is logged and the clock goes on."""
        if not self.no_show_sweeps.due():
            return []
        try:
            return no_shows.abort_no_shows(now)
        except Exception:
            logger.exception("the game clock could not abort the tables nobody came to")
            return []

    def sweep_challenges(self, now: datetime | None = None) -> list[int]:
        """Close the challenges whose time is up (``challenges.expire_due``), at most every
        ``challenges.SWEEP_SECONDS``, and forget the notifications older than they are kept
        (``notifications.forget_old``), at most every ``FORGET_SWEEP``; return the challenges'
        ids. A failure is logged and the clock goes on."""
        expired: list[int] = []
        try:
            if self.challenge_sweeps.due():
                expired = challenges.expire_due(now)
            if self.forget_sweeps.due():
                notifications.forget_old(now)
        except Exception:
            logger.exception("the game clock could not close the expired challenges")
        return expired

    def run_jobs(self, now: datetime | None = None) -> None:
        """The clock's extra jobs (``jobs``), each given the tick's time; a failure is logged
        and the others go on."""
        for job in self.jobs:
            try:
                job(now)
            except Exception:
                logger.exception("the game clock's job %s failed", job)

    def send_outbox(self) -> bool:
        """Start the outbox's pass on its own thread, at most every ``OUTBOX_SWEEP`` seconds
        and never two at once; whether one started. Not waited for."""
        if self._deliver is None:
            return False
        if self._outbox_pass is not None and not self._outbox_pass.done():
            return False
        if not self.outbox_sweeps.due():
            return False
        self._outbox_pass = self._outbox.submit(self._outbox_logged)
        return True

    def finish_outbox(self) -> None:
        """Wait for the outbox's pass under way, if one is: a clock that stops ends the sends it
        began, and gives their connection back."""
        if self._outbox_pass is not None:
            self._outbox_pass.result()

    def _outbox_logged(self) -> None:
        # The pass's own connection, given back when it ends: a pass comes every few seconds at
        # most, and a pooled connection held between them would be one the pool lacks for good.
        try:
            self._deliver()
        except Exception:
            logger.exception("the game clock could not send the outbox")
        finally:
            connection.close()

    def match_pools(self, now: datetime | None = None) -> int:
        """Quick match's wave, when it is this clock's turn (``quickmatch.wave``); how many
        tables it seated. A failure is logged and the clock goes on."""
        try:
            return len(quickmatch.wave(now))
        except Exception:
            logger.exception("the game clock could not match the pools")
            return 0

    # ------------------------------------------------------------------ the bots' workers

    def thinkers(self) -> Executor:
        """The clock's worker processes, started on first use. They are spawned, not forked (a
        web process has threads), and import the engine only (:mod:`games.services.thinking`)."""
        if self._thinkers is None:
            self._thinkers = ProcessPoolExecutor(
                THINKERS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=os.nice,
                initargs=(THINKERS_NICENESS,),
            )
        return self._thinkers

    def _past_budget(self, turn: BotTurn) -> dict[str, Any]:
        logger.warning("a %s bot thought past its budget in game %s", turn.kind, turn.game_id)
        return thinking.choose(replace(turn, kind=FALLBACK_BOT))

    def _without_workers(self, turn: BotTurn) -> dict[str, Any]:
        logger.error("the bots' worker processes stopped; starting new ones")
        self._thinkers = None
        return thinking.choose(replace(turn, kind=FALLBACK_BOT))


def _resumed(steps: Advancing, choice: dict[str, Any] | None) -> BotTurn | None:
    """The next bot's turn of ``steps``, sent the choice for the last one; None when the game
    owes nothing more."""
    try:
        return steps.send(choice)  # type: ignore[arg-type]
    except StopIteration:
        return None


def configured_jobs() -> list[Callable[[datetime | None], object]]:
    """The extra jobs ``settings.CLOCK_JOBS`` names (dotted paths), for every clock: the games
    do not know the apps above them, the settings do."""
    return [import_string(path) for path in getattr(settings, "CLOCK_JOBS", ())]


def start_with_server(clock: Clock) -> None:
    """Run ``clock`` when Daphne's event loop starts (called from ``asgi.py``).

    Daphne runs Twisted's asyncio reactor and knows no ASGI lifespan events: the clock is
    started by the reactor's first turn of the event loop instead (a ``callLater`` runs on the
    running loop; a start-up trigger would run before it). Outside Daphne (tests, management
    commands) this does nothing.
    """
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    reactor.callLater(0, clock.start)
