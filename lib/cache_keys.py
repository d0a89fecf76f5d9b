"""Many keys of the site's cache at once, where Django's cache API takes a call a key.

:func:`touch_many` gives keys more time to live, as ``cache.touch`` gives one. On Redis all of
them go in one round trip: a pipeline of ``EXPIRE`` commands sent through a redis client of
this module's own, made from the cache's settings as Django's Redis cache makes its own (the
first server of ``LOCATION``, the one it writes to, with its ``OPTIONS``), for the cache's own
key of each (``make_and_validate_key``) and the timeout ``touch`` would set
(``get_backend_timeout``). Any other cache is touched a key at a time.

:func:`count` adds one to a key's count, started at its first with the time it lives: on Redis
in one round trip (``SET NX EX`` then ``INCR``, pipelined), where ``cache.add`` then
``cache.incr`` take three.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

import redis
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from django.utils.module_loading import import_string

_clients: dict[tuple[str, str], redis.Redis] = {}
_clients_lock = threading.Lock()


def touch_many(
    keys: Sequence[str],
    seconds: float | None = DEFAULT_TIMEOUT,
    *,
    alias: str = DEFAULT_CACHE_ALIAS,
) -> list[bool]:
    """``cache.touch(key, seconds)`` for each of ``keys``, in order: each key given ``seconds``
    more to live (None: for ever), and whether it was there."""
    cache = caches[alias]
    if not isinstance(cache, RedisCache):
        return [cache.touch(key, seconds) for key in keys]
    if not keys:
        return []
    timeout = cache.get_backend_timeout(seconds)
    pipeline = _writer(alias).pipeline(transaction=False)
    for key in keys:
        name = cache.make_and_validate_key(key)
        if timeout is None:
            pipeline.persist(name)
        else:
            pipeline.expire(name, timeout)
    return [bool(kept) for kept in pipeline.execute()]


def count(key: str, seconds: int, *, alias: str = DEFAULT_CACHE_ALIAS) -> int:
    """One more of ``key``: its count now. A key that is not there starts at one and lives
    ``seconds`` from then; the count does not make it live longer."""
    cache = caches[alias]
    if not isinstance(cache, RedisCache):
        if cache.add(key, 1, seconds):
            return 1
        try:
            return cache.incr(key)
        except ValueError:  # it ended between the two calls
            cache.add(key, 1, seconds)
            return 1
    name = cache.make_and_validate_key(key)
    pipeline = _writer(alias).pipeline(transaction=False)
    pipeline.set(name, 0, ex=max(1, int(seconds)), nx=True)
    pipeline.incr(name)
    return int(pipeline.execute()[1])


def _writer(alias: str) -> redis.Redis:
    """A client of the Redis server the cache ``alias`` writes to, made once per server."""
    config = settings.CACHES[alias]
    location = config["LOCATION"]
    servers = re.split("[;,]", location) if isinstance(location, str) else list(location)
    key = (alias, servers[0])
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = redis.Redis(
                connection_pool=_pool(servers[0], dict(config.get("OPTIONS", {})))
            )
    return client


def _pool(url: str, options: dict) -> redis.ConnectionPool:
    """The connection pool Django's Redis cache makes for ``url`` with these ``OPTIONS``."""
    options.pop("serializer", None)  # values are not read or written here
    pool_class = options.pop("pool_class", None) or redis.ConnectionPool
    if isinstance(pool_class, str):
        pool_class = import_string(pool_class)
    parser_class = options.pop("parser_class", None)
    if isinstance(parser_class, str):
        parser_class = import_string(parser_class)
    if parser_class is not None:
        options["parser_class"] = parser_class
    return pool_class.from_url(url, **options)
