"""A restart nobody notices: on SIGTERM (or Ctrl-C) a Daphne process stops taking connections,
finishes the frames its sockets have waiting, closes each of its sockets with 1012 (service
restart), and only then stops.

htmx's ws extension reconnects after 1012: each page opens its socket again through the proxy,
which sends it to another process while this one is away, and is sent the table as it stands.
A move being worked when the signal came is stored and pushed (or refused) first, so a page
never loses a click it was told about. Without this, Daphne cancels every socket at once and the
pages see their connection drop (1006).

Every open socket's consumer is in this process's registry (:func:`opened`, :func:`closed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import weakref
from typing import Any, Protocol

logger = logging.getLogger(__name__)

# The websocket close code for "service restart" (RFC 6455 registry).
CLOSE_SERVICE_RESTART = 1012
# The codes a server closes with that autobahn's sendClose refuses (see _send_server_close_codes).
SERVER_CLOSE_CODES = frozenset({1011, 1012, 1013})
# How long the sockets have to finish the frames they have waiting (a move, a chat line).
FRAMES_GRACE_SECONDS = 10.0
# How long the pages then have to answer the close before the process stops regardless.
CLOSE_GRACE_SECONDS = 5.0


class Restartable(Protocol):
    """A socket's consumer, as the registry sees it."""

    async def close_for_restart(self) -> None:
        """Finish what the socket has in hand, then close it with ``CLOSE_SERVICE_RESTART``."""
        ...


_open: weakref.WeakSet[Any] = weakref.WeakSet()
_stopping = False
_signalled = False  # Daphne was told to stop (once gently; a second time at once)
_closing: set[asyncio.Task[None]] = set()


def opened(consumer: Restartable) -> None:
    """A socket opened. Opened while the process is stopping (its handshake began before), it
    is closed for the restart at once."""
    _open.add(consumer)
    if _stopping:
        _close(consumer)


def closed(consumer: Restartable) -> None:
    """A socket closed, for whatever reason."""
    _open.discard(consumer)


def open_sockets() -> int:
    """How many sockets are open in this process."""
    return len(_open)


def _close(consumer: Restartable) -> asyncio.Task[None]:
    task = asyncio.ensure_future(consumer.close_for_restart())
    _closing.add(task)
    task.add_done_callback(_closing.discard)
    return task


async def close_all(
    frames_grace: float = FRAMES_GRACE_SECONDS, close_grace: float = CLOSE_GRACE_SECONDS
) -> None:
    """Close every socket of this process for a restart, and every socket opened from now on;
    return once all have closed, or the graces have passed."""
    global _stopping
    _stopping = True
    tasks = [_close(consumer) for consumer in list(_open)]
    if tasks:
        _, late = await asyncio.wait(tasks, timeout=frames_grace)
        if late:
            logger.warning("%d sockets had not finished their frames: dropped", len(late))
    deadline = asyncio.get_running_loop().time() + close_grace
    while _open and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)  # each page answers the close; the socket's disconnect runs


def reset() -> None:
    """Forget every socket and that the process was stopping: for tests, whose sockets each
    belong to the test's own event loop."""
    global _stopping
    _stopping = False
    _open.clear()


# ---------------------------------------------------------------------- under Daphne


def stop_gently_with_server() -> None:
    """Make SIGTERM and SIGINT stop Daphne gently (called from ``asgi.py``).

    Daphne runs Twisted's reactor, which stops at once on either signal. Its handlers are set as
    the reactor starts; these replace them on the reactor's first turn. A second signal stops
    the process at once. Outside Daphne (tests, management commands) this does nothing.
    """
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    _send_server_close_codes()
    reactor.callLater(0, _take_signals)


def _send_server_close_codes() -> None:
    """Let Daphne close a socket with the codes a server sends.

    Daphne closes a socket through autobahn's ``sendClose``, which takes 1000 and 3000-4999
    only, the codes an application picks. RFC 6455 and IANA's registry give a server 1011
    (internal error), 1012 (service restart) and 1013 (try again later) besides, and the pages
    reconnect after them: those are sent as they are.
    """
    from daphne.ws_protocol import WebSocketProtocol

    close = WebSocketProtocol.serverClose
    if getattr(close, "sends_server_codes", False):
        return

    def server_close(protocol: Any, code: int | None = None) -> None:
        if code in SERVER_CLOSE_CODES:
            protocol.sendCloseFrame(code=code, isReply=False)
        else:
            close(protocol, code)

    server_close.sends_server_codes = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverClose = server_close


def _take_signals() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _on_signal)


def _on_signal(signum: int, frame: Any) -> None:
    from twisted.internet import reactor

    # A signal handler only hands over: the reactor runs the rest on its next turn.
    reactor.callFromThread(_stop, signal.Signals(signum).name)


def _stop(name: str) -> None:
    global _signalled
    if _signalled:
        logger.warning("%s again: stopping at once", name)
        _stop_reactor()
        return
    _signalled = True
    logger.info("%s: closing %d sockets for a restart, then stopping", name, open_sockets())
    _stop_listening()
    task = asyncio.ensure_future(close_all())
    task.add_done_callback(lambda _: _stop_reactor())
    _closing.add(task)


def _stop_reactor() -> None:
    from twisted.internet import reactor
    from twisted.internet.error import ReactorNotRunning

    with contextlib.suppress(ReactorNotRunning):  # stopping already
        reactor.stop()


def _stop_listening() -> None:
    """Close this process's listening ports: the proxy's new connections are refused here and
    go to another process."""
    from twisted.internet import reactor, tcp

    for reader in reactor.getReaders():
        if isinstance(reader, tcp.Port):  # unix.Port is one too
            reader.stopListening()
