"""Work started at the same instant in several threads, as two clocks, two processes' waves or
two clicks would reach the database together."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def side_by_side[T](job: Callable[[], T], count: int = 2, timeout: float = 60) -> list[T]:
    """Run ``job`` in ``count`` threads released together; return what each returned, in the
    order they finished. Each thread gives its database connection back (a thread's connection
    is its own). Fails the test if any raised or did not finish in ``timeout`` seconds."""
    barrier = threading.Barrier(count)
    results: list[T] = []
    errors: list[BaseException] = []

    def one() -> None:
        barrier.wait()
        try:
            results.append(job())
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert errors == []
    assert len(results) == count, "a thread did not finish"
    return results
