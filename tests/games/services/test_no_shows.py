"""A matched player who never comes (games.services.no_shows): quick match's untimed table is
aborted for no one, and whoever came goes back to the head of the pool."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone

from games import clock
from games.models import Game, PoolEntry, RatingChange, Table
from games.services import moves, no_shows, presence, quickmatch, stats
from tests.play import matched
from tests.side_by_side import side_by_side

User = get_user_model()

pytestmark = pytest.mark.usefixtures("nobody_connected")


def after(table: Table, seconds: float):
    return table.created_at + timedelta(seconds=seconds)


def test_a_matched_untimed_table_that_a_player_never_opened_is_aborted_for_no_one(
    alice, bob
) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)

    assert no_shows.abort_no_shows(after(table, 31)) == [table.pk]

    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED and table.rated
    assert table.no_show == bob
    game = Game.objects.get(table=table)
    assert game.winner is None and game.next_due is None
    assert not RatingChange.objects.exists()


def test_the_player_who_came_goes_back_to_the_head_of_the_pool(alice, bob, carol) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    quickmatch.enter(carol, "duel-untimed", now=table.created_at - timedelta(minutes=1))

    no_shows.abort_no_shows(after(table, 31))

    entry = PoolEntry.objects.get(user=alice)
    assert entry.pool == "duel-untimed"
    assert entry.joined_at < PoolEntry.objects.get(user=carol).joined_at
    assert not PoolEntry.objects.filter(user=bob).exists()


def test_back_in_an_empty_pool_the_player_has_waited_since_the_match(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)

    no_shows.abort_no_shows(after(table, 31))

    assert PoolEntry.objects.get(user=alice).joined_at == table.created_at


def test_nothing_is_aborted_within_thirty_seconds_of_the_match(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)

    assert no_shows.abort_no_shows(after(table, 29)) == []
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_player_who_came_and_is_reloading_the_page_has_come(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    presence.socket_opened(table.pk, bob)
    presence.socket_closed(table.pk, bob)  # the page reloads: no socket for a moment

    assert no_shows.abort_no_shows(after(table, 31)) == []
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_player_who_has_played_has_come(alice, bob) -> None:
    table = matched(alice, bob)
    game = Game.objects.get(table=table)
    first = User.objects.get(username=game.players[game.first_player])
    other = bob if first == alice else alice
    presence.socket_opened(table.pk, other)
    moves.submit_action(table.pk, first, {"type": "draw", "version": 0})
    presence.socket_closed(table.pk, first)
    cache.delete(f"taki:arrived:{table.pk}:{first.pk}")  # forgotten by the cache: the move says

    assert no_shows.abort_no_shows(after(table, 31)) == []


def test_a_timed_matched_table_is_left_to_the_turn_clock(alice, bob) -> None:
    table = matched(alice, bob, pool="duel-15")
    presence.socket_opened(table.pk, alice)

    assert no_shows.abort_no_shows(after(table, 31)) == []


def test_a_table_nobody_came_to_is_left_to_the_abandon_rule(alice, bob) -> None:
    table = matched(alice, bob)

    assert no_shows.abort_no_shows(after(table, 31)) == []
    assert not PoolEntry.objects.exists()


def test_the_clock_aborts_the_table_on_its_tick(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    sweeping = clock.Clock()

    assert sweeping.sweep_no_shows(after(table, 31)) == [table.pk]
    assert sweeping.sweep_no_shows(after(table, 32)) == []  # looked a moment ago


@pytest.mark.django_db(transaction=True)  # as a process of its own: no test transaction around
def test_run_clock_aborts_the_table_a_matched_player_never_came_to(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(seconds=31))

    call_command("run_clock", "--once", stdout=io.StringIO())

    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    assert PoolEntry.objects.filter(user=alice).exists()


def test_an_aborted_no_show_is_not_counted_among_a_player_s_aborted_games(alice, bob) -> None:
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    no_shows.abort_no_shows(after(table, 31))

    assert stats.leaver_stats(alice)["aborted"] == 0
    assert stats.leaver_stats(bob)["aborted"] == 0


@pytest.mark.django_db(transaction=True)
def test_two_clocks_at_once_abort_the_table_once_and_put_the_player_back_once() -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    table = matched(alice, bob)
    presence.socket_opened(table.pk, alice)
    results = side_by_side(lambda: no_shows.abort_no_shows(after(table, 31)))

    assert sorted(results) == [[], [table.pk]]
    assert PoolEntry.objects.filter(user=alice).count() == 1
