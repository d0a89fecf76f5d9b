"""Quick match (games.services.quickmatch): entering and leaving the pools, and the waves that
seat their people."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import guests
from accounts.models import Sanction
from games.models import Game, PoolEntry, Rating, RatingMode, Seat, Table
from games.services import pairing, quickmatch, ratings
from games.services.errors import ServiceError
from tests.side_by_side import side_by_side

User = get_user_model()


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def waiting(user, pool: str = "duel-15", **options) -> PoolEntry:
    """``user`` in ``pool``, their pool page open."""
    entry = quickmatch.enter(user, pool, **options)
    quickmatch.page_opened(user)
    return entry


def test_entering_a_pool_keeps_the_rating_of_its_mode(alice) -> None:
    Rating.objects.create(
        user=alice, mode=RatingMode.DUEL, mu=30.0, sigma=5.0, updated_at=timezone.now()
    )

    duel = quickmatch.enter(alice, "duel-15")

    assert duel.pool == "duel-15"
    assert duel.rating == ratings.shown(30.0)
    assert quickmatch.enter(alice, "party-30").rating == ratings.SHOWN_BASE  # a newcomer there


def test_entering_a_second_pool_moves_the_person(alice) -> None:
    quickmatch.enter(alice, "duel-15")

    quickmatch.enter(alice, "party-30", bots_wanted=True)

    entry = PoolEntry.objects.get(user=alice)
    assert (entry.pool, entry.bots_wanted) == ("party-30", True)
    assert quickmatch.waiting_count("duel-15") == 0


def test_entering_the_same_pool_again_keeps_the_time_waited(alice) -> None:
    entered = timezone.now() - timedelta(seconds=40)
    quickmatch.enter(alice, "duel-15", now=entered)

    quickmatch.enter(alice, "duel-15", bots_wanted=True)

    entry = PoolEntry.objects.get(user=alice)
    assert entry.joined_at == entered
    assert entry.bots_wanted is True


def test_an_unknown_pool_is_refused(alice) -> None:
    with pytest.raises(ServiceError) as refused:
        quickmatch.enter(alice, "duel-3")

    assert refused.value.code == "bad_request"


def test_a_play_banned_person_cannot_enter_a_pool(alice) -> None:
    Sanction.objects.create(user=alice, kind="play_ban", reason="leaver")

    with pytest.raises(ServiceError) as refused:
        quickmatch.enter(alice, "duel-15")

    assert refused.value.code == "forbidden"
    assert not PoolEntry.objects.exists()


def test_a_banned_account_cannot_enter_a_pool(alice) -> None:
    alice.is_active = False  # what an account ban does (accounts.sanctions)

    with pytest.raises(ServiceError) as refused:
        quickmatch.enter(alice, "duel-15")

    assert refused.value.code == "forbidden"
    assert not PoolEntry.objects.exists()


def test_a_guest_cannot_enter_a_pool(db) -> None:
    with pytest.raises(ServiceError) as refused:
        quickmatch.enter(guests.create_guest(), "duel-15")

    assert refused.value.code == "forbidden"


def test_a_person_at_an_unfinished_table_cannot_enter_a_pool(make_table, alice) -> None:
    make_table()

    with pytest.raises(ServiceError) as refused:
        quickmatch.enter(alice, "duel-15")

    assert refused.value.code == "seated"
    assert not PoolEntry.objects.exists()


def test_leaving_takes_the_person_out_of_the_pool(alice) -> None:
    quickmatch.enter(alice, "duel-15")

    assert quickmatch.leave(alice) is True
    assert quickmatch.leave(alice) is False
    assert quickmatch.waiting_count("duel-15") == 0


# ---------------------------------------------------------------------------- a wave


def test_a_wave_seats_two_signed_up_people_at_a_rated_game_that_has_started(alice, bob) -> None:
    quickmatch.enter(alice, "duel-15")
    quickmatch.enter(bob, "duel-15")

    [table] = quickmatch.wave(later(1))

    assert table.status == Table.Status.PLAYING
    assert table.rated is True
    assert (table.seat_count, table.turn_seconds, table.tournament) == (2, 15, False)
    assert set(table.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
    assert Game.objects.filter(table=table, next_due__isnull=False).exists()
    assert not PoolEntry.objects.exists()


def test_the_tournament_pool_starts_a_game_of_stages(alice, bob, carol) -> None:
    for person in (alice, bob, carol):
        quickmatch.enter(person, "tournament")

    [table] = quickmatch.wave(later(1))

    assert table.tournament and table.game.tournament
    assert table.seats.count() == 3


def test_bots_fill_a_casual_table_for_someone_who_asked_after_the_wait(alice) -> None:
    waiting(alice, "party-30", bots_wanted=True)

    assert quickmatch.wave(later(pairing.BOTS_AFTER - 5)) == []
    [table] = quickmatch.wave(later(pairing.BOTS_AFTER + 1))

    assert table.status == Table.Status.PLAYING
    assert table.rated is False
    seats = list(table.seats.order_by("position"))
    assert [seat.user_id for seat in seats].count(alice.pk) == 1
    assert sum(1 for seat in seats if seat.bot) == 3


def test_a_second_wave_within_the_interval_does_nothing(alice, bob) -> None:
    now = later(1)
    assert quickmatch.wave(now) == []
    quickmatch.enter(alice, "duel-15")
    quickmatch.enter(bob, "duel-15")

    assert quickmatch.wave(now + timedelta(seconds=quickmatch.WAVE_SECONDS / 2)) == []
    assert len(quickmatch.wave(now + timedelta(seconds=quickmatch.WAVE_SECONDS))) == 1


def test_a_wave_seats_so_many_tables_a_pool_and_the_rest_wait_for_the_next(
    monkeypatch, django_user_model
) -> None:
    monkeypatch.setattr(quickmatch, "TABLES_PER_WAVE", 1)
    for n in range(4):
        waiting(django_user_model.objects.create_user(f"player{n}"))

    assert len(quickmatch.wave(later(1))) == 1
    assert quickmatch.waiting_count("duel-15") == 2
    assert len(quickmatch.wave(later(1 + quickmatch.WAVE_SECONDS))) == 1
    assert quickmatch.waiting_count("duel-15") == 0


def test_a_clock_asking_before_the_next_wave_is_due_writes_nothing(db) -> None:
    now = later(1)
    quickmatch.wave(now)  # takes the lease, pairs, gives the lease back

    with CaptureQueriesContext(connection) as queries:
        assert quickmatch.claim_wave(now + timedelta(seconds=1)) is False

    assert [query["sql"].split()[0] for query in queries] == ["SELECT"]


def test_a_group_one_of_whom_left_is_not_seated(alice, bob) -> None:
    first = quickmatch.enter(alice, "duel-15")
    second = quickmatch.enter(bob, "duel-15")
    quickmatch.leave(bob)

    table = quickmatch.seat_group(quickmatch.POOLS["duel-15"], pairing.Group((first.pk, second.pk)))

    assert table is None
    assert not Table.objects.exists()
    assert PoolEntry.objects.filter(user=alice).exists()


def test_someone_play_banned_while_waiting_leaves_the_pool_and_the_others_wait(alice, bob) -> None:
    quickmatch.enter(alice, "duel-15")
    quickmatch.enter(bob, "duel-15")
    Sanction.objects.create(user=bob, kind="play_ban", reason="leaver")

    assert quickmatch.wave(later(1)) == []

    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["alice"]


# ---------------------------------------------------------------------------- ghosts


def test_the_last_pool_page_closing_leaves_the_pool_after_the_grace(alice) -> None:
    quickmatch.enter(alice, "duel-15")
    now = timezone.now()
    quickmatch.page_opened(alice, now)
    quickmatch.page_opened(alice, now)  # a second tab
    quickmatch.page_closed(alice, now)

    assert quickmatch.reap(now + quickmatch.RECONNECT_GRACE * 2) == 0  # one tab still open

    quickmatch.page_closed(alice, now)
    assert quickmatch.reap(now + quickmatch.RECONNECT_GRACE / 2) == 0  # a reload keeps it
    assert quickmatch.reap(now + quickmatch.RECONNECT_GRACE * 2) == 1
    assert not PoolEntry.objects.exists()


def test_an_entry_whose_server_died_is_reaped_once_its_heartbeat_stops(alice, bob) -> None:
    now = timezone.now()
    quickmatch.enter(alice, "duel-15", now=now)
    quickmatch.enter(bob, "duel-15", now=now)
    quickmatch.page_opened(alice, now)
    quickmatch.page_opened(bob, now)
    quickmatch.pages_alive([bob.pk], now + quickmatch.LOST_AFTER)

    assert quickmatch.reap(now + quickmatch.LOST_AFTER + timedelta(seconds=1)) == 1
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_ghost_is_reaped_before_the_wave_pairs(alice, bob) -> None:
    now = timezone.now()
    quickmatch.enter(alice, "duel-15", now=now)
    quickmatch.enter(bob, "duel-15", now=now)
    quickmatch.page_opened(alice, now)  # bob's page never opened

    assert quickmatch.wave(now + quickmatch.RECONNECT_GRACE * 2) == []
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["alice"]


# ---------------------------------------------------------------------------- races


@pytest.mark.django_db(transaction=True)
def test_two_waves_racing_never_seat_one_person_twice() -> None:
    people = [User.objects.create_user(f"player{n}") for n in range(12)]
    now = timezone.now()
    for person in people:
        quickmatch.enter(person, "duel-15", now=now)
        quickmatch.page_opened(person, now)

    made = side_by_side(lambda: quickmatch.wave(now + timedelta(seconds=1)))

    assert sorted(len(tables) for tables in made) == [0, 6]
    seats = list(Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True))
    assert sorted(seats) == sorted(person.pk for person in people)
    assert not PoolEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_one_group_seated_by_two_clocks_at_once_gets_one_table() -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    group = pairing.Group(
        (quickmatch.enter(alice, "duel-15").pk, quickmatch.enter(bob, "duel-15").pk)
    )

    made = side_by_side(lambda: quickmatch.seat_group(quickmatch.POOLS["duel-15"], group))

    assert sum(table is not None for table in made) == 1
    assert Table.objects.count() == 1
    assert Seat.objects.filter(user=alice).count() == 1


def test_the_turn_based_pool_waits_with_its_page_closed_and_seats_a_turn_based_duel(
    alice, bob, carol, make_table
) -> None:
    make_table(host=carol, players=[alice], start=True)  # alice plays live meanwhile
    quickmatch.enter(alice, "duel-days")
    assert quickmatch.reap(later(3600)) == 0  # no page open, an hour on: still waiting
    quickmatch.enter(bob, "duel-days")

    [table] = quickmatch.wave(later(3601))

    assert (table.turn_days, table.turn_seconds, table.seat_count) == (3, None, 2)
    assert set(table.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
    assert quickmatch.POOLS["duel-days"].mode == RatingMode.TURN_BASED
    assert quickmatch.current_table(alice).turn_days is None  # her live table still hers


def test_a_turn_based_wait_ends_after_a_week(alice) -> None:
    quickmatch.enter(alice, "duel-days")
    assert quickmatch.reap(timezone.now() + quickmatch.SEEK_KEPT + timedelta(seconds=1)) == 1
