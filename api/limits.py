"""What one token, or one address, may ask of the API: requests a minute, counted in the cache
(shared by the processes with REDIS_URL, one round trip a request: ``lib.cache_keys.count``),
and streams open at once, counted per process as the site counts its sockets without a log-in
(``games.live.limits``). A request past a limit is
refused with HTTP 429, a ``Retry-After`` header and the limit named (``RateLimited``), as
lila's RateLimit does.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings

from lib import cache_keys

# Requests a minute: with a token, and from one address without one.
TOKEN_REQUESTS_PER_MINUTE = 600
ADDRESS_REQUESTS_PER_MINUTE = 300
# Streams (the event stream, game streams, game exports) open at once in one process.
STREAMS_PER_TOKEN = 8
STREAMS_PER_ADDRESS = 16
WINDOW = 60
# A refused stream is asked to wait this long before it tries again.
STREAM_RETRY = 10


def per_minute(kind: str) -> int:
    """Requests a minute for ``kind`` (``token``, ``address``): the setting
    ``API_<KIND>_REQUESTS_PER_MINUTE`` if there is one (the benchmark's servers raise it), else
    this module's."""
    default = TOKEN_REQUESTS_PER_MINUTE if kind == "token" else ADDRESS_REQUESTS_PER_MINUTE
    return getattr(settings, f"API_{kind.upper()}_REQUESTS_PER_MINUTE", default)


@dataclass
class RateLimited(Exception):
    """A request past ``limit``; it may be made again in ``retry_after`` seconds."""

    limit: str
    retry_after: int


def _key(kind: str, value: str, window: int) -> str:
    digest = hashlib.sha256(value.encode()).hexdigest()[:32]
    return f"api:rate:{kind}:{digest}:{window}"


def count_request(kind: str, value: str, per_minute: int, now: float | None = None) -> None:
    """Count one request of ``value`` (a token's id, an address) in this minute's window.

    :raises RateLimited: ``value`` made ``per_minute`` requests in it already.
    """
    now = time.time() if now is None else now
    window = int(now // WINDOW)
    if cache_keys.count(_key(kind, value, window), WINDOW + 5) > per_minute:
        raise RateLimited(f"{kind}_requests_per_minute", max(1, int((window + 1) * WINDOW - now)))


class Streams:
    """The streams open in this process, per token and per address."""

    def __init__(self) -> None:
        self.open: Counter[str] = Counter()

    @contextlib.contextmanager
    def held(self, token_id: str | None, address: str | None) -> Iterator[None]:
        """Hold a stream of ``token_id``'s and ``address``'s for the block.

        :raises RateLimited: either has as many streams open as it may.
        """
        keys = []
        if token_id is not None:
            keys.append((f"token:{token_id}", STREAMS_PER_TOKEN, "streams_per_token"))
        if address:
            keys.append((f"address:{address}", STREAMS_PER_ADDRESS, "streams_per_address"))
        for key, limit, name in keys:
            if self.open[key] >= limit:
                raise RateLimited(name, STREAM_RETRY)
        for key, _limit, _name in keys:
            self.open[key] += 1
        try:
            yield
        finally:
            for key, _limit, _name in keys:
                self.open[key] -= 1
                if self.open[key] <= 0:
                    del self.open[key]


streams = Streams()
