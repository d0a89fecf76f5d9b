"""Untimed tables whose people have all gone are ended and marked abandoned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import clock
from games.models import Game, Table
from games.services import abandon, presence, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nobody_connected")]


@pytest.fixture
def quiet_table(alice, bob, make_table) -> Table:
    """An untimed game between alice and bob, nothing played for an hour."""
    table = make_table(players=[bob], start=True, turn_seconds=None)
    Game.objects.filter(table=table).update(started_at=timezone.now() - timedelta(hours=1))
    return table


def status_of(table: Table) -> str:
    table.refresh_from_db()
    return table.status


def test_an_untimed_table_nobody_has_open_is_ended_as_abandoned(quiet_table) -> None:
    assert abandon.end_abandoned() == [quiet_table.pk]

    assert status_of(quiet_table) == Table.Status.ABANDONED
    game = Game.objects.get(table=quiet_table)
    assert (game.next_due, game.turn_deadline, game.winner) == (None, None, None)


def test_a_table_someone_has_open_goes_on(quiet_table, bob) -> None:
    presence.socket_opened(quiet_table.pk, bob)

    assert abandon.end_abandoned() == []
    assert status_of(quiet_table) == Table.Status.PLAYING


def test_a_table_played_on_recently_goes_on(alice, bob, make_table) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)

    assert abandon.end_abandoned() == []
    assert status_of(table) == Table.Status.PLAYING


def test_a_timed_table_is_left_to_its_clock(alice, bob, make_table) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=30)
    Game.objects.filter(table=table).update(started_at=timezone.now() - timedelta(hours=1))

    assert abandon.end_abandoned() == []
    assert status_of(table) == Table.Status.PLAYING


def test_the_clock_sweeps_for_abandoned_tables(quiet_table) -> None:
    sweeping = clock.Clock()

    assert sweeping.sweep_abandoned() == [quiet_table.pk]
    # Not again before ABANDON_SWEEP seconds have passed.
    assert sweeping.sweep_abandoned() == []


def test_everyone_leaving_ends_the_game_as_abandoned(quiet_table, alice, bob, client) -> None:
    tables.leave_table(quiet_table.pk, alice)
    assert status_of(quiet_table) == Table.Status.PLAYING
    tables.leave_table(quiet_table.pk, bob)

    assert status_of(quiet_table) == Table.Status.ABANDONED
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[quiet_table.pk])).content.decode()
    assert "This game was abandoned: its players all left." in page
