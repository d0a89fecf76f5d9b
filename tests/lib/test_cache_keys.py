"""Many keys of the cache touched at once do what ``cache.touch`` does to each, on Redis and on
the in-process cache (lib/cache_keys.py)."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import cache

from lib.cache_keys import count, touch_many
from lib.env import cache_config


@pytest.fixture(params=["locmem", "redis"])
def shared_cache(request, settings) -> str:
    if request.param == "redis":
        settings.CACHES = cache_config(request.getfixturevalue("redis_url"))
    cache.clear()
    return request.param


def test_each_key_there_is_kept_longer_and_said_to_be_there(shared_cache) -> None:
    cache.set("present", 1, 2)
    cache.set("also", 2, 2)

    assert touch_many(["present", "missing", "also"], 60) == [True, False, True]
    assert (cache.get("present"), cache.get("also"), cache.get("missing")) == (1, 2, None)
    assert "missing" not in cache  # a key that was not there is not made


def test_it_answers_as_touch_answers_key_by_key(shared_cache) -> None:
    for seconds in (60, None, 0):
        cache.set("present", 1, 2)
        cache.delete("missing")
        expected = [cache.touch("present", seconds), cache.touch("missing", seconds)]
        cache.set("present", 1, 2)
        assert touch_many(["present", "missing"], seconds) == expected, seconds
        assert ("present" in cache) == (seconds != 0), seconds  # 0: gone, as touch does


def test_no_keys_is_no_answer(shared_cache) -> None:
    assert touch_many([], 60) == []


def test_on_redis_the_time_to_live_is_the_one_touch_gives(redis_url, settings) -> None:
    settings.CACHES = cache_config(redis_url)
    cache.set("present", 1, 2)
    server = redis.Redis.from_url(redis_url)
    name = cache.make_and_validate_key("present")

    touch_many(["present"], 600)
    assert 590 < server.ttl(name) <= 600
    touch_many(["present"], None)
    assert server.ttl(name) == -1  # kept for ever


def test_on_redis_the_keys_go_to_the_server_the_cache_writes_to(redis_url, settings) -> None:
    settings.CACHES = cache_config(redis_url)
    # Django's Redis cache writes to the first server of LOCATION and may read from the others.
    settings.CACHES["default"]["LOCATION"] = f"{redis_url};redis://127.0.0.1:1/0"
    cache.set("present", 1, 2)

    assert touch_many(["present", "missing"], 60) == [True, False]


def test_a_count_starts_at_one_and_goes_up_by_one(shared_cache, time_machine) -> None:
    time_machine.move_to("2026-12-01 10:00:00+00:00", tick=False)
    cache.delete("window")
    assert [count("window", 60) for _ in range(3)] == [1, 2, 3]
    assert cache.get("window") == 3
    assert count("other", 60) == 1


def test_on_redis_a_count_is_one_round_trip_and_lives_from_its_first(redis_url, settings) -> None:
    settings.CACHES = cache_config(redis_url)
    cache.delete("window")
    server = redis.Redis.from_url(redis_url)
    name = cache.make_and_validate_key("window")
    before = server.info("stats")["total_commands_processed"]
    assert count("window", 65) == 1
    # SET and INCR, and the INFO that asks
    assert server.info("stats")["total_commands_processed"] - before == 3
    server.expire(name, 30)
    assert count("window", 65) == 2
    assert 25 < server.ttl(name) <= 30  # the window is not made longer
