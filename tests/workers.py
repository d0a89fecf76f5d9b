"""The settings of one pytest-xdist worker process when the tests run on a shared Redis.

`make test` runs the tests without a browser in several processes. On REDIS_URL they would share
one Redis: a test that empties the cache would empty it under another process's test, and since
every process's test database numbers its tables from 1, a table's group on the channel layer
would reach the sockets of another process's table of the same number. So each worker gets a
Redis database of its own for the cache (database 1 for gw0, 2 for gw1…) and a channel-layer
prefix of its own: Redis's pub/sub reaches every database, so the database alone would not
separate the layers. Database 0 and the prefix "asgi" stay for the processes the tests start.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# Redis has 16 databases (0 to 15) unless configured otherwise; 0 is kept for started processes.
MOST_WORKERS = 15


def redis_database(url: str, number: int) -> str:
    """``url`` (redis://, rediss:// or unix://) pointed at Redis database ``number``."""
    address = urlsplit(url)
    if address.scheme == "unix":  # unix:///path/redis.sock?db=N
        query = [(key, value) for key, value in parse_qsl(address.query) if key != "db"]
        return f"unix://{address.path}?{urlencode([*query, ('db', str(number))])}"
    return urlunsplit(address._replace(path=f"/{number}"))  # redis://host:port/N


def redis_of_its_own(
    worker: str, caches: dict[str, Any], layers: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """CACHES and CHANNEL_LAYERS for the worker named ``worker`` ("gw0", "gw1"…), made from the
    site's settings on REDIS_URL, which are left unchanged.

    :raises ValueError: for a worker past ``MOST_WORKERS``, which would have no database left.
    """
    number = int(worker.removeprefix("gw")) + 1
    if number > MOST_WORKERS:
        raise ValueError(f"at most {MOST_WORKERS} test processes share one Redis, not {number}")
    caches = deepcopy(caches)
    caches["default"]["LOCATION"] = redis_database(caches["default"]["LOCATION"], number)
    layers = deepcopy(layers)
    layers["default"]["CONFIG"]["prefix"] = f"asgi-{worker}"
    return {"CACHES": caches, "CHANNEL_LAYERS": layers}
