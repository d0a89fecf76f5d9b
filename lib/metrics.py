"""The site's Prometheus metrics, counted where things happen and served on ``/metrics``.

With several server processes, each writes its counts to files in ``PROMETHEUS_MULTIPROC_DIR``
(set in every process's environment, a folder emptied once at boot) and ``/metrics`` adds them
up, whichever process serves it, those of the processes that have stopped included. Without it
the counts are the serving process's own.

This module imports nothing from the games, so that any layer may count here: the move path,
the log-in throttle, the websocket wrapper below.
"""

from __future__ import annotations

import atexit
import functools
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

MOVES_APPLIED = Counter("taki_moves_applied", "Players' moves applied")
MOVES_REFUSED = Counter("taki_moves_refused", "Players' moves refused, by error code", ["code"])
MOVE_SECONDS = Histogram(
    "taki_move_seconds",
    "Server time of one player's move, applied or refused",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
PUSHES_SENT = Counter("taki_pushes_sent", "Messages pushed to websockets")
SOCKETS_OPEN = Gauge(
    "taki_sockets_open", "Websockets open in this process", multiprocess_mode="liveall"
)
LOGINS_REFUSED = Counter("taki_logins_refused", "Log-ins refused by the throttle")


def counts_moves[**P, R](submit: Callable[P, R]) -> Callable[P, R]:
    """Count each call of ``submit`` as a move applied or refused (by its error's ``code``) and
    time it."""

    @functools.wraps(submit)
    def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        try:
            result = submit(*args, **kwargs)
        except Exception as error:
            MOVES_REFUSED.labels(getattr(error, "code", "error")).inc()
            raise
        finally:
            MOVE_SECONDS.observe(time.perf_counter() - started)
        MOVES_APPLIED.inc()
        return result

    return counted


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class CountSockets:
    """ASGI middleware around the websockets: counts the sockets open and the messages pushed."""

    def __init__(self, app: Callable[[dict[str, Any], Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        accepted = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            kind = message["type"]
            if kind == "websocket.send":
                PUSHES_SENT.inc()
            elif kind == "websocket.accept" and not accepted:
                accepted = True
                SOCKETS_OPEN.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                SOCKETS_OPEN.dec()


def _forget_this_process() -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(os.getpid())


def forget_dead_processes(folder: str | Path) -> list[int]:
    """Remove the live gauges (``taki_sockets_open``) of the processes that wrote them in
    ``folder`` and are no longer running, as ``mark_process_dead`` does at a process's exit: a
    process that was killed (SIGKILL, out of memory) never reached its exit. Their counters and
    histograms stay, and are still added up. Returns the processes' ids.
    """
    dead: set[int] = set()
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        if pid in dead or not _running(pid):
            dead.add(pid)
            path.unlink(missing_ok=True)  # another process starting may have swept it first
    return sorted(dead)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # A process that stops takes its open sockets with it; one that was killed, the next
    # process to start takes away. The folder is emptied once at boot, never at a process's
    # start: the counts of the processes that stopped are still added up (docs/deployment.md).
    atexit.register(_forget_this_process)
    forget_dead_processes(os.environ["PROMETHEUS_MULTIPROC_DIR"])
