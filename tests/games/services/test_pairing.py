"""Quick match's pairing (games.services.pairing): who plays whom in a wave."""

from __future__ import annotations

import random

import pytest

from games.services.pairing import BAND_GROWTH, BAND_START, BOTS_AFTER, Group, Waiting, band, pair


def people(*ratings: int, waited: float = 0.0, bots: bool = False) -> list[Waiting]:
    return [Waiting(index, rating, waited, bots) for index, rating in enumerate(ratings)]


def test_the_band_starts_narrow_and_widens_with_every_second_waited() -> None:
    assert band(0) == BAND_START
    assert band(30) == BAND_START + 30 * BAND_GROWTH
    assert band(60) > band(30) > band(0)


def test_two_close_ratings_are_paired_at_once() -> None:
    assert pair(people(1500, 1550), 2) == [Group((0, 1))]


def test_two_far_ratings_wait_until_the_band_has_widened_enough() -> None:
    gap = 400
    at_once = [Waiting(0, 1500, 0.0), Waiting(1, 1500 + gap, 0.0)]
    later = [Waiting(0, 1500, 31.0), Waiting(1, 1500 + gap, 2.0)]

    assert pair(at_once, 2) == []
    assert pair(later, 2) == [Group((0, 1))]


def test_the_closest_ratings_are_paired_together() -> None:
    groups = pair(people(1500, 1900, 1510, 1890), 2)

    assert {frozenset(group.entries) for group in groups} == {
        frozenset({0, 2}),
        frozenset({1, 3}),
    }


def test_the_longest_waiter_is_seated_first_with_their_nearest_rating() -> None:
    waiting = [Waiting(0, 1500, 1.0), Waiting(1, 1540, 50.0), Waiting(2, 1560, 2.0)]

    assert pair(waiting, 2) == [Group((1, 2))]


def test_groups_have_the_pools_size_and_the_odd_ones_out_wait() -> None:
    groups = pair(people(*range(1500, 1510)), 4)

    assert [len(group.entries) for group in groups] == [4, 4]
    assert all(group.bots == 0 for group in groups)


def test_no_one_is_seated_twice_in_a_wave_of_thousands() -> None:
    rng = random.Random(7)
    waiting = [
        Waiting(index, rng.randint(900, 2300), rng.uniform(0, 90), rng.random() < 0.3)
        for index in range(2000)
    ]

    groups = pair(waiting, 4)

    seated = [entry for group in groups for entry in group.entries]
    assert len(seated) == len(set(seated))
    assert all(len(group.entries) + group.bots == 4 for group in groups)
    assert len(seated) > 1500


def test_someone_who_asked_for_bots_gets_them_after_the_wait() -> None:
    alone = [Waiting(0, 1500, BOTS_AFTER + 1, bots_wanted=True)]

    assert pair(alone, 4) == [Group((0,), bots=3)]


def test_bots_wait_for_the_twenty_seconds_first() -> None:
    alone = [Waiting(0, 1500, BOTS_AFTER - 1, bots_wanted=True)]

    assert pair(alone, 2) == []


def test_bots_never_join_someone_who_did_not_ask_for_them() -> None:
    waiting = [Waiting(0, 1500, 200.0, bots_wanted=False)]

    assert pair(waiting, 2) == []


def test_a_bot_filled_table_takes_only_people_who_asked_for_bots() -> None:
    waiting = [
        Waiting(0, 1500, BOTS_AFTER + 5, bots_wanted=True),
        Waiting(1, 1510, 1.0, bots_wanted=False),
        Waiting(2, 1520, 1.0, bots_wanted=True),
    ]

    assert pair(waiting, 4) == [Group((0, 2), bots=2)]


def test_a_table_of_one_seat_is_refused() -> None:
    with pytest.raises(ValueError):
        pair(people(1500), 1)
