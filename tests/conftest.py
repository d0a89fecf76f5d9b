"""Shared fixtures for the whole suite: players with different roles, a table factory, rigged
deals, a Redis server of the tests' own. Browser fixtures live in e2e/conftest.py."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings as site_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone, translation

from games.engine import GameState, deck_codes
from games.live.transports import ChannelLayerTransport
from games.models import Game, Table
from games.services import broadcast, moves, tables
from games.services.changes import TableChange
from tests import workers

# The tests draw pages without collecting the static files first: {% static %} names each file
# by its own name, as with DEBUG on. The site's storage, which names them after their contents
# from collectstatic's manifest, is tested on its own (tests/taki_site/test_static_files.py),
# and the browser tests' servers collect and use it.
STATIC_FILES_BY_THEIR_NAMES = {
    **site_settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


def pytest_configure(config: pytest.Config) -> None:
    """The static files by their own names. Under pytest-xdist each worker process has a test
    database of its own, which pytest-django names after it; with REDIS_URL, a Redis database
    and channel prefix of its own (``tests/workers.py``)."""
    from django.test import override_settings

    override_settings(STORAGES=STATIC_FILES_BY_THEIR_NAMES).enable()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and "redis" in site_settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        override_settings(
            **workers.redis_of_its_own(worker, site_settings.CACHES, site_settings.CHANNEL_LAYERS)
        ).enable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API keeps an event loop running in the main thread
    from its first test to the end of the session, and no asyncio test can run beside it."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


@pytest.fixture(autouse=True)
def no_language_left_active() -> Iterator[None]:
    """Each test starts in the default language. Django's LocaleMiddleware activates the
    visitor's language for a request made with the test client and leaves it active in the
    thread, where a later test would draw in it."""
    yield
    translation.deactivate()


def connections_lent_out() -> int | None:
    """How many connections the PostgreSQL pool has lent out now, or None without a pool.

    Only a pool that exists already is asked: made before the test database, it would connect
    to the site's own database instead.
    """
    database = connections[DEFAULT_DB_ALIAS]
    pool = getattr(type(database), "_connection_pools", {}).get(database.alias)
    if pool is None:
        return None
    stats = pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


@pytest.fixture(autouse=True)
def every_pooled_connection_given_back() -> Iterator[None]:
    """On PostgreSQL, a test leaves no connection lent out by the pool but its own thread's.

    A thread that uses the database and ends without ``connection.close()`` keeps its pooled
    connection for good: the pool (DATABASE_POOL_SIZE) runs dry and every later test waits 20 s
    for a connection. A socket's call still finishing in Channels' thread is waited for.
    """
    yield
    # Django's async ORM (aget, acount…) runs in asgiref's shared thread and leaves its connection
    # there until that thread's next database_sync_to_async call: end it now.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)
    deadline = time.monotonic() + 2
    while True:
        lent = connections_lent_out()
        if lent is None:
            return
        own = 1 if connections[DEFAULT_DB_ALIAS].connection is not None else 0
        if lent <= own:
            return
        if time.monotonic() > deadline:
            pytest.fail(
                f"{lent - own} pooled database connection(s) not given back: a thread that "
                "uses the database must call connection.close() before it ends"
            )
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def services_tell_the_channel_layer() -> Iterator[None]:
    """Each test starts with the services sending straight to the channel layer, as a process
    with no live side of its own does: a socket test's live side gave them its hub
    (``games.live.server``), whose event loop closes with that test."""
    broadcast.serve_through(ChannelLayerTransport())
    yield
    broadcast.serve_through(ChannelLayerTransport())


class Recording:
    """A transport that keeps what the services tell it, then passes it on to ``then`` (the
    transport there was): ``sent`` the group messages, ``changes`` the moves' changes."""

    def __init__(self, then: broadcast.Transport) -> None:
        self.then = then
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.changes: list[TableChange] = []

    def send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))
        self.then.send(group, message)

    def move_stored(self, change: TableChange) -> bool:
        self.changes.append(change)
        return self.then.move_stored(change)

    def messages(self) -> list[dict[str, Any]]:
        return [message for _group, message in self.sent]


@pytest.fixture
def told() -> Iterator[Recording]:
    """What the services tell the sockets during the test (sent after commit), kept."""
    recording = Recording(broadcast.transport())
    before = broadcast.serve_through(recording)
    yield recording
    broadcast.serve_through(before)


@pytest.fixture(autouse=True)
def cache_emptied_after_each_test() -> Iterator[None]:
    """With REDIS_URL the cache outlives a test: who was at a table, the failed log-ins. Each
    test starts with none, as with the in-memory cache of a fresh process."""
    yield
    from django.core.cache import caches

    if type(caches["default"]).__module__ == "django.core.cache.backends.redis":
        caches["default"].clear()


