"""The test processes of `make test` share one Redis (REDIS_URL) without reaching each other's
cache or sockets: each has a Redis database and a channel-layer prefix of its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.cache.backends.redis import RedisCache

from lib.env import REDIS_CHANNEL_LAYERS, cache_config, channel_layers_config
from tests.workers import MOST_WORKERS, redis_of_its_own


def worker_settings(url: str, worker: str, kind: str = "pubsub") -> dict[str, dict[str, Any]]:
    return redis_of_its_own(worker, cache_config(url), channel_layers_config(url, kind))


def layer_of(settings: dict[str, dict[str, Any]]) -> Any:
    config = settings["CHANNEL_LAYERS"]["default"]
    module, _, name = config["BACKEND"].rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)(**config["CONFIG"])


def test_each_worker_has_a_redis_database_of_its_own_and_database_0_is_left_free() -> None:
    url = "redis://127.0.0.1:6390/0"

    locations = [
        worker_settings(url, worker)["CACHES"]["default"]["LOCATION"] for worker in ("gw0", "gw1")
    ]

    assert locations == ["redis://127.0.0.1:6390/1", "redis://127.0.0.1:6390/2"]


def test_a_unix_socket_url_names_the_database_in_its_query() -> None:
    settings = worker_settings("unix:///run/redis/redis.sock", "gw2")

    assert settings["CACHES"]["default"]["LOCATION"] == "unix:///run/redis/redis.sock?db=3"


def test_each_worker_has_a_channel_prefix_of_its_own_and_the_site_settings_are_untouched() -> None:
    url = "redis://127.0.0.1:6390/0"
    caches, layers = cache_config(url), channel_layers_config(url)

    settings = redis_of_its_own("gw1", caches, layers)

    assert settings["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "asgi-gw1"
    assert caches == cache_config(url) and layers == channel_layers_config(url)


def test_more_workers_than_redis_has_databases_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 15"):
        worker_settings("redis://127.0.0.1:6390/0", f"gw{MOST_WORKERS}")


def test_emptying_one_workers_cache_leaves_the_other_workers_cache(redis_url) -> None:
    first, second = (
        RedisCache(settings["LOCATION"], settings)
        for settings in (
            worker_settings(redis_url, worker)["CACHES"]["default"] for worker in ("gw0", "gw1")
        )
    )
    first.set("online:1", 2)

    second.clear()

    assert first.get("online:1") == 2
    first.clear()


@pytest.mark.parametrize("kind", sorted(REDIS_CHANNEL_LAYERS))
async def test_a_table_s_group_message_reaches_only_its_own_worker_s_sockets(
    redis_url, kind
) -> None:
    """Both workers have a table 1; a move at the other's reaches none of this one's sockets."""
    mine, other = (layer_of(worker_settings(redis_url, worker, kind)) for worker in ("gw0", "gw1"))
    channel = await mine.new_channel()
    await mine.group_add("table-1", channel)

    await other.group_send("table-1", {"type": "table.update", "version": 9})
    await mine.group_send("table-1", {"type": "table.update", "version": 1})

    # The other worker's message, sent first, would have come first.
    assert await asyncio.wait_for(mine.receive(channel), 5) == {
        "type": "table.update",
        "version": 1,
    }
    await mine.group_discard("table-1", channel)
    await mine.flush()
    await other.flush()
