"""Fixtures of the services' tests: the cache's clock moved on, on the in-process cache and on
a real Redis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
import redis
import time_machine
from django.core.cache import cache

from lib.env import cache_config


@pytest.fixture(params=["locmem", "redis"])
def later(request, settings) -> Iterator[Callable[[float], None]]:
    """Each test runs on the in-process cache and on a real Redis, as several processes share
    it (REDIS_URL); ``later(seconds)`` moves the cache's clock on by ``seconds``."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        settings.CACHES = cache_config(url)
        cache.clear()
        client = redis.Redis.from_url(url)

        def pass_time(seconds: float) -> None:
            for key in client.scan_iter(match="taki:*"):
                left = client.pttl(key)
                if left < 0:
                    continue  # no time to live: kept for good
                if left <= seconds * 1000:
                    client.delete(key)
                else:
                    client.pexpire(key, left - int(seconds * 1000))

        yield pass_time
        client.close()
        return
    settings.CACHES = cache_config(None)  # the in-process cache, whatever REDIS_URL says
    cache.clear()
    with time_machine.travel(datetime.now(UTC), tick=True) as traveller:
        yield traveller.shift
