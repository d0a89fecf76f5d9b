"""Throttling of failed log-ins, counted in Django's cache.

Failures are counted per username (ignoring case) and per client address, each in a fixed
window that starts with the first failure. Once a count reaches its limit, every log-in for that
username, or from that address, is refused until the window ends, even with the right password.
The address limit is higher than the username limit because many players can share one address
(a school, a café, a mobile network).

With the default in-memory cache each server process counts on its own; set REDIS_URL so that
all processes share the counts.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_ADDRESS = 20


def _key(kind: str, value: str) -> str:
    # Hashed: usernames typed at the log-in form can hold anything, and some cache backends
    # refuse spaces or control characters in keys.
    digest = hashlib.sha256(value.encode()).hexdigest()
    return f"accounts:login-failures:{kind}:{digest}"


def _keys(username: str, address: str | None) -> list[tuple[str, int]]:
    keys = [(_key("username", username.casefold()), MAX_FAILURES_PER_USERNAME)]
    if address:
        keys.append((_key("address", address), MAX_FAILURES_PER_ADDRESS))
    return keys


def client_address(request: HttpRequest | None) -> str | None:
    # REMOTE_ADDR only: X-Forwarded-For is written by the client unless a trusted proxy
    # replaces it, so trusting it would let anyone dodge the address limit.
    if request is None:
        return None
    return request.META.get("REMOTE_ADDR") or None


def is_locked(username: str, address: str | None) -> bool:
    """Whether log-ins for ``username`` or from ``address`` are refused for now."""
    counts = cache.get_many([key for key, _limit in _keys(username, address)])
    return any(counts.get(key, 0) >= limit for key, limit in _keys(username, address))


def record_failure(username: str, address: str | None) -> None:
    for key, _limit in _keys(username, address):
        # add() starts the window only if none is running; incr() keeps the key's expiry.
        cache.add(key, 0, timeout=WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.set(key, 1, timeout=WINDOW_SECONDS)


def record_success(username: str) -> None:
    """Forget the username's failures: its owner has just proved who they are.

    The address count stays, so one good account cannot be used to keep guessing others.
    """
    cache.delete(_key("username", username.casefold()))
