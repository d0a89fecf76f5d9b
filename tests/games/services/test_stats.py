"""A player's statistics: games played, won and left, the win rate and the recent games."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from games.services import stats, tables
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice) -> Game:
    """alice's game against one bot, played to the end."""
    return play_to_the_end(tables.play_against_bots(alice, opponents=1))


def test_the_statistics_count_the_finished_games(finished, alice, bob) -> None:
    player = stats.player_stats(alice, viewer=alice)

    won = finished.winner == 0
    assert (player["played"], player["won"], player["win_rate"]) == (1, int(won), float(won))
    assert player["recent"][0]["game"] == finished
    assert player["recent"][0]["table_name"] == "alice vs bots"
    assert stats.player_stats(bob) == {
        "played": 0,
        "won": 0,
        "left": 0,
        "win_rate": 0.0,
        "recent": [],
    }


@pytest.fixture
def bobs_games(make_table, bob, carol) -> dict[str, Game]:
    """A game bob played to the end, and one a bot finished in his seat after he left."""
    kept = play_to_the_end(make_table(players=[bob], start=True, turn_seconds=None))
    left = make_table(seat_count=3, players=[bob, carol], start=True, turn_seconds=None)
    tables.leave_table(left.pk, bob)
    return {"kept": kept, "left": play_to_the_end(left)}


def test_a_person_sat_at_a_table_a_bot_took_over_from_them(bobs_games, bob, carol) -> None:
    kept, left = bobs_games["kept"].table_id, bobs_games["left"].table_id

    assert set(Seat.objects.sat_by(bob).values_list("table_id", flat=True)) == {kept, left}
    assert set(Seat.objects.sat_by(carol).values_list("table_id", flat=True)) == {left}
    assert Seat.objects.sat_by(bob.pk, carol.pk).count() == 3
    assert not Seat.objects.filter(table_id=left, user=bob).exists()


def test_a_players_finished_seats_are_told_apart_by_what_each_game_was_for_them(
    bobs_games, bob
) -> None:
    kept = bobs_games["kept"]
    kept_result = "won" if kept.winner == 1 else "lost"

    found = {
        result: [seat.table_id for seat in stats.finished_seats(bob, result)]
        for result in stats.RESULTS
    }

    assert found[kept_result] == [kept.table_id]
    assert found["left"] == [bobs_games["left"].table_id]
    assert sum(map(len, found.values())) == stats.finished_seats(bob).count() == 2
    for seat in stats.finished_seats(bob):
        assert [seat.table_id] == found[stats.seat_result(seat, bob)]
