"""A table as everyone sees it (``TableView``): its seats, their hand sizes and whose turn it is,
the last moves as data, an open table's seats, a finished game's result, a tournament's stages."""

from __future__ import annotations

import pytest

from games import presenters
from games.services import presence
from tests.games.presenters.helpers import game_of, seen_by

pytestmark = pytest.mark.django_db


def test_every_seat_shows_its_hand_size_and_whose_turn_it_is(table, alice, bob) -> None:
    presence.socket_opened(table.pk, bob)

    seats = seen_by(table, alice)["seats"]

    assert [(s.name, s.hand_size, s.is_turn) for s in seats] == [
        ("alice", 7, False),
        ("bob", 8, True),
    ]
    assert [s.connected for s in seats] == [False, True]
    assert seats[1].deadline == game_of(table).turn_deadline
    presence.socket_closed(table.pk, bob)
    assert seen_by(table, alice)["seats"][1].connected is False


def test_the_recent_events_are_data_for_the_words(table, alice) -> None:
    events = presenters.read_table(table.pk).recent_moves

    assert events == (
        {
            "seq": 0,
            "seat": 0,
            "source": "player",
            "events": [{"kind": "played", "seat": 0, "card": "red:3", "color": "red"}],
            "action": {"type": "play", "player": 0, "card": "red:3"},
        },
    )
    assert seen_by(table, alice)["recent"] == [{"seq": 1, "text": "alice played red 3"}]


def test_an_open_table_has_no_game_to_show(alice, bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    context = seen_by(table, alice)

    assert (context["board"], context["version"], context["result"]) == (None, None, None)
    assert context["is_host"] and context["can_start"]
    assert [s.name for s in context["seats"]] == ["alice", "bob", ""]


def test_a_finished_game_shows_its_result_to_everyone(finished, alice, bob) -> None:
    table = finished.table

    for viewer in (alice, bob):
        context = seen_by(table, viewer)
        assert context["result"]["winner"] == finished.winner
        assert context["hand"] is None and context["legal"] is None


def test_a_tournament_game_starts_every_seat_at_stage_eight(alice, bob, make_table) -> None:
    table = make_table(players=[bob], tournament=True, start=True)

    context = seen_by(table, alice)

    assert table.game.tournament and table.game.engine().tournament
    assert [seat.stage for seat in context["seats"]] == [8, 8]
