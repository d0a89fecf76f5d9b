"""Who plays whom in an arena's wave (arenas.pairing), one test per rule of docs/playing.md."""

from __future__ import annotations

import pytest

from arenas.pairing import REMATCH_AFTER, SMALLER_AFTER, Table, Waiting, pair


def waiting(player: int, points: int = 0, waited: float = 5.0, apart=(), rating: int = 1500):
    return Waiting(player, points, rating, waited, frozenset(apart))


def seated(tables: list[Table]) -> list[int]:
    return [player for table in tables for player in table.players]


def test_a_table_has_two_seats_at_least() -> None:
    with pytest.raises(ValueError):
        pair([], 1)


def test_groups_by_score_the_leaders_together() -> None:
    people = [waiting(n, points=n) for n in range(1, 9)]
    tables = pair(people, 4)
    assert [table.players for table in tables] == [(8, 7, 6, 5), (4, 3, 2, 1)]
    assert all(table.bots == 0 for table in tables)


def test_kept_apart_people_who_just_shared_a_table() -> None:
    # 4 and 3 just played each other, as did 2 and 1: the duels are crossed.
    people = [
        waiting(4, points=9, apart={3}),
        waiting(3, points=8, apart={4}),
        waiting(2, points=7, apart={1}),
        waiting(1, points=6, apart={2}),
    ]
    tables = pair(people, 2)
    assert sorted(sorted(t.players) for t in tables) == [[1, 3], [2, 4]]


def test_kept_apart_unless_nobody_else_came_for_a_while() -> None:
    people = [waiting(1, apart={2}), waiting(2, apart={1})]
    assert pair(people, 2) == []  # others may finish in a moment
    people = [waiting(1, apart={2}, waited=REMATCH_AFTER), waiting(2, apart={1})]
    assert pair(people, 2) == [Table((1, 2))]


def test_kept_apart_at_a_table_of_three_no_table_played_again() -> None:
    # 1, 2, 3 shared the last table; 4, 5, 6 the other: each new table mixes them (two of one
    # old table must meet again, six people at tables of three: as few as the order allows).
    people = [waiting(n, points=10 - n, apart={1, 2, 3} - {n}) for n in (1, 2, 3)]
    people += [waiting(n, points=10 - n, apart={4, 5, 6} - {n}) for n in (4, 5, 6)]
    tables = pair(people, 3)
    for table in tables:
        assert not {1, 2, 3} >= set(table.players) and not {4, 5, 6} >= set(table.players)
    assert sorted(seated(tables)) == [1, 2, 3, 4, 5, 6]


def test_kept_apart_the_same_table_again_waits_for_others_to_come() -> None:
    same = [waiting(n, apart={1, 2, 3} - {n}) for n in (1, 2, 3)]
    assert pair(same, 3) == []
    same[0] = waiting(1, apart={2, 3}, waited=REMATCH_AFTER)
    assert seated(pair(same, 3)) == [1, 2, 3]


def test_odd_numbers_those_who_waited_least_wait_for_the_next_wave() -> None:
    people = [waiting(1, waited=9), waiting(2, waited=8), waiting(3, waited=1)]
    assert seated(pair(people, 2)) == [1, 2]
    people = [waiting(n, waited=10 - n) for n in range(1, 8)]  # 7 people at tables of 3
    tables = pair(people, 3)
    assert len(tables) == 2 and 7 not in seated(tables)


def test_odd_numbers_are_seated_at_a_smaller_table_after_a_while() -> None:
    late = SMALLER_AFTER + 1
    people = [waiting(n, waited=late + 10) for n in range(1, 5)]
    people += [waiting(5, waited=late), waiting(6, waited=late)]
    tables = pair(people, 4)
    assert [len(table.players) for table in tables] == [4, 2]
    assert tables[1].bots == 0 and set(tables[1].players) == {5, 6}


def test_odd_numbers_someone_alone_waits_without_bots() -> None:
    assert pair([waiting(1, waited=600)], 3) == []


def test_odd_numbers_bots_fill_a_table_nobody_else_could_only_where_allowed() -> None:
    lonely = [waiting(1, waited=SMALLER_AFTER + 1)]
    assert pair(lonely, 3, bots_allowed=True) == [Table((1,), 2)]
    assert pair([waiting(1, waited=1)], 3, bots_allowed=True) == []


def test_no_one_seated_twice_in_a_wave_of_a_thousand() -> None:
    people = [waiting(n, points=n % 37, waited=n % 50, apart={n + 1, n - 1}) for n in range(1000)]
    tables = pair(people, 3)
    players = seated(tables)
    assert len(players) == len(set(players)) == 999
    assert all(len(table.players) == 3 for table in tables)