@pytest.fixture(autouse=True)
def a_redis_channel_layer_of_its_own() -> Iterator[None]:
    """With REDIS_URL, each test gets a channel layer of its own: the layer's connections and
    locks belong to the event loop that made them, and each async test has a loop of its own."""
    yield
    from channels.layers import channel_layers

    if "redis" in site_settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        channel_layers.backends.clear()


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> Iterator[str]:
    """A redis-server of the test's own, bound to 127.0.0.1 on a free port, saving nothing.

    `make test` installs redis-server; without it these tests skip on a developer's machine and
    fail under CI, where a skip would hide a broken setup.
    """
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed: run `make test` as root")
        pytest.skip("redis-server is not installed")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)


User = get_user_model()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """The users below get real passwords; a fast hasher keeps their creation quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db) -> AbstractBaseUser:
    """A player; the host of the tables ``make_table`` opens."""
    return User.objects.create_user("alice", password="alice-password-1")


@pytest.fixture
def bob(db) -> AbstractBaseUser:
    return User.objects.create_user("bob", password="bob-password-1")


@pytest.fixture
def carol(db) -> AbstractBaseUser:
    return User.objects.create_user("carol", password="carol-password-1")


@pytest.fixture
def moderator(db) -> AbstractBaseUser:
    """Staff with the games' admin permissions, as a site moderator."""
    return User.objects.create_superuser("moderator", password="moderator-password-1")


@pytest.fixture
def make_table(alice) -> Callable[..., Table]:
    """Open a table through the services: ``make_table(seat_count=3, players=[bob])`` seats the
    given users after the host; ``start=True`` starts the game. Other keywords go to
    ``tables.create_table``."""

    def make(
        *,
        host: AbstractBaseUser | None = None,
        players: list[AbstractBaseUser] = (),  # type: ignore[assignment]
        start: bool = False,
        **options: Any,
    ) -> Table:
        host = host or alice
        options.setdefault("name", "Friday game")
        options.setdefault("seat_count", 2)
        table = tables.create_table(host, **options)
        for player in players:
            tables.join_table(table.pk, player, invite=table.invite_token)
        if start:
            tables.start_game(table.pk, host)
        table.refresh_from_db()
        return table

    return make


def rigged_deck(hands: list[list[str]], leading: str = "red:5") -> list[str]:
    """A full deck that deals ``hands`` (eight codes each, R4) and turns ``leading`` up; the
    draw pile then holds the other cards in ``deck_codes()`` order."""
    rest = deck_codes()
    for code in [*chain.from_iterable(hands), leading]:
        rest.remove(code)
    players = len(hands)
    dealt = [hands[seat][index] for index in range(8) for seat in range(players)]
    return dealt + [leading] + rest


@pytest.fixture
def rig() -> Callable[..., Game]:
    """Give a started table's game chosen hands: ``rig(table, hands, leading, first_player)``.

    Replaces the header and snapshot of a game that has no move yet, and schedules it afresh
    as ``start_game`` would (deadline or bot move from now).
    """

    def rig_game(
        table: Table, hands: list[list[str]], leading: str = "red:5", first_player: int = 0
    ) -> Game:
        game = Game.objects.get(table=table)
        assert game.version == 0, "rig a game before its first move"
        game.deck = rigged_deck(hands, leading)
        game.first_player = first_player
        engine = GameState(game.deck, len(hands), first_player, game.seed, game.tournament)
        game.state = engine.to_snapshot()
        moves.schedule(game, engine, timezone.now())
        game.save()
        return game

    return rig_game


@pytest.fixture
def counted_reads(monkeypatch) -> list[int]:
    """The tables read back from the database (``presenters.read_table``), by any socket or hub."""
    from games import presenters

    read_table = presenters.read_table
    reads: list[int] = []

    def counted(table_id: int):
        reads.append(table_id)
        return read_table(table_id)

    monkeypatch.setattr(presenters, "read_table", counted)
    return reads


@pytest.fixture
def game_table(make_table, bob) -> Table:
    """A started untimed table of alice (its host) and bob."""
    return make_table(players=[bob], turn_seconds=None, start=True)


@pytest.fixture
def nobody_connected() -> Iterator[None]:
    """No socket's presence left in the cache by another test: every seat reads offline."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def states(monkeypatch) -> list[TableChange]:
    """The changes the move path hands to the broadcast (``broadcast.table_changed``), in order,
    as it calls it: in the test's transaction, before the commit that would send them."""
    seen: list[TableChange] = []
    table_changed = broadcast.table_changed

    def keep(table_id, version=None, change=None):
        if change is not None:
            seen.append(change)
        table_changed(table_id, version, change)

    monkeypatch.setattr(broadcast, "table_changed", keep)
    return seen
