import pytest
from django.core.exceptions import ImproperlyConfigured

from lib.env import (
    REDIS_MAX_CONNECTIONS,
    cache_config,
    channel_layers_config,
    database_config,
    env_bool,
    env_int,
    env_list,
)


def test_it_uses_sqlite_when_database_url_is_unset(tmp_path) -> None:
    config = database_config(None, tmp_path / "db.sqlite3")

    assert config["ENGINE"] == "lib.sqlite"  # Django's, its writers queued in the process
    assert config["NAME"] == str(tmp_path / "db.sqlite3")


def test_sqlite_transactions_take_the_write_lock_at_once_and_wait_for_it(tmp_path) -> None:
    # SQLite has no row locks; IMMEDIATE + a timeout serialise the writers of one game.
    for config in (
        database_config(None, tmp_path / "db.sqlite3"),
        database_config(f"sqlite:///{tmp_path / 'other.sqlite3'}", tmp_path / "x"),
    ):
        assert config["ENGINE"] == "lib.sqlite"
        assert config["TEST"]["NAME"] == ":memory:"  # one per test process, as with Django's
        assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        assert config["OPTIONS"]["timeout"] >= 10
        assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_it_reads_a_postgres_database_url(tmp_path) -> None:
    config = database_config("postgres://taki:s3cret@db.internal:5433/taki", tmp_path / "x")

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "taki"
    assert config["USER"] == "taki"
    assert config["PASSWORD"] == "s3cret"
    assert config["HOST"] == "db.internal"
    assert config["PORT"] == 5433
    # A pool per process, not a persistent connection per thread (Daphne runs each request in
    # a thread of its own, so those pile up until PostgreSQL refuses more).
    assert config["CONN_MAX_AGE"] == 0
    assert config["OPTIONS"]["pool"]["max_size"] == 10


def test_the_postgres_pool_size_is_a_setting(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_POOL_SIZE", "4")
    config = database_config("postgres://taki@db.internal/taki", tmp_path / "x")
    assert config["OPTIONS"]["pool"]["max_size"] == 4
    monkeypatch.setenv("DATABASE_POOL_SIZE", "zero")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE"):
        database_config("postgres://taki@db.internal/taki", tmp_path / "x")


def test_it_rejects_a_database_url_with_an_unknown_scheme(tmp_path) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_config("mongodb://localhost/taki", tmp_path / "x")


def test_it_rejects_a_database_url_that_does_not_parse(tmp_path) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_config("postgres://localhost:notaport/taki", tmp_path / "x")


def test_it_uses_the_in_memory_layer_when_redis_url_is_unset() -> None:
    assert channel_layers_config(None) == {
        "default": {
            "BACKEND": "lib.channel_layers.PacedInMemoryChannelLayer",
            "CONFIG": {"capacity": 2000},
        }
    }


def test_it_uses_redis_s_pub_sub_with_a_large_pool_when_redis_url_is_set() -> None:
    assert channel_layers_config("redis://127.0.0.1:6379/1") == {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": "redis://127.0.0.1:6379/1",
                        "max_connections": 1000,
                        "socket_timeout": None,
                    },
                ],
            },
        }
    }
    assert REDIS_MAX_CONNECTIONS > 100  # redis-py's async default, too small under load


def test_it_uses_redis_s_lists_with_a_channel_capacity_when_asked() -> None:
    config = channel_layers_config("redis://127.0.0.1:6379/1", "lists")["default"]

    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert config["CONFIG"]["capacity"] == 2000


def test_it_rejects_a_channel_layer_it_does_not_know() -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_CHANNEL_LAYER"):
        channel_layers_config("redis://127.0.0.1:6379/1", "kafka")


def test_it_rejects_a_redis_url_that_is_not_redis() -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        channel_layers_config("http://127.0.0.1:6379")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("YES", True), ("0", False), ("false", False), ("no", False)],
)
def test_it_reads_yes_and_no_words(monkeypatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("DEBUG", raw)

    assert env_bool("DEBUG") is expected


def test_it_falls_back_to_the_default_when_a_flag_is_unset(monkeypatch) -> None:
    monkeypatch.delenv("DEBUG", raising=False)

    assert env_bool("DEBUG", default=True) is True


def test_it_rejects_a_flag_that_is_neither_yes_nor_no(monkeypatch) -> None:
    monkeypatch.setenv("DEBUG", "maybe")

    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG")


def test_it_splits_a_comma_separated_list(monkeypatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " taki.example , ,localhost")

    assert env_list("ALLOWED_HOSTS", "ignored") == ["taki.example", "localhost"]


def test_the_cache_is_local_without_redis_and_shared_with_it() -> None:
    assert cache_config(None)["default"]["BACKEND"].endswith("LocMemCache")
    shared = cache_config("redis://127.0.0.1:6379/0")["default"]
    assert shared["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert shared["LOCATION"] == "redis://127.0.0.1:6379/0"


def test_a_cache_url_that_is_not_redis_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured):
        cache_config("memcached://127.0.0.1:11211")


def test_it_reads_a_whole_number(monkeypatch) -> None:
    monkeypatch.setenv("SIGNUPS_PER_ADDRESS_PER_HOUR", " 25 ")

    assert env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 10, minimum=1) == 25


@pytest.mark.parametrize("raw", ["", "ten", "10s", "-1", "0", "1e3", "٣"])
def test_it_rejects_a_number_that_is_not_a_whole_number_in_range(monkeypatch, raw: str) -> None:
    monkeypatch.setenv("SIGNUPS_PER_ADDRESS_PER_HOUR", raw)

    with pytest.raises(ImproperlyConfigured, match="SIGNUPS_PER_ADDRESS_PER_HOUR"):
        env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 10, minimum=1)
