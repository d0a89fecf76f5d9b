"""Small helpers that turn environment variables into Django settings.

They are plain functions of their input so that tests can call them directly. Every bad value
raises ImproperlyConfigured: a typo in the environment must stop the site at start-up, not
quietly fall back to a default.
"""

from __future__ import annotations

import copy
import ipaddress
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
# Seconds a database connection is kept open for the next request or websocket message.
CONN_MAX_AGE = 600
# Keys the in-process cache holds (without REDIS_URL), a few per person at a table (presence,
# arrival) and per address trying to log in: past it, the least recently used third is dropped,
# expired keys first. Some tens of megabytes at most.
LOCAL_CACHE_ENTRIES = 100_000
# Connections to PostgreSQL per server process (a pool); keep processes x this under the
# server's max_connections.
DATABASE_POOL_SIZE = 10

# redis-py caps an async connection pool at 100 connections by default; a busy site opens more
# than that at once and consumers then die with "Too many connections".
REDIS_MAX_CONNECTIONS = 1000
# How many messages a channel may hold before the layer drops what is sent to it. Each server
# process hears of every table it has sockets at on one channel (games/live/table_hub.py), and on
# Redis all the channels of a process share one list: Channels' default of 100 is one socket's.
CHANNEL_CAPACITY = 2000


# Keys that have been public (in this repository's history): signing with one lets anyone forge
# sessions and messages, so they are refused wherever they come from.
PUBLIC_SECRET_KEYS = frozenset({"django-insecure-taki-online-development-key-not-for-servers"})


def secret_key(from_environment: str | None, path: Path) -> str:
    """SECRET_KEY: the environment's, or one made at random on first run and kept at ``path``.

    The file is created complete or not at all (written aside, then hard-linked into place,
    which fails if it exists), so processes starting at once all read the first one's key.

    :raises ImproperlyConfigured: for a known public key, or an empty key file.
    """
    if from_environment:
        if from_environment in PUBLIC_SECRET_KEYS:
            raise ImproperlyConfigured("SECRET_KEY is a published key: choose a new random one")
        return from_environment
    if not path.exists():
        _write_new_key(path)
    key = path.read_text().strip()
    if not key or key in PUBLIC_SECRET_KEYS:
        raise ImproperlyConfigured(f"The secret key file {path} is empty or public: delete it")
    return key


def _write_new_key(path: Path) -> None:
    descriptor, draft = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")  # mode 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(50) + "\n")
        os.link(draft, path)
    except FileExistsError:
        pass  # another process got there first: use its key
    finally:
        os.unlink(draft)


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no variable: 1/true/yes/on or 0/false/no/off, in any case.

    :raises ImproperlyConfigured: for any other value.
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    return parse_bool(name, raw)


def parse_bool(name: str, raw: str) -> bool:
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/true/yes or 0/false/no, not {raw!r}")


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Read a whole number, at least ``minimum``.

    :raises ImproperlyConfigured: for anything else ("10s", "-1", "1e3").
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    return parse_int(name, raw, minimum)


def parse_int(name: str, raw: str, minimum: int = 0) -> int:
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or int(text) < minimum:
        raise ImproperlyConfigured(
            f"{name} must be a whole number of at least {minimum}, not {raw!r}"
        )
    return int(text)


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated list, dropping blanks."""
    raw = os.environ.get(name, default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Read a comma-separated list of addresses or networks: ``10.0.0.5,192.168.0.0/24``.

    :raises ImproperlyConfigured: for an item that is neither.
    """
    networks = []
    for item in env_list(name, ""):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list addresses or networks like 10.0.0.5 or 10.0.0.0/24, not {item!r}"
            ) from None
    return networks


def env_origins(name: str) -> list[str]:
    """Read a comma-separated list of origins: ``https://host`` or ``http://host:port``.

    :raises ImproperlyConfigured: for an item that is not a bare http(s) origin (a path, a
        missing scheme or host), which Django would otherwise silently never match.
    """
    origins = env_list(name, "")
    for origin in origins:
        parts = urlsplit(origin)
        if (
            parts.scheme not in ("http", "https")
            or not parts.netloc
            or origin != (f"{parts.scheme}://{parts.netloc}")
        ):
            raise ImproperlyConfigured(
                f"{name} must list origins like https://taki.example, not {origin!r}"
            )
    return origins


