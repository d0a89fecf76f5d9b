"""SQLite's writers in one process take turns on the process's lock (``lib.sqlite``):
none of them meets SQLite's busy handler, which sleeps and polls instead of waiting its turn."""

from __future__ import annotations

import inspect
import threading

import pytest
from django.db import OperationalError, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as DjangosSQLite
from django.db.utils import ConnectionHandler

from lib.env import database_config
from lib.sqlite.base import writers_lock


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """Connections, one per thread, to a fresh SQLite file with a table of moves. SQLite's own
    busy handler is off (``busy_timeout = 0``): a writer that met the write lock taken would
    fail at once, so one that succeeds waited on the process's lock."""
    config = database_config(None, tmp_path / "db.sqlite3")
    handler = ConnectionHandler({"default": config})

    def connect():
        connection = handler["default"]
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout = 0")
        return connection

    with django_db_blocker.unblock():  # a database of the test's own, not the site's
        with connect().cursor() as cursor:
            cursor.execute("CREATE TABLE moves (writer TEXT)")
        yield connect
        handler.close_all()


def begin(connection) -> None:
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def write(connection, writer: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO moves VALUES (%s)", [writer])


def end(connection) -> None:
    connection.commit()
    connection.set_autocommit(True)


def test_a_second_writer_waits_for_the_first_to_commit_instead_of_failing(database) -> None:
    first = database()
    begin(first)
    write(first, "first")
    trying, outcome = threading.Event(), []

    def second() -> None:
        connection = database()
        trying.set()
        try:
            begin(connection)
            write(connection, "second")
            end(connection)
            outcome.append("written")
        except OperationalError as error:
            outcome.append(str(error))
        finally:
            connection.close()

    thread = threading.Thread(target=second)
    thread.start()
    trying.wait(5)
    thread.join(0.3)  # it is waiting: it has neither written nor failed
    assert outcome == []
    end(first)
    thread.join(5)

    assert outcome == ["written"]
    with first.cursor() as cursor:
        cursor.execute("SELECT writer FROM moves")
        assert [row[0] for row in cursor.fetchall()] == ["first", "second"]


def test_a_writer_that_rolls_back_or_closes_gives_the_lock_back(database, tmp_path) -> None:
    lock = writers_lock(str(tmp_path / "db.sqlite3"))
    connection = database()

    begin(connection)
    assert lock.locked()
    connection.rollback()
    connection.set_autocommit(True)
    assert not lock.locked()

    begin(connection)
    connection.close()  # SQLite rolls the transaction back
    assert not lock.locked()


def test_a_writer_kept_waiting_past_the_timeout_is_told_the_database_is_locked(
    database, tmp_path
) -> None:
    connection = database()
    connection.settings_dict["OPTIONS"]["timeout"] = 0.1
    lock = writers_lock(str(tmp_path / "db.sqlite3"))
    lock.acquire()  # another writer of the process, which does not finish
    try:
        with pytest.raises(OperationalError, match="database is locked"):
            begin(connection)
    finally:
        lock.release()
    begin(connection)  # and the lock is free for the next
    end(connection)


# What lib/sqlite leans on: Django begins and ends SQLite's transactions through the
# connection's public methods that lib/sqlite/base.py wraps. If Django changes that, these fail.
CHANGED = "Django's SQLite backend changed under lib/sqlite/base.py, which wraps these methods"


def test_django_s_sqlite_connection_still_has_the_methods_wrapped_with_their_arguments() -> None:
    signature = inspect.signature(DjangosSQLite.set_autocommit)
    assert list(signature.parameters) == [
        "self",
        "autocommit",
        "force_begin_transaction_with_broken_autocommit",
    ], CHANGED
    for name in ("commit", "rollback", "close"):
        assert list(inspect.signature(getattr(DjangosSQLite, name)).parameters) == ["self"], CHANGED


def test_atomic_begins_and_ends_its_transaction_through_them(
    database, tmp_path, monkeypatch
) -> None:
    connection = database()
    lock = writers_lock(str(tmp_path / "db.sqlite3"))
    monkeypatch.setattr(transaction, "get_connection", lambda using=None: connection)

    with transaction.atomic():
        assert lock.locked(), f"{CHANGED}: atomic() began without set_autocommit"
        write(connection, "committed")
    assert not lock.locked(), f"{CHANGED}: atomic() committed without commit()"

    with pytest.raises(ValueError), transaction.atomic():
        write(connection, "rolled back")
        raise ValueError("the move was refused")
    assert not lock.locked(), f"{CHANGED}: atomic() rolled back without rollback()"

    with transaction.atomic():
        assert lock.locked()
        connection.close()  # SQLite rolls the transaction back
    assert not lock.locked(), f"{CHANGED}: a connection closed in atomic() kept its turn"

    with database().cursor() as cursor:
        cursor.execute("SELECT writer FROM moves")
        assert [row[0] for row in cursor.fetchall()] == ["committed"]
