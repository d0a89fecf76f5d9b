"""What one client may make this server process do: the token bucket of a socket's actions, who
may not open a socket for a while after a flood (refused at the handshake, before their session
is read: :class:`RefuseFlooders`), and how many sockets without a log-in an address holds
open."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.cookie import parse_cookie

# A person (a visitor: an address) whose socket was closed for flooding may not open another
# socket at this process's tables for this long: one that reopened at once would have every new
# socket read at full speed until it was closed again. A browser does not reopen after 4429.
FLOOD_PENALTY_SECONDS = 10.0


class TokenBucket:
    """``capacity`` actions at once, then ``rate`` a second: what one socket may send."""

    def __init__(self, capacity: float, rate: float, now=time.monotonic) -> None:
        self.capacity, self.rate, self._now = capacity, rate, now
        self.tokens, self.updated = capacity, now()

    def take(self) -> bool:
        now = self._now()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Penalties:
    """Who may not open a socket here for a while, and until when (in this process)."""

    KEPT = 10_000  # past this many, those whose time is up are forgotten

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._until: dict[str, float] = {}

    def add(self, who: str, seconds: float) -> None:
        now = self._now()
        if len(self._until) >= self.KEPT:
            self._until = {key: end for key, end in self._until.items() if end > now}
        self._until[who] = now + seconds

    def holds(self, who: str) -> bool:
        end = self._until.get(who)
        return end is not None and end > self._now()

    def clear(self) -> None:
        self._until.clear()


flooders = Penalties()


class VisitorSockets:
    """How many sockets without a log-in each address holds open in this process."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more socket of ``address``, unless it holds the most it may
        (``ANONYMOUS_SOCKETS_PER_ADDRESS``): then count nothing and say no."""
        count = self._open.get(address, 0)
        if count >= settings.ANONYMOUS_SOCKETS_PER_ADDRESS:
            return False
        self._open[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self._open.pop(address, 0) - 1
        if count > 0:
            self._open[address] = count

    def clear(self) -> None:
        self._open.clear()


visitors = VisitorSockets()


def address(scope: dict[str, Any]) -> str:
    """The visitor's address as the server gives it (behind the proxy, with Daphne's
    ``--proxy-headers``, the first address of X-Forwarded-For)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def client_key(scope: dict[str, Any]) -> str:
    """Who a socket's client is, for the penalty after a flood, read from the handshake alone:
    its session cookie, else its address."""
    headers = dict(scope.get("headers", []))
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    session = cookies.get(settings.SESSION_COOKIE_NAME)
    return f"session:{session}" if session else f"address:{address(scope)}"


class RefuseFlooders:
    """ASGI middleware around the sockets' stack (``taki_site.asgi``): a client closed for
    flooding a moment ago is refused at the handshake, before its session and user are read
    from the database, so that reopening socket after socket costs the server next to nothing.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and flooders.holds(client_key(scope)):
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(scope, receive, send)
