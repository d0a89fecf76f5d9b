"""A finished game's record (taki-record/1), refused while the game runs, and the verification
of a stored game: its move log, its snapshot and its chained digests."""

from __future__ import annotations

import pytest

from games.engine import replay
from games.engine.record import Record
from games.models import Game, Move, Table
from games.services import history, moves, tables
from games.services.errors import ServiceError
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db

HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
]


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


@pytest.fixture
def table(alice, bob, make_table, rig) -> Table:
    """alice and bob; alice has played her red 3, and it is bob's turn."""
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})
    return table


@pytest.fixture
def finished(alice) -> Game:
    """alice's game against one bot, played to the end."""
    return play_to_the_end(tables.play_against_bots(alice, opponents=1))


def test_the_record_is_refused_while_the_game_runs(table) -> None:
    with pytest.raises(ServiceError) as caught:
        history.export_record(game_of(table))

    assert caught.value.code == "forbidden"


def test_a_finished_game_exports_a_record_that_replays(finished) -> None:
    record = history.export_record(finished)

    digests = list(finished.moves.order_by("seq").values_list("digest", flat=True))
    actions = list(finished.moves.order_by("seq").values_list("action", flat=True))
    assert record["format"] == "taki-record/1"
    assert record["actions"] == actions
    assert record["digests"] == digests
    assert record["game_id"] == finished.pk
    assert record["finished_at"] == finished.finished_at.isoformat()
    assert record["result"] == {
        "winner": finished.winner,
        "winner_name": finished.players[finished.winner],
    }
    result = replay(Record.from_json(record))
    assert result.ok and result.game.winner == finished.winner


def test_a_game_verifies_until_its_log_is_tampered_with(table, bob) -> None:
    moves.submit_action(table.pk, bob, {"type": "draw", "version": 1})
    game = game_of(table)
    assert history.verify_game(game)

    first = game.moves.get(seq=0)
    Move.objects.filter(pk=first.pk).update(action={"type": "play", "player": 0, "card": "red:1"})

    assert not history.verify_game(game)


def test_a_game_does_not_verify_if_its_snapshot_was_changed(table) -> None:
    game = game_of(table)
    game.state["hands"][0], game.state["hands"][1] = game.state["hands"][1], game.state["hands"][0]
    Game.objects.filter(pk=game.pk).update(state=game.state)

    assert not history.verify_game(game_of(table))


def test_a_game_does_not_verify_if_a_chained_digest_was_changed(table) -> None:
    game = game_of(table)
    Move.objects.filter(game=game).update(digest="0" * 64)

    assert not history.verify_game(game)
