"""The arena's points (arenas.scoring), one test per rule of docs/playing.md."""

from __future__ import annotations

import pytest

from arenas.scoring import Scored, half, place_points, score
from games.services.ratings import ranking


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([0, 1], [1, 0]),
        ([1, 0, 2], [1, 2, 0]),
        ([0, 1, 2, 3], [3, 2, 1, 0]),
        ([3, 2, 1, 0, 4, 5], [2, 3, 4, 5, 1, 0]),
    ],
)
def test_points_by_place_k_minus_one_for_the_winner_down_to_zero(ranks, expected) -> None:
    assert [place_points(ranks, seat) for seat in range(len(ranks))] == expected


def test_points_by_place_r22_ties_score_alike() -> None:
    # R22: seats 1 and 2 on the same stage with as many cards tie behind the winner.
    ranks = ranking(cards=[0, 3, 3, 5], winner=0, left=[], stages=[1, 2, 2, 2])
    assert ranks == [0, 1, 1, 2]
    assert [place_points(ranks, seat) for seat in range(4)] == [3, 1, 1, 0]
    # A lower stage beats more cards: seat 3 on stage 1 ranks before those on stage 2.
    ranks = ranking(cards=[0, 3, 3, 5], winner=0, left=[], stages=[1, 2, 2, 1])
    assert [place_points(ranks, seat) for seat in range(4)] == [3, 0, 0, 2]


def test_leavers_score_zero_whatever_their_seat_did_after() -> None:
    # Seat 1 left; the bot in its seat won: the leaver still scores nothing.
    assert score([0, 1, 2], 0, streak=3, left=True) == Scored(0, 0, 0, False)
    ranks = ranking(cards=[4, 0, 2], winner=1, left=[1])
    assert ranks[1] == 2  # the ratings put a leaver last, tied with any other
    assert score(ranks, 1, streak=0, left=True).points == 0


def test_no_shows_score_zero_and_end_the_streak() -> None:
    assert score([0, 1], 0, streak=5, absent=True) == Scored(0, 0, 0, False)


def test_streak_two_top_half_finishes_in_a_row_light_the_fire() -> None:
    first = score([0, 1, 2, 3], 0, streak=0)
    second = score([1, 0, 2, 3], 0, streak=first.streak)  # second place: top half of 4
    assert (first.points, first.streak, first.doubled) == (3, 1, False)
    assert (second.points, second.streak, second.doubled) == (2, 2, False)
    third = score([0, 1, 2, 3], 0, streak=second.streak)
    assert (third.points, third.place_points, third.doubled) == (6, 3, True)


def test_streak_a_bottom_half_finish_counts_once_and_puts_the_fire_out() -> None:
    on_fire = 4
    bottom = score([0, 1, 2, 3], 2, streak=on_fire)  # third of four: 1 point, bottom half
    assert (bottom.points, bottom.streak, bottom.doubled) == (1, 0, False)
    after = score([0, 1, 2, 3], 0, streak=bottom.streak)
    assert not after.doubled and after.points == 3


def test_streak_the_middle_place_of_an_odd_table_keeps_it_as_it_is() -> None:
    assert half(1, 3) == 0
    middle = score([1, 0, 2], 0, streak=2)  # second of three: on fire, doubled, kept
    assert (middle.points, middle.streak, middle.doubled) == (2, 2, True)
    assert score([1, 0, 2], 0, streak=1).streak == 1


def test_streak_a_duel_is_won_or_lost() -> None:
    assert half(1, 2) == 1 and half(0, 2) == -1
    assert score([1, 0], 0, streak=2) == Scored(0, 0, 0, False)
