"""A transaction SQLite refused for a lock is run again (``lib.sqlite.retry``)."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection, transaction

from lib.sqlite.retry import retried_while_locked

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's refusals only")


def refused(times: int, message: str = "database is locked"):
    tries: list[int] = []

    def work() -> str:
        tries.append(1)
        if len(tries) <= times:
            raise OperationalError(message)
        return "done"

    return work, tries


def test_a_transaction_refused_for_a_lock_is_run_again_until_it_goes_through() -> None:
    work, tries = refused(2)

    assert retried_while_locked(work) == "done"
    assert len(tries) == 3


def test_it_gives_up_after_its_attempts_with_sqlite_s_refusal() -> None:
    work, tries = refused(5)

    with pytest.raises(OperationalError, match="locked"):
        retried_while_locked(work, attempts=3)
    assert len(tries) == 3


def test_any_other_error_is_raised_at_once() -> None:
    work, tries = refused(1, "no such table: games_game")

    with pytest.raises(OperationalError, match="no such table"):
        retried_while_locked(work)
    assert len(tries) == 1


@pytest.mark.django_db
def test_inside_an_open_transaction_it_is_the_outermost_caller_s_to_run_again() -> None:
    work, tries = refused(1)

    with transaction.atomic(), pytest.raises(OperationalError):
        retried_while_locked(work)
    assert len(tries) == 1