def https_settings() -> dict[str, Any]:
    """The settings for serving over HTTPS, usually behind a proxy that ends TLS.

    All off by default, for `make run` on plain http://127.0.0.1:8000/.
    """
    behind_tls_proxy = env_bool("SECURE_PROXY_SSL_HEADER")
    return {
        "CSRF_TRUSTED_ORIGINS": env_origins("CSRF_TRUSTED_ORIGINS"),
        # Only with a proxy that always sets (or strips) X-Forwarded-Proto: otherwise a client
        # could send it and be taken for HTTPS.
        "SECURE_PROXY_SSL_HEADER": (
            ("HTTP_X_FORWARDED_PROTO", "https") if behind_tls_proxy else None
        ),
        "SECURE_SSL_REDIRECT": env_bool("SECURE_SSL_REDIRECT"),
        "SESSION_COOKIE_SECURE": env_bool("SESSION_COOKIE_SECURE"),
        "CSRF_COOKIE_SECURE": env_bool("CSRF_COOKIE_SECURE"),
        "SECURE_HSTS_SECONDS": env_int("SECURE_HSTS_SECONDS", 0),
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS"),
        "SECURE_HSTS_PRELOAD": env_bool("SECURE_HSTS_PRELOAD"),
    }


# SQLite has no row locks: select_for_update does nothing, and a second writer fails at once
# with "database is locked". IMMEDIATE transactions take the write lock at BEGIN and wait up to
# `timeout` seconds for it, so the moves of one game are applied one after the other; WAL lets
# pages be read while a move is written. The engine is Django's, except that the writers of one
# process wait their turn on a lock of the process, not in SQLite's busy handler
# (``lib.sqlite``).
SQLITE_SETUP: dict[str, Any] = {
    "ENGINE": "lib.sqlite",
    "OPTIONS": {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    },
    # The tests' database is in memory, as Django makes it for its own SQLite engine. Said
    # outright because the engine is not Django's: pytest-django would otherwise name a file
    # after NAME for each of its worker processes.
    "TEST": {"NAME": ":memory:"},
}


def _sqlite_setup() -> dict[str, Any]:
    return copy.deepcopy(SQLITE_SETUP)


def database_config(url: str | None, sqlite_path: os.PathLike[str] | str) -> dict[str, Any]:
    """The DATABASES["default"] entry: SQLite at sqlite_path, or what DATABASE_URL names.

    :raises ImproperlyConfigured: when the URL cannot be parsed or names an unknown engine.
    """
    if not url:
        return {
            "NAME": str(sqlite_path),
            # Channels closes the connection around every database_sync_to_async call unless
            # it may live on: opening SQLite again for every read is a large part of a move
            # (docs/benchmarks.md).
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
            **_sqlite_setup(),
        }
    try:
        config = dict(
            dj_database_url.parse(url, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
        )
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {error}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.update(_sqlite_setup())
    elif config["ENGINE"] == "django.db.backends.postgresql":
        config.update(_postgresql_pool())
    return config


def _postgresql_pool() -> dict[str, Any]:
    """PostgreSQL through a pool of connections per process (psycopg_pool, Django's "pool"
    option), instead of persistent connections.

    Daphne runs each HTTP request's database work in a thread of its own, and a persistent
    connection stays with its thread: under load a process opened a connection per request and
    kept it, until PostgreSQL refused more ("remaining connection slots are reserved"). A pool
    bounds them (``DATABASE_POOL_SIZE`` per process), and the connection Channels closes after
    each ``database_sync_to_async`` call goes back to it instead of being closed.
    """
    return {
        "CONN_MAX_AGE": 0,  # the pool keeps the connections
        "CONN_HEALTH_CHECKS": False,  # the pool only hands out healthy ones
        "OPTIONS": {
            "pool": {
                "min_size": 1,
                "max_size": env_int("DATABASE_POOL_SIZE", DATABASE_POOL_SIZE, minimum=1),
                "timeout": 20,  # seconds to wait for a free connection, as SQLite's lock
            }
        },
    }


# The channel layers a site on Redis may use (REDIS_CHANNEL_LAYER): Redis's pub/sub, or lists
# that hold each channel's messages until it reads them. Pub/sub carries a table's move for less
# CPU (docs/benchmarks.md); lists keep a message for a minute if its process is slow to read it,
# where pub/sub delivers to whoever listens at that instant.
REDIS_CHANNEL_LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "lists": "channels_redis.core.RedisChannelLayer",
}


