"""The end of a table quick match aborted because a matched player never came, as each of its
people and its spectators see it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import presenters
from games.models import Table
from games.services import no_shows, presence
from tests.play import matched

pytestmark = pytest.mark.usefixtures("nobody_connected")


@pytest.fixture
def aborted(alice, bob) -> Table:
    """alice and bob matched in the untimed duel pool; alice came, bob never did."""
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    no_shows.abort_no_shows(table.created_at + timedelta(seconds=31))
    return table


def drawn(table: Table, user) -> str:
    return presenters.table_fragments(presenters.read_table(table.pk), user)


def test_the_one_who_came_is_told_why_and_sent_back_to_the_pool(aborted, alice) -> None:
    html = drawn(aborted, alice)

    assert "bob never came to the table: the game was aborted." in html
    assert "It counts for no one" in html
    assert "You are back at the head of the pool." in html
    assert f'hx-get="{reverse("games:pool")}"' in html


def test_the_one_who_never_came_is_told_they_did_not_come(aborted, bob) -> None:
    html = drawn(aborted, bob)

    assert "You did not come to the table in time" in html
    assert "head of the pool" not in html and "hx-get" not in html


def test_a_spectator_is_told_who_never_came_and_is_sent_nowhere(aborted, carol) -> None:
    html = drawn(aborted, carol)

    assert "bob never came to the table" in html
    assert "hx-get" not in html
