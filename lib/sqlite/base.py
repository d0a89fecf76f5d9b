"""Django's SQLite backend, with the process's writers waiting their turn in the process.

SQLite lets one connection write at a time. A transaction that finds the write lock taken
(``BEGIN IMMEDIATE``, see ``lib.env.SQLITE_SETUP``) is not woken when it is free: SQLite's
busy handler sleeps and tries again, longer each time, while other writers come and go. With
the moves on one database thread and the pages on threads of their own, that thread slept far
longer than the page writes it waited for, and every move of every table waited behind it
(docs/benchmarks.md, "No stalls").

So a connection here takes the process's lock on its database file before it begins a
transaction, and gives it back when the transaction ends: a writer of this process waits on a
lock that wakes it the moment the one before it commits. Writers of other processes on the same
file (``manage.py run_clock``) still meet SQLite's own lock and its busy handler.
"""

from __future__ import annotations

import sqlite3
import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

DEFAULT_TIMEOUT = 5.0  # seconds, as SQLite's own when OPTIONS has no "timeout"

_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def writers_lock(name: str) -> threading.Lock:
    """The lock of this process's writers to the database ``name`` (one per file)."""
    with _locks_lock:
        return _locks.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite, each transaction holding its database's :func:`writers_lock` from ``BEGIN`` to
    its end: committed, rolled back, or gone with its connection.

    Django's ``atomic()`` begins a transaction on SQLite with
    ``set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)`` (an explicit
    ``BEGIN``) and ends it with ``commit()``, ``rollback()`` or ``close()``: the connection's
    public methods, which this wraps (``tests/lib/test_sqlite.py`` checks that Django still
    goes through them). Whether the transaction is over is SQLite's to say
    (``sqlite3.Connection.in_transaction``).
    """

    _writing: threading.Lock | None = None

    def set_autocommit(
        self, autocommit: bool, force_begin_transaction_with_broken_autocommit: bool = False
    ) -> None:
        if autocommit or not force_begin_transaction_with_broken_autocommit:
            super().set_autocommit(autocommit, force_begin_transaction_with_broken_autocommit)
            return
        self._start_writing()  # before BEGIN, which takes SQLite's write lock
        try:
            super().set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        except BaseException:
            self._stop_writing()
            raise

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._stop_writing_when_over()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._stop_writing_when_over()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._stop_writing_when_over()

    def _start_writing(self) -> None:
        lock = writers_lock(str(self.settings_dict["NAME"]))
        timeout = self.settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT)
        if not lock.acquire(timeout=timeout):
            raise OperationalError("database is locked")
        self._writing = lock

    def _stop_writing_when_over(self) -> None:
        if self._writing is not None and not self._in_transaction():
            self._stop_writing()

    def _in_transaction(self) -> bool:
        """Whether this connection's SQLite transaction is still open."""
        try:
            return self.connection is not None and self.connection.in_transaction
        except sqlite3.ProgrammingError:  # closed: SQLite rolled the transaction back
            return False

    def _stop_writing(self) -> None:
        lock, self._writing = self._writing, None
        if lock is not None:
            lock.release()