def channel_layers_config(url: str | None, kind: str = "pubsub") -> dict[str, Any]:
    """CHANNEL_LAYERS: in memory for one process, or Redis when REDIS_URL is set, with its
    pub/sub (``kind`` "pubsub", the default) or its lists ("lists").

    The in-memory layer only reaches consumers in the same process, so any deployment with more
    than one server process needs REDIS_URL. Each process hears of every table it has sockets
    at on one channel (``games.live.table_hub``), given room for a burst of messages
    (``CHANNEL_CAPACITY``): the in-memory and list layers drop what a full channel cannot take.

    :raises ImproperlyConfigured: when the URL is not a redis://, rediss:// or unix:// URL, or
        ``kind`` is not a known layer.
    """
    if not url:
        return {
            "default": {
                "BACKEND": "lib.channel_layers.PacedInMemoryChannelLayer",
                "CONFIG": {"capacity": CHANNEL_CAPACITY},
            }
        }
    _check_redis_url(url)
    if kind not in REDIS_CHANNEL_LAYERS:
        raise ImproperlyConfigured(
            f"REDIS_CHANNEL_LAYER must be one of {', '.join(REDIS_CHANNEL_LAYERS)}, not {kind!r}"
        )
    host = {
        "address": url,
        "max_connections": REDIS_MAX_CONNECTIONS,
        # channels-redis's list layer waits for messages with blocking reads (BZPOPMIN) of about
        # 5 s; redis-py's 5 s read timeout can end one first, and the idle socket's consumer
        # then dies. Blocking reads carry their own timeout.
        "socket_timeout": None,
    }
    config: dict[str, Any] = {"hosts": [host]}
    if kind == "lists":
        config["capacity"] = CHANNEL_CAPACITY
    return {"default": {"BACKEND": REDIS_CHANNEL_LAYERS[kind], "CONFIG": config}}


def cache_config(url: str | None) -> dict[str, Any]:
    """CACHES: in this process's memory, or the same Redis as the channel layer.

    The cache holds who is connected to a table and the count of failed log-ins, which every
    server process must share once there are several (REDIS_URL set).

    :raises ImproperlyConfigured: when the URL is not a redis://, rediss:// or unix:// URL.
    """
    if not url:
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                # Django's in-process cache holds 300 keys by default and then drops a third of
                # them: with more than about a hundred people at tables, people still there
                # were shown offline and their tables' seats drawn again at every refresh.
                "OPTIONS": {"MAX_ENTRIES": LOCAL_CACHE_ENTRIES},
            }
        }
    _check_redis_url(url)
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "taki",
        }
    }


def _check_redis_url(url: str) -> None:
    if not url.startswith(REDIS_SCHEMES):
        raise ImproperlyConfigured(
            f"REDIS_URL must start with one of {', '.join(REDIS_SCHEMES)}, not {url!r}"
        )


def email_settings() -> dict[str, Any]:
    """Django's e-mail settings from the environment (MAILERS): SMTP through EMAIL_HOST
    (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or EMAIL_USE_SSL,
    EMAIL_TIMEOUT) when it is set, else the console (each e-mail written to the process's
    output); DEFAULT_FROM_EMAIL either way.

    :raises ImproperlyConfigured: for TLS and SSL both on, or a port that is no number.
    """
    sender = os.environ.get("DEFAULT_FROM_EMAIL", "Taki Online <taki@localhost>")
    host = os.environ.get("EMAIL_HOST", "").strip()
    if not host:
        console = {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
        return {"DEFAULT_FROM_EMAIL": sender, "MAILERS": {"default": console}}
    use_ssl = env_bool("EMAIL_USE_SSL")
    use_tls = env_bool("EMAIL_USE_TLS", default=not use_ssl)
    if use_tls and use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on")
    options = {
        "host": host,
        "port": env_int("EMAIL_PORT", 465 if use_ssl else 587, minimum=1),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": use_tls,
        "use_ssl": use_ssl,
        "timeout": env_int("EMAIL_TIMEOUT", 10, minimum=1),
    }
    smtp = {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": options}
    return {"DEFAULT_FROM_EMAIL": sender, "MAILERS": {"default": smtp}}
