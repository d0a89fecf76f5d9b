"""The server's clock: plays the bots' moves and the R23 timeouts when they fall due.

One asyncio task per event loop (so one per Daphne process), started with the server itself
when ``CLOCK_IN_WEB`` is on (``start_with_server``, from ``taki_site.asgi``), before any socket
connects. ``manage.py run_clock`` plays the same turns as a process of its own (``play_due``),
in place of the web processes' clocks or beside them: each move is played once. Every
``POLL_INTERVAL`` it asks the database which games are due (``Game.next_due <= now``) and lets
``moves.advance`` play what is owed. The deadlines live in the database, so a restart loses
nothing: the next clock picks them up.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
import weakref
from datetime import datetime

from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game, Table
from games.services import abandon, moves

logger = logging.getLogger(__name__)

POLL_INTERVAL = 0.25  # seconds
ABANDON_SWEEP = 60.0  # seconds between two looks for abandoned tables
_last_sweep = float("-inf")

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
    ``ABANDON_SWEEP`` seconds, also end the untimed tables whose people have all gone.

    One game's failure is logged and does not hold up the others.
    """
    await database_sync_to_async(sweep_abandoned)(now)
    return await database_sync_to_async(play_due)(now)


def sweep_abandoned(now: datetime | None = None) -> list[int]:
    """End the abandoned tables (``abandon.end_abandoned``), at most every ``ABANDON_SWEEP``
    seconds; return their ids."""
    global _last_sweep
    if time.monotonic() - _last_sweep < ABANDON_SWEEP:
        return []
    _last_sweep = time.monotonic()
    return abandon.end_abandoned(now)


def play_due(now: datetime | None = None, should_stop=lambda: False) -> int:
    """Advance every game that is due by ``now`` (the most overdue first); return how many.

    One game's failure is logged and does not hold up the others.
    """
    due = due_game_ids(now)
    for game_id in due:
        if should_stop():
            break
        try:
            moves.advance(game_id, now)
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
