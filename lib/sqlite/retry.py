"""A transaction that SQLite refused for a lock another connection held, run again."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import OperationalError, connection

# Times a transaction is tried before SQLite's refusal is the answer.
ATTEMPTS = 10


def retried_while_locked[T](work: Callable[[], T], attempts: int = ATTEMPTS) -> T:
    """Run ``work``, one transaction, and run it again if SQLite refused it for a lock.

    SQLite has no row locks (``select_for_update`` does nothing there). A second transaction
    writing the same rows waits for the first up to the busy timeout, then fails with "database
    is locked"; on a shared-cache database (the tests' in-memory one) any statement touching a
    table another connection is writing fails at once with "database table is locked". Run
    again, ``work`` sees what the first one committed. Other databases' errors, and a refusal
    inside a transaction that is still open (which only its outermost caller can run again),
    are raised as they are.
    """
    for attempt in range(attempts):
        try:
            return work()
        except OperationalError as exc:
            retry = (
                connection.vendor == "sqlite"
                and not connection.in_atomic_block
                and "locked" in str(exc)
                and attempt + 1 < attempts
            )
            if not retry:
                raise
        time.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")
