"""R23: what the server plays for a seat whose time runs out (``GameState.default_action``)."""

from __future__ import annotations

from games.engine import play
from tests.games.engine.helpers import new_game, run

FILLER = ["yellow:1", "green:3", "yellow:4"]


def default(game, seat: int) -> dict:
    return game.default_action(seat).to_json()


def test_r23_the_default_accepts_a_pending_plus3():
    game = new_game([["plus3", *FILLER], [*FILLER, "red:7"]], "red:5")
    run(game, [play(0, "plus3")])

    assert default(game, 1) == {"type": "accept", "player": 1}


def test_r23_the_default_closes_ones_own_taki_run():
    game = new_game([["red:taki", "red:3", *FILLER], FILLER], "red:5")
    run(game, [play(0, "red:taki"), play(0, "red:3")])

    assert default(game, 0) == {"type": "close_taki", "player": 0}


def test_r23_the_default_passes_where_r14_forbids_closing_a_run_of_the_taki_alone():
    game = new_game([["red:taki", "red:3", *FILLER], FILLER], "red:5")
    run(game, [play(0, "red:taki")])

    assert default(game, 0) == {"type": "pass", "player": 0}


def test_r23_the_default_draws_and_so_takes_a_plus2_stack():
    game = new_game([["red:plus2", *FILLER], [*FILLER, "blue:9"]], "red:5")
    run(game, [play(0, "red:plus2")])

    assert default(game, 1) == {"type": "draw", "player": 1}


def test_r23_the_default_draws_on_an_ordinary_turn_even_with_a_legal_card():
    game = new_game([["red:7", *FILLER], FILLER], "red:5")

    assert default(game, 0) == {"type": "draw", "player": 0}
